/**
 * Moonshine off the event loop. onnxruntime-node computes on the thread that calls it: a
 * transcription with two alternatives held the event loop for about 186 of its 226 ms
 * (measured), stalling every other call's audio and recognition on the process meanwhile.
 * Here a worker thread holds the model (about 160 MB of RSS with the thread; the process
 * runs one per core, `MoonshineThreads`) and reads the turns one at a time, off the event
 * loop: those an answer waits
 * for first, in the order they came, then the rest (`ReadingOptions.urgency`). A reading
 * no longer wanted is dropped, or stopped if under way (`ReadingOptions.signal`).
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MoonshineTranscript } from './moonshine-model.js';

export interface ReadingOptions {
  /** How many readings beside the best to look for (`MoonshineModel.transcribe`). */
  alternatives?: number;
  /** Drops the reading: it rejects with the signal's reason, and its work stops. */
  signal?: AbortSignal;
  /**
   * 'now' (the default) when a caller's answer waits for the reading; 'later' when nothing
   * does (a recheck after the answer): the thread reads it once no 'now' reading waits.
   */
  urgency?: 'now' | 'later';
  /**
   * Texts whose words the reading favours where the audio leaves it in doubt: the
   * assistant's own (see `word-bias.ts`).
   */
  bias?: readonly string[];
}

/** What reads an utterance with Moonshine: the model itself, or the model on its thread. */
export interface MoonshineReader {
  transcribe(samples: Float32Array, options?: ReadingOptions): Promise<MoonshineTranscript>;
  dispose(): Promise<void>;
}

/** A reading asked of the worker (`id` 0 is its own "loaded" message). */
export interface ThreadRequest {
  id: number;
  samples: Float32Array;
  alternatives?: number;
  urgency?: 'now' | 'later';
  bias?: readonly string[];
}

/** Tells the worker a reading is no longer wanted (no reply is sent for it). */
export interface ThreadCancel {
  cancel: number;
}

/** Asks the worker to finish the readings it has, free the model and stop. */
export interface ThreadClose {
  close: true;
}

/**
 * How long a closing worker may take to finish its readings before it is stopped outright.
 * Stopping it mid-reading is a last resort: onnxruntime-node's reading still in flight then
 * answers into a torn-down thread and aborts the whole process ("terminate called after
 * throwing an instance of 'Napi::Error'", seen in about one test run in five).
 */
const CLOSE_GRACE_MS = 10_000;

export type ThreadReply =
  | { id: number; ok: true; transcript?: MoonshineTranscript }
  | { id: number; ok: false; message: string };

/** The compiled worker (absent when running from TypeScript sources, as in unit tests). */
export const MOONSHINE_WORKER_FILE = fileURLToPath(
  new URL('./moonshine-worker.js', import.meta.url),
);

interface Waiting {
  resolve: (transcript: MoonshineTranscript) => void;
  reject: (error: Error) => void;
}

export class MoonshineThread implements MoonshineReader {
  /** The current worker's model load; null when no worker runs (not yet, or it stopped). */
  private current: Promise<Worker> | null = null;
  readonly #pending = new Map<number, Waiting>();
  #nextId = 1;
  #disposed = false;
  readonly #waiting = { all: 0, now: 0 };

  private constructor(private readonly options: { modelDir?: string; workerFile: string }) {}

