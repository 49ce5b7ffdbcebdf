/**
 * Speech synthesis with eSpeak NG, in-process (`@echogarden/espeak-ng-emscripten`).
 *
 * - Engine: one eSpeak instance per process, loaded once in a dedicated worker thread (see
 *   worker-source.ts) and shared by every {@link EspeakSynthesizer}. The worker keeps the
 *   main event loop free while eSpeak runs (tens of times faster than real time) and
 *   forwards each ~100 ms buffer the moment eSpeak produces it: real streaming, first
 *   audio within a few milliseconds.
 * - Concurrency: eSpeak is single-threaded with global state (voice, rate), so jobs run
 *   one at a time from a FIFO queue; a job's voice and rate are set when it starts.
 * - Abort: the signal (or leaving the `for await` loop early) cancels a queued job at once
 *   and stops a running one at eSpeak's next buffer; the iteration then ends without error.
 * - Voices: see voices.ts. An unknown voice falls back to `en-us`; the fallback is reported
 *   through `onVoiceFallback` (per call or per synthesiser), or thrown as an
 *   {@link UnknownVoiceError} with `strictVoice: true`.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpeechSynthesizer } from '../types.js';
import { ESPEAK_WORKER_SOURCE } from './worker-source.js';
import {
  DEFAULT_ESPEAK_VOICE,
  resolveEspeakVoice,
  type EspeakCatalog,
  type EspeakVoiceInfo,
  type VoiceResolution,
} from './voices.js';

/** eSpeak NG's output rate. */
export const ESPEAK_SAMPLE_RATE = 22_050;
/** eSpeak's default speaking rate, words per minute. */
export const ESPEAK_DEFAULT_RATE = 175;
/** eSpeak's documented rate range, words per minute. */
export const ESPEAK_MIN_RATE = 80;
export const ESPEAK_MAX_RATE = 450;

export interface EspeakSynthesisOptions {
  /** Voice name, e.g. `en-us`, `en-gb`, `en-us+f3` (see voices.ts). */
  voice: string;
  signal?: AbortSignal;
  /** Words per minute, {@link ESPEAK_MIN_RATE}–{@link ESPEAK_MAX_RATE}; default the
   * synthesiser's `defaultRate` (175). */
  rate?: number;
  /** Throw {@link UnknownVoiceError} instead of falling back. */
  strictVoice?: boolean;
  /** Told when the voice falls back (in addition to the synthesiser-wide listener). */
  onVoiceFallback?: (resolution: VoiceResolution) => void;
}

export interface EspeakSynthesizerOptions {
  /** Rate for calls that do not give one; default 175 words per minute. */
  defaultRate?: number;
  /** Told whenever a call's voice falls back to another one. */
  onVoiceFallback?: (resolution: VoiceResolution) => void;
}

/** Thrown (with `strictVoice`) when the requested voice does not exist. */
export class UnknownVoiceError extends Error {
  override readonly name = 'UnknownVoiceError';
  constructor(readonly resolution: VoiceResolution) {
    super(resolution.reason ?? `Unknown eSpeak voice "${resolution.requested}"`);
  }
}

/** eSpeak NG speech synthesis; see the module comment for the design. */
export class EspeakSynthesizer implements SpeechSynthesizer {
  readonly provider = 'espeak-ng';
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  private readonly defaultRate: number;
  private readonly onVoiceFallback: ((resolution: VoiceResolution) => void) | undefined;
  private readonly jobs = new Set<Job>();
  private disposed = false;

  /** Loads eSpeak (once per process; later calls reuse the running engine). */
  static async create(options: EspeakSynthesizerOptions = {}): Promise<EspeakSynthesizer> {
    const defaultRate = options.defaultRate ?? ESPEAK_DEFAULT_RATE;
    checkRate(defaultRate);
    const engine = await EspeakEngine.acquire();
    return new EspeakSynthesizer(engine, defaultRate, options.onVoiceFallback);
  }

  private constructor(
    private readonly engine: EspeakEngine,
    defaultRate: number,
    onVoiceFallback: ((resolution: VoiceResolution) => void) | undefined,
  ) {
    this.defaultRate = defaultRate;
    this.onVoiceFallback = onVoiceFallback;
  }

  /** The installed eSpeak voices. */
  get voices(): readonly EspeakVoiceInfo[] {
    return this.engine.catalog.voices;
  }

  /** The installed voice variants (`f3`, `m2`, `klatt`…). */
  get variants(): readonly string[] {
    return this.engine.catalog.variants;
  }

