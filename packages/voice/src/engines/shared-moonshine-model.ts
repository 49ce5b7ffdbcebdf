import { loadMoonshine, type MoonshineReader } from '../stt/moonshine/moonshine-thread.js';

/** Half a second of silence: the first inference of a session is slow (about a second). */
const WARM_UP = new Float32Array(8_000);

/**
 * The Moonshine model of a process, loaded on first use (about 0.7 s and 70 MB) on its own
 * thread ({@link loadMoonshine}) and shared by every call and engine that hears with it. A
 * failed load is forgotten, so the next use tries again; a thread that stopped is
 * restarted by its next reading.
 */
export class SharedMoonshineModel {
  private model: Promise<MoonshineReader> | null = null;

  get(): Promise<MoonshineReader> {
    if (this.model === null) {
      const loading = loadMoonshine().then(async (model) => {
        // onnxruntime's first run sets itself up: here, not in the first caller's turn.
        await model.transcribe(WARM_UP);
        return model;
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
