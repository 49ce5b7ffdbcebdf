import { access } from 'node:fs/promises';
import path from 'node:path';
import { MOONSHINE_MODEL_FILES, moonshineModelDir } from '../stt/moonshine/moonshine-model.js';
import { MoonshineRecognizer } from '../stt/moonshine/moonshine-recognizer.js';
import { biasTexts } from '../stt/moonshine/word-bias.js';
import { pocketsphinxProblem } from '../stt/pocketsphinx/native.js';
import type { DomainVocabulary, SpeechRecognizer } from '../stt/types.js';
import type { PocketsphinxTranscriber } from './pocketsphinx-transcriber.js';
import type { SharedMoonshineModel } from './shared-moonshine-model.js';
import type { TranscriberEngine } from './types.js';

/**
 * The `moonshine` transcriber (for an assistant that names it): Moonshine hears what the
 * caller said; pocketsphinx, with the assistant's domain model, follows along for live
 * captions and endpointing (see `MoonshineRecognizer`). Without pocketsphinx installed,
 * Moonshine runs alone (no partial captions). The model is loaded on first use (about
 * 0.7 s and 160 MB a thread) and shared by every call. Decoders are pocketsphinx's, counted by its
 * own engine.
 */
export class MoonshineTranscriber implements TranscriberEngine {
  readonly name = 'moonshine';

  constructor(
    private readonly follower: PocketsphinxTranscriber,
    private readonly model: SharedMoonshineModel,
  ) {}

  async recognizer(vocabulary: DomainVocabulary): Promise<SpeechRecognizer> {
    const [model, follower] = await Promise.all([
      this.model.get(),
      pocketsphinxProblem() === null ? this.follower.streamingRecognizer(vocabulary) : undefined,
    ]);
    return new MoonshineRecognizer({
      model,
      bias: biasTexts(vocabulary),
      ...(follower ? { follower } : {}),
    });
  }

  /** Loads the model and builds the follower's language model, so a first call starts fast. */
  async prepare(vocabulary: DomainVocabulary): Promise<void> {
    await Promise.all([this.model.get(), this.follower.prepare(vocabulary)]);
  }

  /** The same, and the follower's recogniser loaded: what a first call would wait for. */
  async warm(vocabulary: DomainVocabulary): Promise<void> {
    await this.prepare(vocabulary);
    if (pocketsphinxProblem() === null) await this.follower.streamingRecognizer(vocabulary);
  }

  /** The model files are installed (loading them waits for the first call that needs them). */
  async check(): Promise<string> {
    const dir = moonshineModelDir();
    for (const file of MOONSHINE_MODEL_FILES) {
      await access(path.join(dir, file)).catch(() => {
        throw new Error(
          `The Moonshine model file ${file} is missing from ${dir}: run npm install.`,
        );
      });
    }
    const follower = pocketsphinxProblem();
    return follower === null ? 'ok' : `ok (no live captions: ${follower})`;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled([this.follower.dispose(), this.model.dispose()]);
  }
}
