/**
 * Moonshine on as many worker threads as the machine has cores. One thread reads the turns
 * of every call of the process in the order they come, so when callers stop speaking at
 * about the same time, their readings wait behind each other (each about 100–300 ms with
 * its alternatives) and every one of those callers waits longer for an answer. The pool
 * starts with one thread; when a reading comes while every thread is busy, it goes to the
 * thread with the least to do, and another thread starts in the background (its own copy
 * of the model: about 0.7 s to load and 70 MB), up to the number of cores. Threads are kept
 * once started: a crashed one is restarted by its next reading (`MoonshineThread`).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MoonshineModel, type MoonshineTranscript } from './moonshine-model.js';
import {
  MOONSHINE_WORKER_FILE,
  type MoonshineReader,
  MoonshineThread,
} from './moonshine-thread.js';

export interface MoonshinePoolOptions {
  /** The most threads (default: the machine's cores). */
  size?: number;
  modelDir?: string;
  /** The compiled worker (default: the package's own). */
  workerFile?: string;
}

/** Half a second of silence: a session's first inference is slow (about a second). */
const WARM_UP = new Float32Array(8_000);

export class MoonshinePool implements MoonshineReader {
  readonly size: number;
  /** Each started thread and the readings it has been given and not yet answered. */
  private readonly ready = new Map<MoonshineThread, number>();
  /** The thread being started, if one is. */
  private starting: Promise<void> | null = null;
  private disposed = false;

  private constructor(private readonly options: MoonshinePoolOptions) {
    this.size = Math.max(1, Math.trunc(options.size ?? availableParallelism()));
  }

  /** Starts the first thread and waits for its model; rejects with the reason when it cannot load. */
  static async start(options: MoonshinePoolOptions = {}): Promise<MoonshinePool> {
    const pool = new MoonshinePool(options);
    pool.ready.set(await MoonshineThread.start(pool.threadOptions()), 0);
    return pool;
  }

  /** The readings each started thread is doing or has waiting, in the order they started. */
  get busy(): number[] {
    return [...this.ready.values()];
  }

  async transcribe(
    samples: Float32Array,
    options: { alternatives?: number } = {},
  ): Promise<MoonshineTranscript> {
    if (this.disposed) throw new Error('The Moonshine model was closed.');
    let chosen: MoonshineThread | undefined;
    let fewest = Infinity;
    for (const [thread, readings] of this.ready) {
      if (readings < fewest) [chosen, fewest] = [thread, readings];
    }
    if (chosen === undefined) throw new Error('The Moonshine model was closed.');
    if (fewest > 0) this.grow();
    const thread = chosen;
    this.ready.set(thread, fewest + 1);
    try {
      return await thread.transcribe(samples, options);
    } finally {
      const readings = this.ready.get(thread);
      if (readings !== undefined) this.ready.set(thread, readings - 1);
    }
  }

  /** Lets every thread finish the readings it has, then stops them all. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.starting;
    await Promise.all([...this.ready.keys()].map((thread) => thread.dispose()));
  }

  /** Starts one more thread in the background, unless one is starting or the pool is full. */
  private grow(): void {
    if (this.starting !== null || this.ready.size >= this.size) return;
    this.starting = this.startThread().finally(() => {
      this.starting = null;
    });
  }

  /** One more thread, warmed up, joined to the pool; on failure the pool goes on without it. */
  private async startThread(): Promise<void> {
    let thread: MoonshineThread;
    try {
      thread = await MoonshineThread.start(this.threadOptions());
    } catch {
      return;
    }
    try {
      await thread.transcribe(WARM_UP);
    } catch {
      await thread.dispose();
      return;
    }
    if (this.disposed) await thread.dispose();
    else this.ready.set(thread, 0);
  }

  private threadOptions(): { modelDir?: string; workerFile?: string } {
    return {
      ...(this.options.modelDir !== undefined ? { modelDir: this.options.modelDir } : {}),
      ...(this.options.workerFile !== undefined ? { workerFile: this.options.workerFile } : {}),
    };
  }
}

/**
 * Moonshine on a pool of worker threads when the compiled worker is there, else on this
 * thread (running from TypeScript sources, as in unit tests).
 */
export async function loadMoonshine(modelDir?: string): Promise<MoonshineReader> {
  return existsSync(MOONSHINE_WORKER_FILE)
    ? MoonshinePool.start(modelDir === undefined ? {} : { modelDir })
    : MoonshineModel.load(modelDir);
}