  /** What `voice` would be spoken with, without speaking: for checking configuration. */
  resolveVoice(voice: string): VoiceResolution {
    return resolveEspeakVoice(voice, this.engine.catalog);
  }

  /**
   * Speaks `text`, yielding 16-bit mono chunks at 22.05 kHz (about 100 ms each) as eSpeak
   * produces them. Ends early, without error, when `signal` aborts or the consumer stops
   * iterating. Throws (from the iteration, as this is an async generator) a RangeError for
   * a bad rate, {@link UnknownVoiceError} for an unknown voice with `strictVoice`, and an
   * Error if the engine fails. Calls run one at a time, in the order their iteration starts.
   */
  async *synthesize(
    text: string,
    options: EspeakSynthesisOptions,
  ): AsyncGenerator<Int16Array, void, undefined> {
    if (this.disposed) throw new Error('EspeakSynthesizer used after dispose()');
    const rate = options.rate ?? this.defaultRate;
    checkRate(rate);
    const resolution = this.resolveVoice(options.voice);
    if (resolution.fallback) {
      if (options.strictVoice) throw new UnknownVoiceError(resolution);
      options.onVoiceFallback?.(resolution);
      this.onVoiceFallback?.(resolution);
    }
    const { signal } = options;
    if (signal?.aborted || text.trim() === '') return;

    const fallbackVoice = this.resolveVoice(DEFAULT_ESPEAK_VOICE).voice;
    const job = this.engine.submit(escapeForSsml(text), resolution.voice, fallbackVoice, rate);
    this.jobs.add(job);
    const cancel = (): void => this.engine.cancel(job);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        const chunk = await job.next();
        if (chunk === null) break;
        yield chunk;
      }
      if (!job.voiceAccepted && !resolution.fallback) {
        // The catalogue listed the voice but eSpeak refused it; the worker used en-us.
        const refused: VoiceResolution = {
          requested: options.voice,
          voice: fallbackVoice,
          fallback: true,
          reason: `eSpeak refused the voice "${resolution.voice}"; used ${DEFAULT_ESPEAK_VOICE}`,
        };
        options.onVoiceFallback?.(refused);
        this.onVoiceFallback?.(refused);
      }
    } finally {
      signal?.removeEventListener('abort', cancel);
      this.engine.cancel(job);
      this.jobs.delete(job);
    }
  }

  /**
   * Stops this synthesiser's pending calls and lets go of the shared engine (the worker
   * thread ends when no synthesiser uses it any more). Safe to call twice.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const job of this.jobs) this.engine.cancel(job);
    this.jobs.clear();
    this.engine.release();
  }
}

function checkRate(rate: number): void {
  if (!Number.isFinite(rate) || rate < ESPEAK_MIN_RATE || rate > ESPEAK_MAX_RATE) {
    throw new RangeError(
      `eSpeak rate must be ${ESPEAK_MIN_RATE}–${ESPEAK_MAX_RATE} words per minute, got ${rate}`,
    );
  }
}

/** eSpeak runs in SSML mode: make `<`, `>` and `&` plain text. */
function escapeForSsml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

type WorkerMessage =
  | { type: 'ready'; voices: EspeakVoiceInfo[]; variants: string[] }
  | { type: 'init-error'; message: string }
  | { type: 'voice'; id: number; ok: boolean }
  | { type: 'chunk'; id: number; samples: Int16Array }
  | { type: 'end'; id: number; aborted: boolean }
  | { type: 'error'; id: number; message: string };

/** One synthesis request: a queue of chunks the consumer pulls from. */
class Job {
  private readonly chunks: Int16Array[] = [];
  private finished = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  voiceAccepted = true;

  constructor(
    readonly id: number,
    readonly text: string,
    readonly voice: string,
    readonly fallbackVoice: string,
    readonly rate: number,
  ) {}

  get isFinished(): boolean {
    return this.finished;
  }

  push(chunk: Int16Array): void {
    if (this.finished) return;
    this.chunks.push(chunk);
    this.notify();
  }

  /** Ends the job; `discard` drops chunks not yet taken (for aborts). */
  finish(error?: Error, discard = false): void {
    if (this.finished) return;
    this.finished = true;
    this.failure = error;
    if (discard) this.chunks.length = 0;
    this.notify();
  }

  /** The next chunk, or null at the end. */
  async next(): Promise<Int16Array | null> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) return chunk;
      if (this.failure) throw this.failure;
      if (this.finished) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** The shared worker thread running eSpeak, and its job queue. */
