import crypto from 'node:crypto';
import path from 'node:path';
import {
  buildDomainModelOffThread,
  checkModel,
  EspeakSynthesizer,
  Lexicon,
  PocketsphinxRecognizer,
  pocketsphinxProblem,
  RnnoiseSuppressor,
  WebRtcVad,
  type DomainVocabulary,
  type NoiseSuppressor,
  type SpeechRecognizer,
  type SpeechSynthesizer,
  type VoiceActivityDetector,
} from '@talkbooth/voice';

/** Recognisers kept ready (one per assistant vocabulary); the least recently used goes first. */
const RECOGNIZER_CACHE_SIZE = 8;

function vocabularyKey(vocabulary: DomainVocabulary): string {
  return crypto.createHash('sha256').update(JSON.stringify(vocabulary)).digest('hex').slice(0, 16);
}

export interface VoiceEnginesOptions {
  /** How long a recogniser's decoder pool idles before shrinking to its spare. */
  idleTrimMs?: number;
}

/**
 * The embedded speech engines of this process. The synthesiser is shared (it queues its
 * jobs); each assistant's recogniser is built once per vocabulary, its language model
 * cached on disk; voice activity and noise state are per call.
 */
export class VoiceEngines {
  private synthesizerPromise: Promise<SpeechSynthesizer> | null = null;
  private readonly recognizers = new Map<string, Promise<SpeechRecognizer>>();
  /** Language-model builds under way or queued, by vocabulary: closing waits for them. */
  private readonly preparing = new Map<string, Promise<void>>();
  private buildQueue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly modelCacheDir: string,
    private readonly options: VoiceEnginesOptions = {},
  ) {
    // The reply engine's lexicon (~100 ms to load): now, not in the middle of a call.
    Lexicon.default();
  }

  private get languageModelDir(): string {
    return path.join(this.modelCacheDir, 'language-models');
  }

  /**
   * Builds (on a worker thread) the language model a recogniser for this vocabulary will
   * use, so the first call of a newly saved assistant finds it cached. Builds run one at a
   * time, and a vocabulary already being built is not built again: saving fifty assistants
   * must not start fifty workers beside the live calls. Does nothing when the recogniser is
   * not installed or the engines are closing.
   */
  prepare(vocabulary: DomainVocabulary): Promise<void> {
    if (this.disposed || pocketsphinxProblem() !== null) return Promise.resolve();
    const key = vocabularyKey(vocabulary);
    const pending = this.preparing.get(key);
    if (pending !== undefined) return pending;
    const build = this.buildQueue.then(async () => {
      if (this.disposed) return;
      await buildDomainModelOffThread({
        vocabulary,
        cacheDir: this.languageModelDir,
        dictionaryPath: checkModel().dictionary,
      });
    });
    this.buildQueue = build.catch(() => undefined);
    this.preparing.set(key, build);
    const settle = () => this.preparing.delete(key);
    build.then(settle, settle);
    return build;
  }

  /**
   * For the readiness check: the recogniser's library and model are installed and the
   * synthesiser loads (once; then it is shared with calls). Throws saying what is missing.
   */
  async check(): Promise<string> {
    const problem = pocketsphinxProblem();
    if (problem !== null) throw new Error(problem);
    try {
      await this.synthesizer();
    } catch (error) {
      throw new Error(
        `the speech synthesiser does not load: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return 'ok';
  }

  /** Decoder pairs held by every recogniser (in use, reserved or spare). */
  async decoderCount(): Promise<number> {
    let total = 0;
    for (const recognizer of await Promise.allSettled(this.recognizers.values())) {
      if (recognizer.status === 'fulfilled' && recognizer.value instanceof PocketsphinxRecognizer)
        total += recognizer.value.decoderCount;
    }
    return total;
  }

  synthesizer(): Promise<SpeechSynthesizer> {
    this.synthesizerPromise ??= EspeakSynthesizer.create();
    return this.synthesizerPromise;
  }

  /** The recogniser for a vocabulary: built (or loaded from the model cache) on first use. */
  recognizer(vocabulary: DomainVocabulary): Promise<SpeechRecognizer> {
    const key = vocabularyKey(vocabulary);
    const cached = this.recognizers.get(key);
    if (cached !== undefined) {
      this.recognizers.delete(key);
      this.recognizers.set(key, cached);
      return cached;
    }
    const created = PocketsphinxRecognizer.create({
      vocabulary,
      cacheDir: this.languageModelDir,
      ...(this.options.idleTrimMs === undefined ? {} : { idleTrimMs: this.options.idleTrimMs }),
    });
    created.catch(() => this.recognizers.delete(key));
    this.recognizers.set(key, created);
    while (this.recognizers.size > RECOGNIZER_CACHE_SIZE) {
      const [oldest, evicted] = this.recognizers.entries().next().value as [
        string,
        Promise<SpeechRecognizer>,
      ];
      this.recognizers.delete(oldest);
      void evicted.then(
        (recognizer) => recognizer.dispose(),
        () => undefined,
      );
    }
    return created;
  }

  vad(): Promise<VoiceActivityDetector> {
    return WebRtcVad.create();
  }

  denoiser(): Promise<NoiseSuppressor> {
    return RnnoiseSuppressor.create();
  }

  /** Waits for builds under way (they write to the model cache), then frees every engine. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled([...this.preparing.values()]);
    const all = [...this.recognizers.values()];
    this.recognizers.clear();
    for (const recognizer of await Promise.allSettled(all)) {
      if (recognizer.status === 'fulfilled') recognizer.value.dispose();
    }
    if (this.synthesizerPromise !== null)
      (await this.synthesizerPromise.catch(() => null))?.dispose();
    this.synthesizerPromise = null;
  }
}
