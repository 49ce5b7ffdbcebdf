import { MoonshineModel } from '../stt/moonshine/moonshine-model.js';
import { MoonshineRecognizer } from '../stt/moonshine/moonshine-recognizer.js';
import { pocketsphinxProblem } from '../stt/pocketsphinx/native.js';
import type { DomainVocabulary, SpeechRecognizer } from '../stt/types.js';
import type { PocketsphinxTranscriber } from './pocketsphinx-transcriber.js';
import type { TranscriberEngine } from './types.js';

/**
 * The default recogniser: Moonshine hears what the caller said; pocketsphinx, with the
 * assistant's domain model, follows along for live captions and endpointing (see
 * `MoonshineRecognizer`). Without pocketsphinx installed, Moonshine runs alone (no partial
 * captions). The model is loaded once, on first use, and shared by every call. Decoders are
 * pocketsphinx's, counted by its own engine.
 */
export class MoonshineTranscriber implements TranscriberEngine {
  readonly name = 'moonshine';
  private model: Promise<MoonshineModel> | null = null;

  constructor(private readonly follower: PocketsphinxTranscriber) {}

  private loaded(): Promise<MoonshineModel> {
    if (this.model === null) {
      const loading = MoonshineModel.load();
      loading.catch(() => {
        if (this.model === loading) this.model = null;
      });
      this.model = loading;
    }
    return this.model;
  }

  async recognizer(vocabulary: DomainVocabulary): Promise<SpeechRecognizer> {
    const [model, follower] = await Promise.all([
      this.loaded(),
      pocketsphinxProblem() === null ? this.follower.recognizer(vocabulary) : undefined,
    ]);
    return new MoonshineRecognizer({ model, ...(follower ? { follower } : {}) });
  }

  /** Loads the model and builds the follower's language model, so a first call starts fast. */
  async prepare(vocabulary: DomainVocabulary): Promise<void> {
    await Promise.all([this.loaded(), this.follower.prepare(vocabulary)]);
  }

  async check(): Promise<string> {
    await this.loaded();
    const follower = pocketsphinxProblem();
    return follower === null ? 'ok' : `ok (no live captions: ${follower})`;
  }

  async dispose(): Promise<void> {
    const model = this.model;
    this.model = null;
    await Promise.allSettled([
      this.follower.dispose(),
      model?.then((m) => m.dispose()) ?? Promise.resolve(),
    ]);
  }
}
