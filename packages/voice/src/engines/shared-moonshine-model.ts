import { MoonshineModel } from '../stt/moonshine/moonshine-model.js';

/** Half a second of silence: the first inference of a session is slow (about a second). */
const WARM_UP = new Float32Array(8_000);

/**
 * The Moonshine model of a process, loaded on first use (about 0.7 s and 70 MB) and shared
 * by every call and engine that hears with it. A failed load is forgotten, so the next use
 * tries again.
 */
export class SharedMoonshineModel {
  private model: Promise<MoonshineModel> | null = null;

  get(): Promise<MoonshineModel> {
    if (this.model === null) {
      const loading = MoonshineModel.load().then(async (model) => {
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
