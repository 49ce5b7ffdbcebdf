/**
 * Pocketsphinx off the event loop. Its decoding is synchronous (0.7 ms per 20 ms frame for
 * the domain model, 2–4 ms for the general one): on the event loop, a dozen calls' audio
 * stalled it for hundreds of milliseconds at a time, and every call's audio and replies
 * waited. Here a pool of worker threads, one per core, decodes; the event loop only posts
 * frames and reads answers.
 *
 * - A recogniser (one assistant vocabulary) exists on every thread, each with its own
 *   decoder pool; its language model is built once, before the threads load it.
 * - A call's reservation is placed on the thread with the fewest; an utterance opens on
 *   the thread with the most pairs ready for it (reserved and not in use), so its first
 *   frame finds one, then on the one with the fewest live utterances.
 * - What the event loop says to a thread during one of its turns (every live call's frame,
 *   a finish, a sync) goes in one message, and the thread answers likewise.
 * - A thread that dies is replaced. What had not reached it yet (it was still starting)
 *   goes to its replacement; the utterances it was decoding are lost, and their streams
 *   fail with `RecognizerLostError`, which ends those calls saying why. Its recognisers
 *   and reservations are made again on the replacement.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RecognizerLostError } from '../../recognizer-lost.js';
import type { RecognitionOptions, RecognitionStream, SpeechRecognizer } from '../../types.js';
import type { DetailedRecognitionResult } from '../recognizer.js';
import type {
  FromThread,
  FromThreadMessage,
  ThreadRecognizerOptions,
  ToThread,
  ToThreadMessage,
} from './messages.js';

/** The compiled worker (absent when running from TypeScript sources, as in unit tests). */
export const RECOGNIZER_WORKER_FILE = fileURLToPath(
  new URL('./recognizer-worker.js', import.meta.url),
);

export function recognizerWorkerBuilt(): boolean {
  return existsSync(RECOGNIZER_WORKER_FILE);
}

/** Restarts of a thread that dies before it is up, in a row, before its slot gives up. */
const MAX_FAILED_STARTS = 3;
const RESTART_DELAY_MS = 200;

export interface RecognitionThreadsOptions {
  /** Threads in the pool. Default: one per core. */
  size?: number;
  /** The worker script (tests give a stand-in). Default: the compiled recogniser worker. */
  workerFile?: string;
}

interface Waiting<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/**
 * A recogniser's options on thread `index`: the first thread keeps the pool's spare domain
 * decoders (for an utterance no call announced), the others none. Every thread keeps its
 * own spare general decoder: a doubted utterance on a thread without one waited for one to
 * be made (about 300 ms) before its fallback could start.
 */
function sparesOn(index: number, options: ThreadRecognizerOptions): ThreadRecognizerOptions {
  return { ...options, spares: index === 0 ? (options.spares ?? 1) : 0 };
}

/** One thread of the pool: its worker (replaced when it dies) and what lives on it. */
class Slot {
  worker: Worker | null = null;
  /** Messages not yet sent: held until the worker says it is up, then until the next flush. */
  #outbox: { message: ToThreadMessage; transfer?: ArrayBuffer[] }[] = [];
  #flushScheduled = false;
  #up = false;
  #failedStarts = 0;
  #closing = false;
  broken: string | null = null;
  readonly streams = new Map<number, ThreadedStream>();
  /** Live reservations placed here, by id, with their recogniser key. */
  readonly reservations = new Map<number, string>();
  /** Utterances open here, by recogniser key. */
  readonly busy = new Map<string, number>();
  readonly #made = new Map<string, Waiting<void>>();
  readonly #counts = new Map<number, Waiting<number>>();
  #nextRequest = 1;

  constructor(
    readonly index: number,
    private readonly workerFile: string,
    private readonly recognizers: () => Iterable<[string, ThreadRecognizerOptions]>,
  ) {
    this.#spawn();
  }

  post(message: ToThreadMessage, transfer?: ArrayBuffer[]): void {
    if (this.broken !== null) return;
    this.#outbox.push(transfer === undefined ? { message } : { message, transfer });
    this.#schedule();
  }

