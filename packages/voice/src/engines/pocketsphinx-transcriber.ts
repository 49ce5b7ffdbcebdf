import crypto from 'node:crypto';
import path from 'node:path';
import { buildDomainModelOffThread } from '../stt/language-model/build.js';
import { checkModel, pocketsphinxProblem } from '../stt/pocketsphinx/native.js';
import { SecondOpinionRecognizer } from '../stt/moonshine/second-opinion-recognizer.js';
import { biasTexts } from '../stt/moonshine/word-bias.js';
import { PocketsphinxRecognizer } from '../stt/pocketsphinx/recognizer.js';
import {
  RecognitionThreads,
  recognizerWorkerBuilt,
} from '../stt/pocketsphinx/threads/recognition-threads.js';
import type { DomainVocabulary, SpeechRecognizer } from '../stt/types.js';
import type { SharedMoonshineModel } from './shared-moonshine-model.js';
import type { TranscriberEngine } from './types.js';

/** Recognisers kept ready (one per assistant vocabulary); the least recently used goes first. */
const RECOGNIZER_CACHE_SIZE = 8;

function vocabularyKey(vocabulary: DomainVocabulary): string {
  return crypto.createHash('sha256').update(JSON.stringify(vocabulary)).digest('hex').slice(0, 16);
}

export interface PocketsphinxTranscriberOptions {
  /** Where built language models are cached (a `language-models` folder is made in it). */
  modelCacheDir: string;
  /** How long a recogniser's decoder pool idles before shrinking to its spare. */
  idleTrimMs?: number;
  /**
   * Moonshine, to listen for emergencies on the utterances pocketsphinx doubts (see
   * `SecondOpinionRecognizer`). Without it, pocketsphinx's readings alone are checked.
   */
  secondOpinion?: SharedMoonshineModel;
  /**
   * Recognition threads (pocketsphinx decodes on them, off the event loop): 0 decodes on
   * the event loop. Default: one per core when the compiled worker is there (it is not
   * when running from TypeScript sources, as in unit tests).
   */
  threads?: number;
  /**
   * General decoders each recognition thread (or the event loop) keeps at most (about
   * 49 MB each; see `PocketsphinxRecognizerOptions.generalLimit`). Default
   * `DEFAULT_GENERAL_DECODERS_PER_THREAD`.
   */
  generalDecodersPerThread?: number;
  /**
   * When pocketsphinx's general model hears a turn its domain model doubts (default
   * `on-doubt`). `off` (only with `secondOpinion`) leaves it out: a doubted turn is
   * answered from Moonshine's reading, which it gets anyway (`RecognitionResult.unsure`).
   * That saves the general model's decoding (about 4 % of a core per call at eight calls)
   * and its decoders (about 49 MB each), for fewer paraphrases understood (BENCHMARKS.md).
   */
  generalModel?: 'on-doubt' | 'off';
}

/**
 * General decoders per recognition thread, by default. Past them an utterance the domain
 * model doubts waits for one another utterance gives back (and catches up on its audio).
 * A thread decodes one frame at a time, and a general decoder's frame costs 1–3 ms of
 * 20, beside its calls' domain decoders and the other threads on the same cores. With
 * callers speaking in their own words, arriving over 10 s (the concurrency benchmark, runs
 * back to back: bench/results/concurrency-general-decoders.json), two per thread kept the
 * callers' p95 wait as short as four did (8 calls: 690 and 819 ms against 778; 12 calls:
 * 878 and 869 against 966) for about 29 MB of memory per extra call instead of 46: an
 * utterance that waits for a decoder catches up in a burst after, which on two busy cores
 * costs no more than decoding beside three others. One per thread saved a little more
 * (22 MB) but made later turns at 12 calls wait (p95 1402 ms).
 */
export const DEFAULT_GENERAL_DECODERS_PER_THREAD = 2;

/**
 * General decoders a recognition thread makes past its limit for turns that have waited
 * 1.5 s at it; past them a turn waits for one given back. Without a cap, calls whose turns
 * end in the same second each got one (about 49 MB). With callers arriving all at once
 * (the concurrency benchmark, runs alternated: bench/results/concurrency-general-overflow.json)
 * one per thread left the server's peak memory at 8 calls at 96–112 MB above idle against
 * 72–161 uncapped, and at 12 calls 191–292 against 343, with the callers' p95 wait as long
 * either way (8 calls: 3.2–4.3 s, both past the machine's capacity).
 */
export const GENERAL_OVERFLOW_PER_THREAD = 1;

/**
 * The offline recogniser. Each assistant's recogniser is built once per vocabulary (its
 * language model cached on disk) and shared by that assistant's calls; an edited
 * assistant has a new vocabulary, so its next call gets a new recogniser.
 */