class EspeakEngine {
  private static shared: Promise<EspeakEngine> | undefined;
  private static current: EspeakEngine | undefined;

  private readonly queue: Job[] = [];
  private active: Job | undefined;
  private nextId = 1;
  private users = 0;
  private broken: Error | undefined;

  /** The running engine (started on first use), with one more user counted. */
  static async acquire(): Promise<EspeakEngine> {
    for (let attempt = 0; ; attempt++) {
      if (!EspeakEngine.shared) {
        const starting = EspeakEngine.start();
        EspeakEngine.shared = starting;
        starting.catch(() => {
          if (EspeakEngine.shared === starting) EspeakEngine.shared = undefined;
        });
      }
      const engine = await EspeakEngine.shared;
      // It may have stopped (last user gone, or crashed) while we waited: start another.
      if (!engine.broken || attempt >= 2) {
        engine.users++;
        return engine;
      }
    }
  }

  private static async start(): Promise<EspeakEngine> {
    const require = createRequire(import.meta.url);
    const moduleUrl = pathToFileURL(require.resolve('@echogarden/espeak-ng-emscripten')).href;
    const control = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(ESPEAK_WORKER_SOURCE, {
      eval: true,
      workerData: { moduleUrl, control },
    });
    const catalog = await new Promise<EspeakCatalog>((resolve, reject) => {
      const onMessage = (message: WorkerMessage): void => {
        cleanup();
        if (message.type === 'ready')
          resolve({ voices: message.voices, variants: message.variants });
        else
          reject(
            new Error(
              `eSpeak failed to start: ${'message' in message ? message.message : message.type}`,
            ),
          );
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(new Error(`eSpeak worker exited with code ${code} while starting`));
      };
      const cleanup = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    const engine = new EspeakEngine(worker, control, catalog);
    EspeakEngine.current = engine;
    return engine;
  }

  private constructor(
    private readonly worker: Worker,
    private readonly control: Int32Array,
    readonly catalog: EspeakCatalog,
  ) {
    worker.on('message', (message: WorkerMessage) => this.onMessage(message));
    worker.on('error', (error: Error) => this.fail(error));
    worker.on('exit', (code: number) =>
      this.fail(new Error(`eSpeak worker exited (code ${code})`)),
    );
    worker.unref(); // an idle engine does not keep the process alive
  }

  submit(text: string, voice: string, fallbackVoice: string, rate: number): Job {
    const job = new Job(this.nextId++, text, voice, fallbackVoice, rate);
    if (this.broken) {
      job.finish(this.broken);
      return job;
    }
    this.queue.push(job);
    this.pump();
    return job;
  }

  /** Stops a job: dropped if queued, told to stop if running. No-op once finished. */
  cancel(job: Job): void {
    if (job.isFinished) return;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    else if (this.active === job) Atomics.store(this.control, 0, job.id);
    // Free the consumer now; the worker's late chunks for this id are ignored.
    job.finish(undefined, true);
  }

  release(): void {
    this.users--;
    if (this.users > 0) return;
    this.forget();
    this.broken ??= new Error('eSpeak engine stopped');
    void this.worker.terminate();
  }

  private pump(): void {
    if (this.active || this.broken) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker.unref();
      return;
    }
    this.active = job;
    this.worker.ref(); // keep the process alive while a caller waits for audio
    this.worker.postMessage({
      type: 'synth',
      id: job.id,
      text: job.text,
      voice: job.voice,
      fallbackVoice: job.fallbackVoice,
      rate: job.rate,
    });
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'ready' || message.type === 'init-error') return;
    const job = this.active;
    if (!job || job.id !== message.id) return;
    switch (message.type) {
      case 'voice':
        job.voiceAccepted = message.ok;
        break;
      case 'chunk':
        job.push(message.samples);
        break;
      case 'end':
      case 'error':
        job.finish(
          message.type === 'error' ? new Error(`eSpeak failed: ${message.message}`) : undefined,
        );
        this.active = undefined;
        this.pump();
        break;
    }
  }

  /** The worker died: fail everything and let the next `acquire` start a new engine. */
  private fail(error: Error): void {
    if (this.broken) return;
    this.broken = error;
    this.forget();
    this.active?.finish(error);
    this.active = undefined;
    for (const job of this.queue.splice(0)) job.finish(error);
  }

  /** Makes the next `acquire` start a new engine instead of returning this one. */
  private forget(): void {
    if (EspeakEngine.current !== this) return;
    EspeakEngine.current = undefined;
    EspeakEngine.shared = undefined;
  }
}