  #schedule(): void {
    if (this.#flushScheduled || !this.#up) return;
    this.#flushScheduled = true;
    // After this turn's I/O callbacks: every call whose frame arrived in it is in the batch.
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    const worker = this.worker;
    if (worker === null || !this.#up || this.#outbox.length === 0) return;
    const held = this.#outbox;
    this.#outbox = [];
    const transfer: ArrayBuffer[] = [];
    for (const item of held) if (item.transfer !== undefined) transfer.push(...item.transfer);
    const message: ToThread =
      held.length === 1
        ? (held[0] as { message: ToThreadMessage }).message
        : { type: 'batch', messages: held.map((item) => item.message) };
    worker.postMessage(message, transfer);
  }

  /** Makes a recogniser here; settles once the thread has it (or could not make it). */
  make(key: string, options: ThreadRecognizerOptions): Promise<void> {
    if (this.broken !== null) return Promise.reject(new Error(this.broken));
    return new Promise<void>((resolve, reject) => {
      this.#made.set(key, { resolve, reject });
      this.post({ type: 'recognizer', key, options });
    });
  }

  decoderCount(): Promise<number> {
    if (this.broken !== null) return Promise.resolve(0);
    const request = this.#nextRequest++;
    return new Promise<number>((resolve, reject) => {
      this.#counts.set(request, { resolve, reject });
      this.post({ type: 'count', request });
    });
  }

  load(): number {
    return this.streams.size;
  }

  close(): Promise<void> {
    this.#closing = true;
    const worker = this.worker;
    this.worker = null;
    for (const stream of this.streams.values()) stream.lost('the recogniser was closed');
    this.streams.clear();
    if (worker === null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const overdue = setTimeout(() => void worker.terminate(), 5_000);
      worker.once('exit', () => {
        clearTimeout(overdue);
        resolve();
      });
      if (this.#up) worker.postMessage({ type: 'close' } satisfies ToThread);
      else void worker.terminate();
    });
  }

  #spawn(): void {
    const worker = new Worker(this.workerFile);
    this.worker = worker;
    this.#up = false;
    // An idle pool does not keep the process alive; the calls using it do.
    worker.unref();
    worker.on('message', (message: FromThread) => this.#receive(message));
    worker.on('error', (error) => this.#died(worker, `it failed: ${error.message}`));
    worker.on('exit', (code) => this.#died(worker, `it stopped (exit code ${code})`));
  }

  #receive(message: FromThread): void {
    if (message.type === 'batch') {
      for (const m of message.messages) this.#receiveOne(m);
      return;
    }
    this.#receiveOne(message);
  }

  #receiveOne(message: FromThreadMessage): void {
    switch (message.type) {
      case 'ready': {
        this.#up = true;
        this.#failedStarts = 0;
        this.#schedule();
        return;
      }
      case 'made': {
        const waiting = this.#made.get(message.key);
        this.#made.delete(message.key);
        if (message.ok) waiting?.resolve();
        else waiting?.reject(new Error(message.message));
        return;
      }
      case 'count': {
        this.#counts.get(message.request)?.resolve(message.decoders);
        this.#counts.delete(message.request);
        return;
      }
      case 'state':
        this.streams.get(message.stream)?.onState(message);
        return;
      case 'result': {
        const stream = this.streams.get(message.stream);
        if (stream === undefined) return;
        this.streams.delete(message.stream);
        stream.onResult(message);
        return;
      }
    }
  }

  #died(worker: Worker, why: string): void {
    if (this.worker !== worker || this.#closing) return;
    this.worker = null;
    const wasUp = this.#up;
    this.#up = false;
    const reason = `the recognition thread ${why}`;
    // What it was decoding is gone with it; what had not reached it yet waits for the next.
    if (wasUp) {
      for (const stream of this.streams.values()) stream.lost(reason);
      this.streams.clear();
    }
    for (const waiting of this.#counts.values()) waiting.resolve(0);
    this.#counts.clear();
    this.#failedStarts = wasUp ? 0 : this.#failedStarts + 1;
    if (this.#failedStarts >= MAX_FAILED_STARTS) {
      this.broken = `${reason}, and could not be started again`;
      for (const stream of this.streams.values()) stream.lost(this.broken);
      this.streams.clear();
      for (const waiting of this.#made.values()) waiting.reject(new Error(this.broken));
      this.#made.clear();
      this.#outbox = [];
      return;
    }
    // The replacement gets every recogniser and reservation this thread had, then the held
    // messages (not yet sent), in their order.
    let held = this.#outbox;
    this.#outbox = [];
    if (wasUp) {
      for (const [key, options] of this.recognizers()) {
        if (!this.#made.has(key))
          this.#outbox.push({ message: { type: 'recognizer', key, options } });
      }
      for (const [reservation, key] of this.reservations)
        this.#outbox.push({ message: { type: 'reserve', key, reservation } });
      // A reservation not yet sent is among those just listed: twice would undo it.
      held = held.filter(({ message }) => message.type !== 'reserve');
    }
    this.#outbox.push(...held);
    const restart = setTimeout(() => this.#spawn(), wasUp ? 0 : RESTART_DELAY_MS);
    restart.unref();
  }
}

/**
 * The pool of recognition threads. Make one per process (the transcriber does) and close
 * it when done.
 */
export class RecognitionThreads {
  readonly size: number;
  readonly #slots: Slot[];
  /** Recognisers made on every thread, by key: a replacement thread makes them again. */
  readonly #recognizers = new Map<string, ThreadRecognizerOptions>();
  #nextId = 1;
  #closed = false;

  constructor(options: RecognitionThreadsOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    const workerFile = options.workerFile ?? RECOGNIZER_WORKER_FILE;
    this.#slots = Array.from(
      { length: this.size },
      (_, index) => new Slot(index, workerFile, () => this.#optionsFor(index)),
    );
  }

  /**
   * A recogniser for `key` on every thread. The caller builds its language model first
   * (`buildDomainModelOffThread`), so the threads find it cached rather than each building it.
   */
  async recognizer(key: string, options: ThreadRecognizerOptions): Promise<ThreadedRecognizer> {
    if (this.#closed) throw new Error('RecognitionThreads: recognizer() after close()');
    this.#recognizers.set(key, options);
    try {
      await Promise.all(this.#slots.map((slot) => slot.make(key, sparesOn(slot.index, options))));
    } catch (error) {
      this.drop(key);
      throw error;
    }
    return new ThreadedRecognizer(this, key);
  }

  /** The recognisers of every thread, as thread `index` makes them. */
  *#optionsFor(index: number): Iterable<[string, ThreadRecognizerOptions]> {
    for (const [key, options] of this.#recognizers) yield [key, sparesOn(index, options)];
  }

  /** Frees a recogniser on every thread. */
  drop(key: string): void {
    this.#recognizers.delete(key);
    for (const slot of this.#slots) slot.post({ type: 'drop-recognizer', key });
  }

  /** Decoder pairs on every thread, for every recogniser. */
  async decoderCount(): Promise<number> {
    const counts = await Promise.all(this.#slots.map((slot) => slot.decoderCount()));
    return counts.reduce((a, b) => a + b, 0);
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** The working thread with the fewest reservations. */
  slotToReserve(): Slot {
    return this.#pick((slot) => -slot.reservations.size);
  }

  /**
   * The working thread with the most pairs ready for `key` (reserved there and not in use),
   * then the fewest live utterances.
   */
  slotToOpen(key: string): Slot {
    return this.#pick((slot) => {
      let reserved = slot.index === 0 ? 1 : 0; // the first thread holds the spare
      for (const k of slot.reservations.values()) if (k === key) reserved += 1;
      const ready = reserved - (slot.busy.get(key) ?? 0);
      return ready * 1000 - slot.load();
    });
  }

  #pick(score: (slot: Slot) => number): Slot {
    const working = this.#slots.filter((slot) => slot.broken === null);
    const candidates = working.length > 0 ? working : this.#slots;
    let best = candidates[0] as Slot;
    for (const slot of candidates) if (score(slot) > score(best)) best = slot;
    return best;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Ends every thread (their live streams fail); idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#recognizers.clear();
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }
}

/** One assistant vocabulary's recogniser, on every thread of the pool. */
export class ThreadedRecognizer implements SpeechRecognizer {
  readonly provider = 'pocketsphinx';
  #disposed = false;

  constructor(
    private readonly threads: RecognitionThreads,
    private readonly key: string,
  ) {}

  open(options: RecognitionOptions = {}): ThreadedRecognitionStream {
    if (this.#disposed || this.threads.closed)
      throw new Error('ThreadedRecognizer: open() after dispose()');
    return new ThreadedStream(
      this.threads.slotToOpen(this.key),
      this.threads.nextId(),
      this.key,
      options,
    );
  }

  reserve(): () => void {
    const slot = this.threads.slotToReserve();
    const reservation = this.threads.nextId();
    slot.reservations.set(reservation, this.key);
    slot.post({ type: 'reserve', key: this.key, reservation });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slot.reservations.delete(reservation);
      slot.post({ type: 'release', reservation });
    };
  }

  decoderCount(): Promise<number> {
    return this.threads.decoderCount();
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (!this.threads.closed) this.threads.drop(this.key);
  }
}

/**
 * The result with the time its turn's end spent waiting for the thread (`queuedMs`): all
 * of `waitedMs` (from asking for the result to having it) but the thread's own finishing
 * of the turn (`decodingMs`, measured there), so the thread's earlier work (every frame
 * pushed before, this call's and the others') and the messages' way there and back.
 */
function withQueuedMs(
  result: DetailedRecognitionResult,
  waitedMs: number,
): DetailedRecognitionResult {
  const decodingMs = result.waits?.decodingMs;
  if (decodingMs === undefined) return result;
  return {
    ...result,
    waits: { ...result.waits, queuedMs: Math.max(0, waitedMs - decodingMs) },
  };
}

/** An utterance decoding on a thread: frames go there, the words so far come back. */
export interface ThreadedRecognitionStream extends RecognitionStream {
  finish(): Promise<DetailedRecognitionResult>;
  pause(quietMs?: number): Promise<string[]>;
  confidenceSoFar(): number | undefined;
  /** Frames pushed that the thread has not yet said it decoded. */
  readonly pendingFrames: number;
}

class ThreadedStream implements ThreadedRecognitionStream {
  #partial = '';
  #confidence: number | undefined = undefined;
  #pushed = 0;
  /** Frames the thread had decoded when it last told us its words. */
  #heardAt = 0;
  #done = false;
  #released = false;
  #lost: RecognizerLostError | null = null;
  #result: Waiting<DetailedRecognitionResult> | null = null;
  readonly #syncs = new Map<number, () => void>();
  #nextSync = 1;

  constructor(
    private readonly slot: Slot,
    private readonly id: number,
    private readonly key: string,
    options: RecognitionOptions,
  ) {
    slot.streams.set(id, this);
    slot.busy.set(key, (slot.busy.get(key) ?? 0) + 1);
    slot.post({ type: 'open', key, stream: id, options });
  }

  push(frame: Int16Array): void {
    if (this.#done) throw new Error('RecognitionStream: push() after finish() or cancel()');
    if (this.#lost !== null) return;
    this.#pushed += 1;
    // The caller may reuse its buffer; the copy crosses to the thread.
    const copy = frame.slice();
    this.slot.post({ type: 'push', stream: this.id, frame: copy }, [copy.buffer]);
  }

  get pendingFrames(): number {
    return this.#pushed - this.#heardAt;
  }

  partial(): string {
    return this.#done ? '' : this.#partial;
  }

  /**
   * The thread's confidence in the words it last told (unknown while its own backlog is
   * still being decoded). The frames on their way to it are not waited for: after `pause()`
   * they are the quiet that followed the words. Waiting for them made every turn look
   * unsure, so each one was read again by the second recogniser, for nothing.
   */
  confidenceSoFar(): number | undefined {
    return this.#done ? undefined : this.#confidence;
  }

  /**
   * Waits for the thread to decode every frame pushed so far; answers its words then (as
   * `partial()` and `confidenceSoFar()` will, until more frames come).
   */
  pause(): Promise<string[]> {
    if (this.#done || this.#lost !== null) return Promise.resolve([]);
    const request = this.#nextSync++;
    const at = this.#pushed;
    return new Promise<string[]>((resolve) => {
      this.#syncs.set(request, () => {
        this.#heardAt = Math.max(this.#heardAt, at);
        resolve(this.#partial === '' ? [] : [this.#partial]);
      });
      this.slot.post({ type: 'sync', stream: this.id, request });
    });
  }

  finish(): Promise<DetailedRecognitionResult> {
    if (this.#done) throw new Error('RecognitionStream: finish() after finish() or cancel()');
    this.#done = true;
    if (this.#lost !== null) {
      this.#release();
      return Promise.reject(this.#lost);
    }
    const asked = performance.now();
    return new Promise<DetailedRecognitionResult>((resolve, reject) => {
      this.#result = { resolve, reject };
      this.slot.post({ type: 'finish', stream: this.id });
    }).then((result) => withQueuedMs(result, performance.now() - asked));
  }

  cancel(): void {
    if (this.#done) return;
    this.#done = true;
    this.#release();
    if (this.#lost === null) this.slot.post({ type: 'cancel', stream: this.id });
  }

  onState(state: Extract<FromThread, { type: 'state' }>): void {
    this.#partial = state.partial;
    this.#confidence = state.confidence;
    if (state.request === undefined) return;
    this.#syncs.get(state.request)?.();
    this.#syncs.delete(state.request);
  }

  onResult(reply: Extract<FromThread, { type: 'result' }>): void {
    this.#release();
    // A pause the thread was still catching up to when the turn ended: its words are the
    // result's now, and the answer to it (if any) will find this stream gone.
    for (const resolve of this.#syncs.values()) resolve();
    this.#syncs.clear();
    const waiting = this.#result;
    this.#result = null;
    if (reply.ok) waiting?.resolve(reply.result);
    else waiting?.reject(new Error(`pocketsphinx: ${reply.message}`));
  }

  /** The thread died with this utterance on it. */
  lost(reason: string): void {
    if (this.#lost !== null) return;
    this.#lost = new RecognizerLostError(reason);
    for (const resolve of this.#syncs.values()) resolve();
    this.#syncs.clear();
    const waiting = this.#result;
    this.#result = null;
    if (waiting !== null) {
      this.#release();
      waiting.reject(this.#lost);
    }
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    const slot = this.slot;
    slot.streams.delete(this.id);
    const open = (slot.busy.get(this.key) ?? 1) - 1;
    if (open > 0) slot.busy.set(this.key, open);
    else slot.busy.delete(this.key);
  }
}