  /**
   * Readings asked of this thread and not yet settled: all of them, and those an answer
   * waits for (`urgency` 'now'). Counted from the moment they are asked, so a pool choosing
   * between threads sees them at once (`MoonshineThreads`).
   */
  get waiting(): { all: number; now: number } {
    return { ...this.#waiting };
  }

  /** Starts the worker and waits for its model; rejects with the reason when it cannot load. */
  static async start(
    options: { modelDir?: string; workerFile?: string } = {},
  ): Promise<MoonshineThread> {
    const thread = new MoonshineThread({
      ...options,
      workerFile: options.workerFile ?? MOONSHINE_WORKER_FILE,
    });
    await thread.running();
    return thread;
  }

  /**
   * Reads the samples on the worker. If the worker stopped (it crashed), a new one starts
   * first; the readings it was doing when it stopped failed with the reason.
   */
  async transcribe(
    samples: Float32Array,
    options: ReadingOptions = {},
  ): Promise<MoonshineTranscript> {
    if (this.#disposed) throw new Error('The Moonshine model was closed.');
    options.signal?.throwIfAborted();
    const now = options.urgency !== 'later';
    this.#waiting.all++;
    if (now) this.#waiting.now++;
    try {
      return await this.#read(samples, options);
    } finally {
      this.#waiting.all--;
      if (now) this.#waiting.now--;
    }
  }

  async #read(samples: Float32Array, options: ReadingOptions): Promise<MoonshineTranscript> {
    const { signal } = options;
    const worker = await this.running();
    signal?.throwIfAborted();
    const id = this.#nextId++;
    // The caller keeps its samples: a copy crosses to the worker.
    const copy = samples.slice();
    return new Promise<MoonshineTranscript>((resolve, reject) => {
      const dropped = () => {
        if (!this.#pending.delete(id)) return;
        if (this.#pending.size === 0) worker.unref();
        const cancel: ThreadCancel = { cancel: id };
        worker.postMessage(cancel);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('Reading dropped.'));
      };
      const settled = () => signal?.removeEventListener('abort', dropped);
      this.#pending.set(id, {
        resolve: (transcript) => {
          settled();
          resolve(transcript);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      signal?.addEventListener('abort', dropped, { once: true });
      worker.ref();
      const request: ThreadRequest = {
        id,
        samples: copy,
        alternatives: options.alternatives,
        urgency: options.urgency,
        bias: options.bias,
      };
      worker.postMessage(request, [copy.buffer]);
    });
  }

  /**
   * Lets the worker finish the readings it has (they are answered as usual), free the model
   * and stop; readings asked after this are refused.
   */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const ready = this.current;
    this.current = null;
    const worker = await ready?.catch(() => null);
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // The process waits for the worker to finish, however idle it was.
    worker.ref();
    const close: ThreadClose = { close: true };
    worker.postMessage(close);
    const overdue = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(overdue);
  }

  /** The running worker, started (again) if none runs. */
  private running(): Promise<Worker> {
    this.current ??= this.spawn();
    return this.current;
  }

  private spawn(): Promise<Worker> {
    const worker = new Worker(this.options.workerFile, {
      workerData: { modelDir: this.options.modelDir },
    });
    const ready = new Promise<Worker>((resolve, reject) => {
      let loaded = false;
      const stopped = (why: string) => {
        if (this.current === ready) this.current = null;
        if (!loaded) reject(new Error(why));
        for (const waiting of this.#pending.values()) waiting.reject(new Error(why));
        this.#pending.clear();
      };
      worker.on('message', (reply: ThreadReply) => {
        if (reply.id === 0) {
          if (reply.ok) {
            loaded = true;
            // An idle worker does not keep the process alive; a reading does (transcribe).
            worker.unref();
            resolve(worker);
          } else {
            stopped(`Moonshine could not load on its thread: ${reply.message}`);
            // It ends by itself (stopping it could abort the process): it holds no one up.
            worker.unref();
          }
          return;
        }
        const waiting = this.#pending.get(reply.id);
        if (waiting === undefined) return;
        this.#pending.delete(reply.id);
        if (this.#pending.size === 0) worker.unref();
        if (reply.ok && reply.transcript) waiting.resolve(reply.transcript);
        else waiting.reject(new Error(reply.ok ? 'Moonshine gave no reading.' : reply.message));
      });
      worker.on('error', (error) => stopped(`The Moonshine thread failed: ${error.message}`));
      worker.on('exit', (code) => stopped(`The Moonshine thread stopped (exit code ${code}).`));
    });
    return ready;
  }
}