export class PocketsphinxTranscriber implements TranscriberEngine {
  readonly name = 'pocketsphinx';
  private readonly recognizers = new Map<string, Promise<SpeechRecognizer>>();
  /** Language-model builds under way or queued, by vocabulary: closing waits for them. */
  private readonly preparing = new Map<string, Promise<void>>();
  private buildQueue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /** The recognition threads, started with the first recogniser (null: on the event loop). */
  private pool: RecognitionThreads | null = null;

  constructor(private readonly options: PocketsphinxTranscriberOptions) {}

  private get languageModelDir(): string {
    return path.join(this.options.modelCacheDir, 'language-models');
  }

  /**
   * Builds (on a worker thread) the language model a recogniser for this vocabulary will
   * use, so the first call of a newly saved assistant finds it cached. Builds run one at a
   * time, and a vocabulary already being built is not built again: saving fifty assistants
   * must not start fifty workers beside the live calls. Does nothing when the recogniser is
   * not installed or the engine is closing.
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

  /** The library and the acoustic model are installed; throws saying what is missing. */
  check(): Promise<string> {
    const problem = pocketsphinxProblem();
    return problem === null ? Promise.resolve('ok') : Promise.reject(new Error(problem));
  }

  async decoderCount(): Promise<number> {
    let total = 0;
    // Recognisers share the general decoders: each pool counted once.
    const generals = new Set<{ readonly count: number }>();
    for (const recognizer of await Promise.allSettled(this.recognizers.values())) {
      if (recognizer.status === 'fulfilled' && recognizer.value instanceof PocketsphinxRecognizer) {
        total += recognizer.value.domainDecoderCount;
        generals.add(recognizer.value.generalDecoders);
      }
    }
    for (const pool of generals) total += pool.count;
    // Every recogniser on the threads is counted at once.
    return total + ((await this.pool?.decoderCount()) ?? 0);
  }

  /**
   * The recogniser a call hears with: pocketsphinx, with Moonshine's second opinion on the
   * utterances it doubts when the engine has one. The model starts loading (with its
   * first, slow run) with the first call, in the background: by the caller's first words,
   * after the greeting, it is ready; a process that serves no calls never loads it.
   */
  async recognizer(vocabulary: DomainVocabulary): Promise<SpeechRecognizer> {
    const shared = this.options.secondOpinion;
    void shared?.get().catch(() => undefined);
    const primary = await this.streamingRecognizer(vocabulary);
    return shared === undefined
      ? primary
      : new SecondOpinionRecognizer({
          primary,
          model: () => shared.get(),
          bias: biasTexts(vocabulary),
        });
  }

  /**
   * The language model built (or found in the cache), the recogniser loaded, and Moonshine
   * loading: what the first call of this vocabulary would otherwise wait for.
   */
  async warm(vocabulary: DomainVocabulary): Promise<void> {
    if (this.disposed || pocketsphinxProblem() !== null) return;
    await this.prepare(vocabulary);
    if (this.disposed) return;
    await this.recognizer(vocabulary);
  }

  /** Pocketsphinx alone for a vocabulary: built (or loaded from the model cache) on first use. */
  streamingRecognizer(vocabulary: DomainVocabulary): Promise<SpeechRecognizer> {
    const key = vocabularyKey(vocabulary);
    const cached = this.recognizers.get(key);
    if (cached !== undefined) {
      this.recognizers.delete(key);
      this.recognizers.set(key, cached);
      return cached;
    }
    const { idleTrimMs, generalDecodersPerThread, generalModel, secondOpinion } = this.options;
    const options = {
      vocabulary,
      // Without Moonshine nothing would take the general model's place.
      ...(generalModel === 'off' && secondOpinion !== undefined
        ? { generalFallback: 'off' as const }
        : {}),
      cacheDir: this.languageModelDir,
      generalLimit: generalDecodersPerThread ?? DEFAULT_GENERAL_DECODERS_PER_THREAD,
      generalOverflow: GENERAL_OVERFLOW_PER_THREAD,
      ...(idleTrimMs === undefined ? {} : { idleTrimMs }),
    };
    const threads = this.threads();
    const created: Promise<SpeechRecognizer> =
      threads === null
        ? PocketsphinxRecognizer.create(options)
        : // Built once here (or found cached), so the threads load it rather than each build it.
          this.prepare(vocabulary).then(() => threads.recognizer(key, options));
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

  /** The recognition threads, started on first use; null when decoding on the event loop. */
  private threads(): RecognitionThreads | null {
    if (this.pool !== null) return this.pool;
    const size = this.options.threads ?? (recognizerWorkerBuilt() ? undefined : 0);
    if (size === 0) return null;
    this.pool = new RecognitionThreads(size === undefined ? {} : { size });
    return this.pool;
  }

  /** Waits for builds under way (they write to the model cache), then frees every recogniser. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled([...this.preparing.values()]);
    const all = [...this.recognizers.values()];
    this.recognizers.clear();
    for (const recognizer of await Promise.allSettled(all)) {
      if (recognizer.status === 'fulfilled') recognizer.value.dispose();
    }
    await this.pool?.close();
  }
}
