import type { MoonshineReader } from '../stt/moonshine/moonshine-thread.js';
import { loadMoonshine } from '../stt/moonshine/moonshine-threads.js';

/** Half a second of silence: the first inference of a session is slow (about a second). */
const WARM_UP = new Float32Array(8_000);

export interface SharedMoonshineModelOptions {
  /** Threads Moonshine reads on (see `MoonshineThreads`); default one per core. */
  threads?: number;
}

/**
 * The Moonshine model of a process, loaded on first use (about 0.7 s and 160 MB a thread)
 * on its own threads ({@link loadMoonshine}) and shared by every call and engine that
 * hears with it. A failed load is forgotten, so the next use tries again; a thread that
 * stopped is restarted by its next reading.
 */
export class SharedMoonshineModel {
  private model: Promise<MoonshineReader> | null = null;

  constructor(private readonly options: SharedMoonshineModelOptions = {}) {}

  get(): Promise<MoonshineReader> {
    if (this.model === null) {
      // onnxruntime's first run on each thread sets itself up: here, not in the first
      // caller's turn.
      const loading = loadMoonshine({
        warmUp: WARM_UP,
        ...(this.options.threads === undefined ? {} : { size: this.options.threads }),
      });
      loading.catch(() => {
        if (this.model === loading) this.model = null;
      });
      this.model = loading;
    }
    return this.model;
  }

  async dispose(): Promise<void> {
    const model = this.model;
    this.model = null;
    await model?.then((m) => m.dispose()).catch(() => undefined);
  }
}
