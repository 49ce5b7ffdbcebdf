/**
 * RNNoise off the event loop. Cleaning one 20 ms frame (16→48 kHz, two RNNoise frames,
 * back to 16 kHz) takes about 0.35 ms; at a dozen calls that was 40 % of the event loop's
 * time (a CPU profile of the concurrency benchmark), and a call's burst of frames held
 * every other call's audio and replies up behind it. Here a pool of worker threads, one per
 * core, cleans; the event loop only posts frames and reads them back.
 *
 * - A call's suppressor lives on the thread with the fewest.
 * - Every frame given during one turn of the event loop goes to its thread in one message
 *   (and comes back in one), not one message per frame.
 * - Frames come back in the order they were given, each as its own buffer.
 * - A thread that dies is replaced. The frames it held come back as they were (uncleaned:
 *   the call hears them a little noisier, but loses nothing); the frames that had not
 *   reached it go to its replacement, where its calls' suppressors are made afresh (their
 *   state is 10 ms of audio). A thread that cannot be started again passes frames through.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FRAME_SAMPLES } from '../../audio/format.js';
import type { OffThreadNoiseSuppressor } from '../types.js';
import type { FromDenoiser, ToDenoiser } from './messages.js';

/** The compiled worker (absent when running from TypeScript sources, as in unit tests). */
export const DENOISE_WORKER_FILE = fileURLToPath(new URL('./denoise-worker.js', import.meta.url));

export function denoiseWorkerBuilt(): boolean {
  return existsSync(DENOISE_WORKER_FILE);
}

/** Restarts of a thread that dies before it is up, in a row, before its slot gives up. */
const MAX_FAILED_STARTS = 3;
const RESTART_DELAY_MS = 200;

export interface DenoiseThreadsOptions {
  /** Threads in the pool. Default: one per core. */
  size?: number;
  /** The worker script (tests give a stand-in). Default: the compiled denoise worker. */
  workerFile?: string;
  /** Told when a thread dies or a frame could not be cleaned (for the server's log). */
  onProblem?: (message: string) => void;
}

interface Pending {
  id: number;
  raw: Int16Array;
  resolve: (frame: Int16Array) => void;
}

/** One thread of the pool: its worker (replaced when it dies) and the calls placed on it. */
class Slot {
  #worker: Worker | null = null;
  #up = false;
  #failedStarts = 0;
  #closing = false;
  #broken = false;
  /** Suppressors placed here and not yet disposed. */
  readonly live = new Set<number>();
  /** What the next batch carries. */
  #opens: number[] = [];
  #closes: number[] = [];
  #outgoing: Pending[] = [];
  #flushScheduled = false;
  /** Frames sent and not yet back, in the order sent. */
  #inFlight: Pending[] = [];

  constructor(
    private readonly workerFile: string,
    private readonly onProblem: (message: string) => void,
  ) {
    this.#spawn();
  }

  open(id: number): void {
    this.live.add(id);
    this.#opens.push(id);
    this.#schedule();
  }

  dispose(id: number): void {
    if (!this.live.delete(id)) return;
    this.#closes.push(id);
    this.#schedule();
  }

  /** It could not be started again: its frames pass through uncleaned. */
  get broken(): boolean {
    return this.#broken;
  }

