/**
 * Moonshine on several threads, one per core by default. One thread reads one turn at a
 * time, and every turn pocketsphinx doubts waits for a reading (150–250 ms of a core each):
 * with eight calls whose callers paraphrase, their first turns ended together and queued
 * on the one thread, and the last waited seconds while the other core had time to spare
 * (issue 14: at 8 calls the second opinion on one thread took the step's p95 from 2.7 s
 * without it to 5.2–6.7 s; on two threads it was 3.2–4.6 s).
 *
 * Each thread holds its own copy of the model (with onnxruntime's buffers and the thread,
 * about 160 MB of RSS: 833 MB after a server's warm-up with one thread, 989–1007 MB with
 * two; per process, not per call). A reading goes to the thread with the fewest readings an
 * answer waits for, then the fewest at all; a recheck nothing waits for (`urgency:
 * 'later'`) to the one with the fewest at all. A thread that crashes is restarted by its
 * next reading (`MoonshineThread`).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MoonshineModel, type MoonshineTranscript } from './moonshine-model.js';
import {
  MOONSHINE_WORKER_FILE,
  MoonshineThread,
  type MoonshineReader,
  type ReadingOptions,
} from './moonshine-thread.js';

export interface MoonshineThreadsOptions {
  /** Threads (at least 1); default one per core. */
  size?: number;
  modelDir?: string;
  /** The compiled worker (default: the package's own). */
  workerFile?: string;
  /**
   * Audio each thread reads once before it is handed out: onnxruntime's first run on a
   * thread sets itself up (about a second), here rather than in a caller's turn.
   */
  warmUp?: Float32Array;
}

export class MoonshineThreads implements MoonshineReader {
  private constructor(readonly threads: readonly MoonshineThread[]) {}

  /** Starts every thread and waits for their models; rejects when one cannot load (the others are closed). */
  static async start(options: MoonshineThreadsOptions = {}): Promise<MoonshineThreads> {
    const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    const threadOptions = {
      ...(options.modelDir === undefined ? {} : { modelDir: options.modelDir }),
      ...(options.workerFile === undefined ? {} : { workerFile: options.workerFile }),
    };
    const started = await Promise.allSettled(
      Array.from({ length: size }, async () => {
        const thread = await MoonshineThread.start(threadOptions);
        try {
          if (options.warmUp !== undefined) await thread.transcribe(options.warmUp);
        } catch (error) {
          await thread.dispose();
          throw error;
        }
        return thread;
      }),
    );
    const threads = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed !== undefined) {
      await Promise.all(threads.map((t) => t.dispose()));
      throw failed.reason;
    }
    return new MoonshineThreads(threads);
  }

  transcribe(samples: Float32Array, options: ReadingOptions = {}): Promise<MoonshineTranscript> {
    return this.#choose(options.urgency ?? 'now').transcribe(samples, options);
  }

  /** The thread this reading waits least on (see the file's comment). */
  #choose(urgency: 'now' | 'later'): MoonshineThread {
    let best = this.threads[0] as MoonshineThread;
    let bestLoad = load(best.waiting, urgency);
    for (const thread of this.threads.slice(1)) {
      const l = load(thread.waiting, urgency);
      if (l[0] < bestLoad[0] || (l[0] === bestLoad[0] && l[1] < bestLoad[1])) {
        best = thread;
        bestLoad = l;
      }
    }
    return best;
  }

  /** Lets every thread finish the readings it has, then stops them. */
  async dispose(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.dispose()));
  }
}

/** What a reading queues behind on a thread, most telling first. */
function load(waiting: { all: number; now: number }, urgency: 'now' | 'later'): [number, number] {
  return urgency === 'now' ? [waiting.now, waiting.all] : [waiting.all, waiting.now];
}

/**
 * Moonshine on its threads when the compiled worker is there, else on this thread (running
 * from TypeScript sources, as in unit tests: `size` is then ignored).
 */
export async function loadMoonshine(
  options: Omit<MoonshineThreadsOptions, 'workerFile'> = {},
): Promise<MoonshineReader> {
  if (existsSync(MOONSHINE_WORKER_FILE)) return MoonshineThreads.start(options);
  const model = await MoonshineModel.load(options.modelDir);
  if (options.warmUp !== undefined) await model.transcribe(options.warmUp);
  return model;
}