  clean(id: number, frame: Int16Array): Promise<Int16Array> {
    if (this.#broken) return Promise.resolve(frame.slice());
    return new Promise<Int16Array>((resolve) => {
      // The caller may reuse its buffer; the batch holds a copy.
      this.#outgoing.push({ id, raw: frame.slice(), resolve });
      this.#schedule();
    });
  }

  close(): Promise<void> {
    this.#closing = true;
    this.#passThrough();
    const worker = this.#worker;
    this.#worker = null;
    if (worker === null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const overdue = setTimeout(() => void worker.terminate(), 5_000);
      worker.once('exit', () => {
        clearTimeout(overdue);
        resolve();
      });
      if (this.#up) worker.postMessage({ type: 'close' } satisfies ToDenoiser);
      else void worker.terminate();
    });
  }

  #schedule(): void {
    if (this.#flushScheduled || !this.#up) return;
    this.#flushScheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    const worker = this.#worker;
    if (worker === null || !this.#up) return;
    const frames = this.#outgoing;
    if (frames.length === 0 && this.#opens.length === 0 && this.#closes.length === 0) return;
    const ids = new Int32Array(frames.length);
    const samples = new Int16Array(frames.length * FRAME_SAMPLES);
    frames.forEach((pending, i) => {
      ids[i] = pending.id;
      samples.set(pending.raw, i * FRAME_SAMPLES);
    });
    const message: ToDenoiser = {
      type: 'batch',
      opens: this.#opens,
      frames: { ids, samples },
      closes: this.#closes,
    };
    this.#opens = [];
    this.#closes = [];
    this.#outgoing = [];
    this.#inFlight.push(...frames);
    worker.postMessage(message, [ids.buffer, samples.buffer]);
  }

  #spawn(): void {
    const worker = new Worker(this.workerFile);
    this.#worker = worker;
    this.#up = false;
    // An idle pool does not keep the process alive; the calls using it do.
    worker.unref();
    worker.on('message', (message: FromDenoiser) => this.#receive(message));
    worker.on('error', (error) => this.#died(worker, `it failed: ${error.message}`));
    worker.on('exit', (code) => this.#died(worker, `it stopped (exit code ${code})`));
  }

  #receive(message: FromDenoiser): void {
    if (message.type === 'ready') {
      this.#up = true;
      this.#failedStarts = 0;
      this.#schedule();
      return;
    }
    const { ids, samples } = message.frames;
    for (let i = 0; i < ids.length; i++) {
      const pending = this.#inFlight.shift();
      if (pending === undefined) break;
      if (pending.id !== ids[i]) {
        // Cannot happen with the real worker; should it, no frame is given to the wrong call.
        pending.resolve(pending.raw);
        continue;
      }
      pending.resolve(samples.slice(i * FRAME_SAMPLES, (i + 1) * FRAME_SAMPLES));
    }
    for (const failure of message.failures) this.onProblem(`A frame was not cleaned: ${failure}`);
  }

  #died(worker: Worker, why: string): void {
    if (this.#worker !== worker || this.#closing) return;
    this.#worker = null;
    const wasUp = this.#up;
    this.#up = false;
    this.#flushScheduled = false;
    // What it held comes back as it was; what had not reached it waits for the next.
    for (const pending of this.#inFlight) pending.resolve(pending.raw);
    this.#inFlight = [];
    // The replacement makes every live suppressor afresh; the old ones' frees are moot.
    this.#opens = [...this.live];
    this.#closes = [];
    this.#failedStarts = wasUp ? 0 : this.#failedStarts + 1;
    if (this.#failedStarts >= MAX_FAILED_STARTS) {
      this.#broken = true;
      this.onProblem(
        `A denoise thread ${why}, and could not be started again: its calls go on without noise suppression`,
      );
      this.#passThrough();
      return;
    }
    this.onProblem(`A denoise thread ${why}; it is replaced`);
    setTimeout(() => {
      if (!this.#closing) this.#spawn();
    }, RESTART_DELAY_MS).unref();
  }

  /** Every frame waiting here comes back as it was. */
  #passThrough(): void {
    for (const pending of [...this.#inFlight, ...this.#outgoing]) pending.resolve(pending.raw);
    this.#inFlight = [];
    this.#outgoing = [];
  }
}

/** The pool (one per process): `open()` gives a call its suppressor. */
export class DenoiseThreads {
  readonly size: number;
  readonly #slots: Slot[];
  #nextId = 1;
  #closed = false;

  constructor(options: DenoiseThreadsOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    const workerFile = options.workerFile ?? DENOISE_WORKER_FILE;
    const onProblem = options.onProblem ?? (() => undefined);
    this.#slots = Array.from({ length: this.size }, () => new Slot(workerFile, onProblem));
  }

  /** One call's suppressor, on the working thread with the fewest. */
  open(): OffThreadNoiseSuppressor {
    if (this.#closed) throw new Error('DenoiseThreads: open() after close()');
    const working = this.#slots.filter((slot) => !slot.broken);
    const slot = (working.length > 0 ? working : this.#slots).reduce((a, b) =>
      b.live.size < a.live.size ? b : a,
    );
    const id = this.#nextId++;
    slot.open(id);
    let disposed = false;
    return {
      clean: (frame) => {
        if (disposed) return Promise.reject(new Error('Noise suppressor used after dispose()'));
        if (frame.length !== FRAME_SAMPLES)
          return Promise.reject(
            new RangeError(
              `Noise suppression frames must be ${FRAME_SAMPLES} samples, got ${frame.length}`,
            ),
          );
        return slot.clean(id, frame);
      },
      dispose: () => {
        disposed = true;
        slot.dispose(id);
      },
    };
  }

  /** Calls placed on each thread (for tests and metrics). */
  get load(): number[] {
    return this.#slots.map((slot) => slot.live.size);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }
}
