/**
 * Speech recognition with pocketsphinx: an assistant's small domain language model first,
 * the general English model as the fallback.
 *
 * Each stream decodes every pushed frame with the domain decoder (about 0.7 ms per 20 ms
 * frame). The domain hypothesis is trusted when its words follow the domain model's own
 * n-grams: the share of words the model predicted with its full-order n-gram (trigram, or
 * bigram for the first word) is the confidence. Off-topic speech forced through a small
 * model comes out as word salad that keeps backing off to unigrams, so its confidence is
 * low; an in-domain sentence scores near 1.
 *
 * The general decoder (2–4 ms per frame) only runs when needed. While the caller speaks,
 * the partial domain hypothesis is checked every few frames; once it looks off-topic, the
 * general decoder starts and catches up on the buffered audio a few frames per push, so by
 * the time the caller stops it is (nearly) up to date. `finish()` takes the domain answer
 * when confident, else the general one. Policies (`generalFallback`): `on-doubt` (the
 * default, above), `parallel` (general decodes every frame: more CPU, never behind),
 * `at-finish` (general re-decodes the buffered utterance only at the end: least CPU,
 * slowest fallback) and `off` (domain only).
 *
 * A decoder is not thread-safe and serves one utterance at a time: the recogniser keeps a
 * pool of decoder pairs, one per concurrently open stream; a finished or cancelled stream
 * gives its pair back for the next `open()`, so a call's successive utterances reuse one
 * pair. What a pair heard before does not change what it hears next (see `Adaptation`).
 */
import type {
  ChannelEstimate,
  DomainVocabulary,
  RecognitionOptions,
  RecognitionResult,
  RecognitionStream,
  SpeechRecognizer,
} from '../types.js';
import type { Lexicon } from '../../language/lexicon.js';
import { buildDomainModelOffThread, type DomainModel } from '../language-model/build.js';
import { normalizeText } from '../language-model/normalize.js';
import { FallbackHistory } from './fallback-history.js';
import { generalDictionary } from './general-dictionary.js';
import {
  generalDecodersFor,
  type GeneralDecoder,
  type GeneralDecoders,
} from './general-decoders.js';
import {
  checkModel,
  DEFAULT_MODEL_DIR,
  DEFAULT_SEARCH,
  pocketsphinx,
  releaseFreedMemory,
  type ModelFiles,
  type Pointer,
  type PocketsphinxApi,
} from './native.js';

export type GeneralFallback = 'on-doubt' | 'parallel' | 'at-finish' | 'off';

/**
 * Cepstral-mean normalisation takes out the channel (microphone, level, voice) before the
 * acoustic model scores a frame. The model's default mean is far from what real audio
 * gives, so the mean must adapt.
 * - `call` (default): the first utterance of a call is normalised by the mean of its own
 *   first second (decoding starts once that second is in, then catches up); each later
 *   one starts from the running mean of the call's earlier utterances, passed along as
 *   the result's `channel` and `open({ channel })`. Noise statistics start fresh each
 *   time. The same call audio gives the same words, whatever the decoder heard before,
 *   and one caller never shapes how the next is heard.
 * - `carry`: pocketsphinx's own live mode: the mean of whatever the decoder heard last,
 *   which may be another caller; a new decoder starts from the model's default.
 */
export type Adaptation = 'call' | 'carry';

/** `ChannelEstimate.provider` of this recogniser's cepstral means. */
const CHANNEL_PROVIDER = 'pocketsphinx-cmn';

export interface PocketsphinxRecognizerOptions {
  /** The assistant's vocabulary; without it only the general model runs. */
  vocabulary?: DomainVocabulary;
  /** Folder for built domain models (cached by content hash) and the general dictionary. */
  cacheDir: string;
  /** The assistant's version or content hash, part of the model cache key. */
  vocabularyVersion?: string;
  /** Pocketsphinx model folder (default `/usr/share/pocketsphinx/model/en-us`). */
  modelDir?: string;
  /** Pronunciations for vocabulary words the dictionary lacks (word → phones). */
  pronunciations?: Readonly<Record<string, string>>;
  /**
   * Sound out the other words the dictionary lacks with eSpeak's letter-to-sound rules
   * (default true); false leaves them out of the domain model.
   */
  soundOut?: boolean;
  /** Language resources for the domain model (see `DomainModelOptions.lexicon`). */
  lexicon?: Lexicon | null;
  /** When the general model runs (see the module comment). Default `on-doubt`. */
  generalFallback?: GeneralFallback;
  /** Domain answers below this confidence (0–1) go to the general model. Default 0.65. */
  minDomainConfidence?: number;
  /**
   * The same for an answer heard with the model of the question it answers: lower, as a
   * caller who was just asked something most likely answers it. Default 0.5.
   */
  minQuestionConfidence?: number;
  /**
   * What the decoders' cepstral-mean normalisation adapts to (see `Adaptation`). Default
   * `call`.
   */
  adaptation?: Adaptation;
  /**
   * Language weights of the domain and general decoders (pocketsphinx's `-lw`: how much the
   * language model counts against the acoustic one). Default: the model's own (6.5): no
   * other weight measured better (`bench/lib/offline-understanding.mjs` measures one).
   */
  languageWeight?: { domain?: number; general?: number };
  /** Decoder pairs made up front (more are made on demand). Default 1. */
  decoders?: number;
  /**
   * After this long with no stream given back and no reservation released, pairs beyond
   * the ones in use, the reserved ones and one spare are freed, and the memory returned to
   * the system. Default 30 000 ms.
   */
  idleTrimMs?: number;
  /**
   * Idle pairs kept ready beyond those of reserved calls and open streams, for an `open()`
   * nobody announced. Default 1. Recognition threads keep one for the pool, not one each.
   */
  spares?: number;
  /**
   * Idle general decoders kept ready for the utterances the domain model doubts (they are
   * shared by the thread's recognisers, which keep the most any asks for). Default 1: one
   * made ahead is what lets a doubted utterance start its fallback at once.
   */
  generalSpares?: number;
  /**
   * Most general decoders of the thread's pool at once (about 49 MB each); past it an
   * utterance that doubts waits for one another utterance gives back. Default: no limit.
   */
  generalLimit?: number;
  /**
   * Most general decoders made past `generalLimit` for turns that have waited 1.5 s for one
   * to finish; past them a turn waits for one given back. Default: no cap.
   */
  generalOverflow?: number;
}

/** How long the pool waits, idle, before shrinking to its spare. */
export const DEFAULT_IDLE_TRIM_MS = 30_000;

/** A final result with the reasons behind it. */
export interface DetailedRecognitionResult extends RecognitionResult {
  /** The domain hypothesis' confidence (0–1), or 0 without a domain model. */
  confidence: number;
  /** What the domain model heard (also when the general model's answer was taken). */
  domainText?: string;
  /** Time spent in `finish()`, ms. */
  finishMs: number;
  /** Frames the general decoder decoded for this utterance (CPU spent on the fallback). */
  generalFrames: number;
}

export interface PocketsphinxRecognitionStream extends RecognitionStream {
  finish(): DetailedRecognitionResult;
  /**
   * `finish()`, after waiting (off the event loop) for a general decoder when the turn will
   * need one and none is idle, rather than making one on the spot as `finish()` must
   * (blocking 0.3–0.7 s). The recognition threads finish this way.
   */
  finishAsync(): Promise<DetailedRecognitionResult>;
  /**
   * Frames pushed and not yet decoded: the warm-up's audio (which cannot be decoded until
   * the warm-up ends) and the held frames. {@link heldFrames} counts only the latter.
   */
  readonly pendingFrames: number;
  /**
   * Takes a frame without decoding it now: it waits behind the frames already waiting, and
   * later pushes catch it up a few at a time (as the warm-up's audio), as do `catchUp()`
   * and the finish. A recognition thread holds the frames of callers still speaking while
   * a caller who stopped waits for their words (`recognizer-worker.ts`).
   */
  hold(frame: Int16Array): void;
  /**
   * Held frames that can be decoded now: {@link pendingFrames} less the warm-up's audio,
   * which waits for the warm-up to end.
   */
  readonly heldFrames: number;
  /** Decodes up to `count` held frames, oldest first. */
  decodeHeld(count: number): void;
  /** Decodes the held frames a slice at a time, letting the thread's other work in between. */
  catchUp(): Promise<void>;
  /** Whether its finish is waiting for another utterance to give back a general decoder. */
  readonly waitingForDecoder: boolean;
  /**
   * Frames the general decoder has still to hear: it starts behind, when the domain model
   * doubts the words, and catches up a few frames per frame decoded.
   */
  readonly generalLag: number;
  /** Feeds the general decoder up to `count` of the frames it has still to hear. */
  feedGeneral(count: number): void;
}

/**
 * A domain hypothesis not trusted as the answer is still offered as an alternative reading
 * at or above this confidence: below it, it is word salad from a model that knows only the
 * assistant's sentences.
 */
export const ALTERNATIVE_MIN_CONFIDENCE = 0.3;

/**
 * Readings offered from the domain model's N-best list beyond the answer and its
 * alternative (see `RecognitionResult.hypotheses`): reading the list costs 1–3 ms.
 */
const NBEST_READINGS = 10;
/** Frames between two confidence checks of the partial hypothesis (200 ms). */
const DOUBT_CHECK_FRAMES = 10;
/** Words the partial needs before it is judged. */
const DOUBT_MIN_WORDS = 2;
/**
 * Buffered frames the general decoder may catch up per pushed frame (≤ 5 frames per push,
 * 10–20 ms of decoding). It starts behind (the domain model doubts a turn a second or two
 * in) and what it has not caught up when the turn ends is decoded while the caller waits:
 * with 2, a busy thread's turns were still behind at their end (callers' p95 at 12 calls
 * 1270 ms, median of 8 runs, against 1063 ms with 4, in
 * bench/results/concurrency-general-catch-up.json), for the same CPU.
 */
const CATCH_UP_FRAMES = 4;
/**
 * Audio measured for an utterance's cepstral mean before decoding starts (1 s): enough
 * speech for a stable mean. The decoders then catch up on it.
 */
const WARM_UP_FRAMES = 50;
/**
 * Warm-up frames decoded per push beside the new one, so the catch-up (30–40 ms of
 * decoding) is spread over the next ~250 ms of pushes instead of stalling every other
 * call on the event loop at once. The end-of-speech delay's silence drains the rest before
 * `finish()` is called.
 */
const WARM_UP_CATCH_UP_PER_PUSH = 4;
/** Frames `finishAsync()` decodes between two looks at the thread's other work (200 ms of audio). */
const FINISH_SLICE_FRAMES = 10;

/** Lets the thread's event loop run what waits (other utterances' messages) before going on. */
function yieldToThread(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Longest utterance kept for the general fallback (60 s). */
const MAX_BUFFERED_FRAMES = 3000;

const DOMAIN_FLAGS = ['-fwdflat', 'no', '-bestpath', 'no'];
// With the general model, the forward-flat pass costs 50–290 ms at the end of an
// utterance; the lattice best path gives about the same accuracy for a few ms. Capping
// the active HMMs and word exits per frame more than halves the per-frame cost (RTF 0.27 →
// 0.12 on this model) for about one WER point (measured on the eSpeak test lines).
const GENERAL_FLAGS = ['-fwdflat', 'no', '-bestpath', 'yes', '-maxhmmpf', '3000', '-maxwpf', '10'];

/** What every domain decoder of a recogniser is made from. */
interface PairSpec {
  files: ModelFiles;
  domain: DomainModel | undefined;
  domainFlags: readonly string[];
  generalFlags: readonly string[];
}

/** The decoders' flags with the chosen language weights; throws on a weight not above 0. */
function decoderFlags(
  options: PocketsphinxRecognizerOptions,
): Pick<PairSpec, 'domainFlags' | 'generalFlags'> {
  const weight = (lw: number | undefined) => {
    if (lw === undefined) return [];
    if (!Number.isFinite(lw) || lw <= 0)
      throw new RangeError(`PocketsphinxRecognizer: a language weight must be above 0 (got ${lw})`);
    return ['-lw', String(lw)];
  };
  return {
    domainFlags: [...DOMAIN_FLAGS, ...weight(options.languageWeight?.domain)],
    generalFlags: [...GENERAL_FLAGS, ...weight(options.languageWeight?.general)],
  };
}

interface Decoder {
  ps: Pointer;
  config: Pointer;
  /** The search in use: the model's own, or a question's (domain decoder). */
  search: string;
}

/**
 * What a live call holds: its domain decoder (about 7 MB) and a front end. The general
 * decoder (about 49 MB, beside the model its thread's decoders share) is lent per
 * utterance, and only when needed (`GeneralDecoders`). Without a domain model a pair holds nothing: every utterance borrows a general decoder.
 */
interface DecoderPair {
  domain?: Decoder;
  /** A front end like the domain decoder's, to measure an utterance's mean (null: cannot). */
  frontEnd: Pointer | null;
}

function isWord(w: string): boolean {
  return w !== '<s>' && w !== '</s>' && w !== '<sil>' && !w.startsWith('[') && !w.startsWith('++');
}

/**
 * Confidence of a domain hypothesis from its word segments: the share of words (and the
 * sentence end) that the model scored with its highest usable n-gram order.
 */
export function domainConfidence(
  segments: readonly { word: string; lmOrder: number }[],
  options: { partial?: boolean } = {},
): {
  confidence: number;
  words: number;
} {
  if (options.partial) {
    // Mid-utterance the last word is still being decided: judge the words before it.
    let last = segments.length - 1;
    while (last >= 0 && !isWord((segments[last] as { word: string }).word)) last--;
    segments = segments.slice(0, Math.max(0, last));
  }
  let position = 0;
  let hits = 0;
  let total = 0;
  for (const s of segments) {
    if (!isWord(s.word) && s.word !== '</s>') continue;
    position++;
    if (s.word !== '</s>' || position > 1) {
      total++;
      if (s.lmOrder >= Math.min(3, position + 1)) hits++;
    }
  }
  const words = segments.filter((s) => isWord(s.word)).length;
  return { confidence: total === 0 ? 0 : hits / total, words };
}

export class PocketsphinxRecognizer implements SpeechRecognizer {
  readonly provider = 'pocketsphinx';
  /** The domain model in use (undefined without a vocabulary). */
  readonly domainModel: DomainModel | undefined;
  readonly fallback: GeneralFallback;
  /** Time `create()` took to make the first decoder pair, ms. */
  readonly decoderInitMs: number;

  readonly #api: PocketsphinxApi;
  readonly #spec: PairSpec;
  readonly #minConfidence: number;
  readonly #minQuestionConfidence: number;
  readonly #adaptation: Adaptation;
  readonly #idle: DecoderPair[] = [];
  readonly #busy = new Set<DecoderPair>();
  /** The thread's general decoders, lent to this recogniser's utterances that need one. */
  readonly #generals: GeneralDecoders;
  readonly #leaveGenerals: () => void;
  /** How often this assistant's recent utterances needed a general decoder. */
  readonly #fallbacks = new FallbackHistory();
  readonly #streams = new Set<Stream>();
  /** Decoder pairs being made off the event loop. */
  #making = 0;
  /** Live calls that asked for a pair of their own (`reserve()`). */
  #reserved = 0;
  #disposed = false;
  readonly #idleTrimMs: number;
  readonly #spares: number;
  #trimTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    api: PocketsphinxApi,
    spec: PairSpec,
    options: PocketsphinxRecognizerOptions,
    pairs: DecoderPair[],
    initMs: number,
    generals: { pool: GeneralDecoders; release: () => void },
  ) {
    this.#api = api;
    this.#spec = spec;
    this.#generals = generals.pool;
    this.#leaveGenerals = generals.release;
    const domainModel = spec.domain;
    this.domainModel = domainModel;
    this.fallback = domainModel ? (options.generalFallback ?? 'on-doubt') : 'parallel';
    this.#minConfidence = options.minDomainConfidence ?? 0.65;
    this.#minQuestionConfidence = options.minQuestionConfidence ?? 0.5;
    this.#adaptation = options.adaptation ?? 'call';
    this.#idleTrimMs = options.idleTrimMs ?? DEFAULT_IDLE_TRIM_MS;
    this.#spares = Math.max(0, options.spares ?? 1);
    this.#idle.push(...pairs);
    this.decoderInitMs = initMs;
    // Pairs made up front beyond the spares (one proves the model loads) go when idle.
    if (pairs.length > this.#spares) this.#scheduleTrim();
  }

  /**
   * Builds (or finds cached) the domain model and loads the decoders. Model loading runs
   * off the event loop. Throws `PocketsphinxUnavailableError` when pocketsphinx or its
   * model is not installed.
   */
  static async create(options: PocketsphinxRecognizerOptions): Promise<PocketsphinxRecognizer> {
    const api = pocketsphinx();
    const files = checkModel(options.modelDir ?? DEFAULT_MODEL_DIR);
    // Checked before the domain model is built, which may take seconds.
    const flags = decoderFlags(options);
    const domainModel = options.vocabulary
      ? await buildDomainModelOffThread({
          vocabulary: options.vocabulary,
          cacheDir: options.cacheDir,
          ...(options.vocabularyVersion !== undefined
            ? { version: options.vocabularyVersion }
            : {}),
          ...(options.pronunciations !== undefined
            ? { pronunciations: options.pronunciations }
            : {}),
          ...(options.lexicon !== undefined ? { lexicon: options.lexicon } : {}),
          ...(options.soundOut !== undefined ? { soundOut: options.soundOut } : {}),
          dictionaryPath: files.dictionary,
        })
      : undefined;
    const spec: PairSpec = { files, domain: domainModel, ...flags };
    // The installed dictionary less the words the general model never says (made once).
    const generalDict = await generalDictionary(api, files, options.cacheDir);
    const started = performance.now();
    const count = Math.max(1, options.decoders ?? 1);
    const pairs: DecoderPair[] = [];
    const generals = generalDecodersFor(
      api,
      {
        args: ['-hmm', files.acousticModel, '-dict', generalDict, ...flags.generalFlags],
        lm: files.generalLm,
      },
      {
        spares: Math.max(0, options.generalSpares ?? 1),
        idleTrimMs: options.idleTrimMs ?? DEFAULT_IDLE_TRIM_MS,
        ...(options.generalLimit !== undefined ? { limit: options.generalLimit } : {}),
        ...(options.generalOverflow !== undefined ? { overflow: options.generalOverflow } : {}),
      },
    );
    try {
      for (let i = 0; i < count; i++) pairs.push(await makePairAsync(api, spec));
      await generals.pool.ready();
    } catch (err) {
      for (const p of pairs) freePair(api, p);
      generals.release();
      throw err;
    }
    return new PocketsphinxRecognizer(
      api,
      spec,
      options,
      pairs,
      performance.now() - started,
      generals,
    );
  }

  /**
   * The domain decoder's search for an utterance after `question`: the model of the
   * assistant's question it contains (the last one asked, if several), else the domain
   * model's own.
   */
  #searchFor(question: string | undefined): string {
    const models = this.domainModel?.questionModels ?? [];
    if (question === undefined || models.length === 0) return DEFAULT_SEARCH;
    const said = normalizeText(question);
    let best = DEFAULT_SEARCH;
    let at = -1;
    models.forEach((m, i) => {
      const position = said.lastIndexOf(m.question);
      if (position > at) {
        at = position;
        best = questionSearchName(i);
      }
    });
    return best;
  }

  /** Domain decoders in existence (idle + in use): one per live call, and the spares. */
  get domainDecoderCount(): number {
    return this.domainModel === undefined ? 0 : this.#idle.length + this.#busy.size;
  }

  /** The general decoders this recogniser borrows from (shared with the thread's others). */
  get generalDecoders(): { readonly count: number } {
    return this.#generals;
  }

  /** Decoders in existence: this recogniser's domain ones and its thread's general ones. */
  get decoderCount(): number {
    return this.domainDecoderCount + this.#generals.count;
  }

  open(options: RecognitionOptions = {}): PocketsphinxRecognitionStream {
    if (this.#disposed) throw new Error('PocketsphinxRecognizer: open() after dispose()');
    // Making a pair here blocks for 0.3–0.7 s (the general model): rare, as pairs are made
    // ahead (a spare, and one per reserved call).
    const pair = this.#idle.pop() ?? makePair(this.#api, this.#spec);
    this.#busy.add(pair);
    const search = this.#searchFor(options.question);
    let stream: Stream;
    try {
      stream = new Stream(
        this.#api,
        pair,
        this.#generals,
        this.fallback,
        search === DEFAULT_SEARCH ? this.#minConfidence : this.#minQuestionConfidence,
        this.#adaptation === 'call' ? startingMean(options.channel) : null,
        search,
        (s, ended) => {
          if (ended.finished) this.#fallbacks.record(ended.neededGeneral);
          this.#streams.delete(s);
          this.#busy.delete(pair);
          if (this.#disposed) freePair(this.#api, pair);
          else {
            this.#idle.push(pair);
            this.#scheduleTrim();
          }
        },
        options.expectFallback === true,
      );
    } catch (err) {
      // A decoder that failed to start an utterance is not trusted again.
      this.#busy.delete(pair);
      freePair(this.#api, pair);
      throw err;
    }
    this.#streams.add(stream);
    this.#topUp();
    return stream;
  }

  /**
   * Readies a decoder pair for one more live call, off the event loop, so the call's first
   * utterance need not make one (which would stall every live call), and tells the
   * thread's general pool how likely the call is to need a general decoder: how often this
   * assistant's recent utterances did (`FallbackHistory`; every call, until five were
   * heard), so the pool makes decoders ahead for the callers likely to need them, within
   * its limit (`GeneralDecoders.expect()`). Call it when the call starts (its greeting gives the
   * decoders time to load); the answer gives the reservation back when the call ends.
   * Decoders are kept for reuse until the pools have been idle for `idleTrimMs`, then
   * shrink back to their spares.
   */
  reserve(): () => void {
    // Disposed (its assistant changed as the call started), there is nothing to hold.
    if (this.#disposed) return () => undefined;
    this.#reserved += 1;
    this.#topUp();
    const releaseGeneral =
      this.fallback === 'off'
        ? () => undefined
        : this.#generals.expect(this.fallback === 'parallel' ? 1 : this.#fallbacks.share);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#reserved -= 1;
      releaseGeneral();
      this.#scheduleTrim();
    };
  }

  /** (Re)starts the idle countdown after which unneeded pairs are freed. */
  #scheduleTrim(): void {
    if (this.#disposed) return;
    if (this.#trimTimer !== null) clearTimeout(this.#trimTimer);
    this.#trimTimer = setTimeout(() => {
      this.#trimTimer = null;
      this.#trim();
    }, this.#idleTrimMs);
    this.#trimTimer.unref();
  }

  /** Frees idle pairs beyond those in use, the reserved ones and the spares. */
  #trim(): void {
    if (this.#disposed) return;
    const wanted = Math.max(this.#reserved, this.#busy.size) + this.#spares;
    let freed = 0;
    while (this.#idle.length > 0 && this.#idle.length + this.#busy.size > wanted) {
      // The front holds pairs made ahead and never used, then the longest idle.
      freePair(this.#api, this.#idle.shift() as DecoderPair);
      freed += 1;
    }
    // Freed decoders leave their pages in malloc's arenas; hand them back to the system.
    if (freed > 0) releaseFreedMemory();
  }

  /**
   * Makes pairs asynchronously until there is one for every reserved call (or open stream,
   * if more) and the spares for an unannounced `open()`: a domain decoder each (~7 MB).
   */
  #topUp(): void {
    if (this.#disposed) return;
    const wanted = Math.max(this.#reserved, this.#busy.size) + this.#spares;
    while (this.#idle.length + this.#busy.size + this.#making < wanted) {
      this.#making += 1;
      makePairAsync(this.#api, this.#spec)
        .then(
          (pair) => {
            if (this.#disposed) freePair(this.#api, pair);
            // Behind the others: a pair just given back, adapted to its caller, is reused first.
            else this.#idle.unshift(pair);
          },
          () => undefined, // open() makes one itself if this one could not be made
        )
        .finally(() => {
          this.#making -= 1;
        });
    }
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#trimTimer !== null) clearTimeout(this.#trimTimer);
    for (const s of [...this.#streams]) s.cancel();
    for (const p of this.#idle.splice(0)) freePair(this.#api, p);
    this.#leaveGenerals();
    releaseFreedMemory();
  }
}

function argv(files: ModelFiles, lm: string, dict: string, flags: readonly string[]): string[] {
  return ['-hmm', files.acousticModel, '-lm', lm, '-dict', dict, ...flags];
}

function configFor(api: PocketsphinxApi, args: string[]): Pointer {
  const config = api.parseConfig(args);
  if (config === null) throw new Error(`pocketsphinx: bad configuration ${args.join(' ')}`);
  return config;
}

function initFailed(what: string): Error {
  return new Error(
    `pocketsphinx: could not load the ${what} decoder (ps_init failed; check the model files)`,
  );
}

async function makeDecoderAsync(
  api: PocketsphinxApi,
  args: string[],
  what: string,
): Promise<Decoder> {
  const config = configFor(api, args);
  const ps = await api.initAsync(config);
  if (ps === null) {
    api.freeConfig(config);
    throw initFailed(what);
  }
  return { ps, config, search: DEFAULT_SEARCH };
}

function makeDecoder(api: PocketsphinxApi, args: string[], what: string): Decoder {
  const config = configFor(api, args);
  const ps = api.init(config);
  if (ps === null) {
    api.freeConfig(config);
    throw initFailed(what);
  }
  return { ps, config, search: DEFAULT_SEARCH };
}

async function makePairAsync(api: PocketsphinxApi, spec: PairSpec): Promise<DecoderPair> {
  const { files, domain } = spec;
  if (!domain) return { frontEnd: null };
  const d = await makeDecoderAsync(
    api,
    argv(files, domain.lmPath, domain.dictPath, spec.domainFlags),
    'domain',
  );
  try {
    for (const [name, path] of questionSearches(domain))
      checkSearch(await api.setLmFileAsync(d.ps, name, path), path);
  } catch (err) {
    freeDecoder(api, d);
    throw err;
  }
  return { domain: d, frontEnd: api.frontEnd(d.config) };
}

/** The search name and model file of each of the domain model's question models. */
function questionSearches(domain: DomainModel): [string, string][] {
  return domain.questionModels.map((q, i) => [questionSearchName(i), q.lmPath]);
}

function questionSearchName(index: number): string {
  return `question-${index + 1}`;
}

function checkSearch(rc: number, path: string): void {
  if (rc < 0) throw new Error(`pocketsphinx: could not load the question model ${path}`);
}

function makePair(api: PocketsphinxApi, spec: PairSpec): DecoderPair {
  const { files, domain } = spec;
  if (!domain) return { frontEnd: null };
  const d = makeDecoder(
    api,
    argv(files, domain.lmPath, domain.dictPath, spec.domainFlags),
    'domain',
  );
  try {
    for (const [name, path] of questionSearches(domain))
      checkSearch(api.setLmFile(d.ps, name, path), path);
  } catch (err) {
    freeDecoder(api, d);
    throw err;
  }
  return { domain: d, frontEnd: api.frontEnd(d.config) };
}

function freeDecoder(api: PocketsphinxApi, d: Decoder): void {
  api.free(d.ps);
  api.freeConfig(d.config);
}

function freePair(api: PocketsphinxApi, p: DecoderPair): void {
  if (p.frontEnd !== null) api.freeFrontEnd(p.frontEnd);
  if (p.domain) freeDecoder(api, p.domain);
}

/**
 * How a stream ended: finished (not cancelled), and whether its answer needed the general
 * model (the domain model's was not trusted; a general decoder run from the start beside a
 * domain answer that was trusted was not needed).
 */
interface StreamEnd {
  finished: boolean;
  neededGeneral: boolean;
}

class Stream implements PocketsphinxRecognitionStream {
  readonly #api: PocketsphinxApi;
  readonly #pair: DecoderPair;
  readonly #generals: GeneralDecoders;
  /** The general decoder lent to this utterance (null until it needs one). */
  #general: GeneralDecoder | null = null;
  /** Whether it asked the pool for one already (it then asks `again`). */
  #askedGeneral = false;
  /** Whether the answer needed the general model (`StreamEnd.neededGeneral`). */
  #neededGeneral = false;
  readonly #fallback: GeneralFallback;
  readonly #minConfidence: number;
  /** Called once, when the stream ends: whether it finished, and needed a general decoder. */
  readonly #release: (s: Stream, ended: StreamEnd) => void;
  #finished = false;
  /** While `finishAsync()` waits for a general decoder to be given back. */
  #waitingForDecoder = false;
  /**
   * Frames held back until the utterance's mean is known (a call's first utterance, `call`
   * adaptation); null once decoding has begun.
   */
  #warmUp: Int16Array[] | null;
  /** Frames pushed after the warm-up ended but not yet decoded, oldest first. */
  #backlog: Int16Array[] = [];
  /** The mean the decoders start from (null: they keep their own). */
  #mean: Float32Array | null = null;
  /** Whether results carry a channel estimate (`call` adaptation). */
  readonly #adapting: boolean;
  /** Frames of this utterance (up to 60 s), for a general decoder that starts late. */
  readonly #frames: Int16Array[] = [];
  #pushed = 0;
  /** Frames the domain (or only) decoder has been given. */
  #decoded = 0;
  /** Frames the general decoder has been given. */
  #generalFed = 0;
  #generalStarted = false;
  /** Utterances begun and not yet ended, per decoder (so a failed stream never leaks one). */
  #domainOpen = false;
  #generalOpen = false;
  #doubt = false;
  /**
   * The general decoder runs from the start without the domain model having doubted
   * anything (the caller's previous utterance needed it): the domain model's confidence
   * still decides which answer is taken.
   */
  readonly #eager: boolean;
  #done = false;
  #partialCache: { at: number; text: string } = { at: -1, text: '' };

  constructor(
    api: PocketsphinxApi,
    pair: DecoderPair,
    generals: GeneralDecoders,
    fallback: GeneralFallback,
    minConfidence: number,
    /** The call's running mean (`call` adaptation), `'measure'` for a first utterance, null for `carry`. */
    start: Float32Array | 'measure' | null,
    /** The domain decoder's search for this utterance. */
    search: string,
    release: (s: Stream, ended: StreamEnd) => void,
    /** Run the general decoder from the start (`RecognitionOptions.expectFallback`). */
    eager = false,
  ) {
    if (pair.domain && pair.domain.search !== search) {
      this.#check(api.setSearch(pair.domain.ps, search), 'ps_set_search');
      pair.domain.search = search;
    }
    this.#api = api;
    this.#pair = pair;
    this.#generals = generals;
    // Without a domain model the general decoder hears everything, from the first frame.
    if (!pair.domain) {
      this.#general = generals.takeNow();
      this.#askedGeneral = true;
    }
    this.#fallback = fallback;
    this.#minConfidence = minConfidence;
    this.#release = release;
    this.#eager = eager && fallback === 'on-doubt' && pair.domain !== undefined;
    this.#adapting = start !== null;
    this.#warmUp = start === 'measure' && this.#frontEnd !== null ? [] : null;
    if (start instanceof Float32Array) this.#mean = start;
    if (this.#warmUp === null) {
      try {
        this.#beginDecoding();
      } catch (err) {
        // The pair is freed by open(); the lent general decoder goes back.
        if (this.#general !== null) generals.give(this.#general);
        this.#general = null;
        throw err;
      }
    }
  }

  push(frame: Int16Array): void {
    if (this.#done) throw new Error('RecognitionStream: push() after finish() or cancel()');
    this.#pushed++;
    if (this.#warmUp !== null) {
      this.#warmUp.push(frame.slice());
      if (this.#warmUp.length >= WARM_UP_FRAMES) {
        this.#endWarmUp();
        this.#drain(WARM_UP_CATCH_UP_PER_PUSH);
      }
      return;
    }
    if (this.#backlog.length > 0) {
      this.#backlog.push(frame.slice());
      this.#drain(1 + WARM_UP_CATCH_UP_PER_PUSH);
      return;
    }
    this.#decode(frame);
  }

  get pendingFrames(): number {
    return (this.#warmUp?.length ?? 0) + this.#backlog.length;
  }

  hold(frame: Int16Array): void {
    if (this.#done) throw new Error('RecognitionStream: hold() after finish() or cancel()');
    this.#pushed++;
    if (this.#warmUp !== null) {
      this.#warmUp.push(frame.slice());
      if (this.#warmUp.length >= WARM_UP_FRAMES) this.#endWarmUp();
      return;
    }
    this.#backlog.push(frame.slice());
  }

  get heldFrames(): number {
    return this.#backlog.length;
  }

  decodeHeld(count: number): void {
    if (!this.#done) this.#drain(count);
  }

  async catchUp(): Promise<void> {
    while (!this.#done && this.#warmUp === null && this.#backlog.length > 0) {
      this.#drain(FINISH_SLICE_FRAMES);
      await yieldToThread();
    }
  }

  get waitingForDecoder(): boolean {
    return this.#waitingForDecoder;
  }

  get generalLag(): number {
    // Fed frame by frame (no domain model, or both run side by side): never behind.
    return this.#generalOpen ? Math.max(0, this.#frames.length - this.#generalFed) : 0;
  }

  feedGeneral(count: number): void {
    if (!this.#done && this.#generalOpen) this.#feedGeneral(this.#generalFed + count);
  }

  /** The front end that measures an utterance's mean: the domain decoder's, or the general's. */
  get #frontEnd(): Pointer | null {
    return this.#pair.frontEnd ?? this.#general?.frontEnd ?? null;
  }

  /**
   * Measures the held-back audio's mean and starts the decoders from it; the held frames
   * wait in the backlog.
   */
  #endWarmUp(): void {
    const held = this.#warmUp ?? [];
    this.#warmUp = null;
    const frontEnd = this.#frontEnd;
    if (held.length > 0 && frontEnd !== null) {
      this.#mean = this.#api.meanCepstrum(frontEnd, concatenate(held));
    }
    this.#beginDecoding();
    this.#backlog = held;
  }

  /** Decodes up to `count` frames of the backlog, oldest first. */
  #drain(count: number): void {
    const n = Math.min(count, this.#backlog.length);
    for (let i = 0; i < n; i++) this.#decode(this.#backlog[i] as Int16Array);
    this.#backlog.splice(0, n);
  }

  #beginDecoding(): void {
    const domain = this.#pair.domain;
    if (domain) {
      this.#begin(domain);
      this.#domainOpen = true;
    }
    if (!domain || this.#fallback === 'parallel') this.#startGeneral(true);
  }

  #decode(frame: Int16Array): void {
    this.#decoded++;
    const domain = this.#pair.domain;
    if (!domain) {
      this.#api.processRaw((this.#general as GeneralDecoder).ps, frame, false);
      this.#generalFed++;
      return;
    }
    this.#api.processRaw(domain.ps, frame, false);
    if (this.#fallback === 'off') return;
    if (this.#fallback === 'parallel') {
      this.#api.processRaw((this.#general as GeneralDecoder).ps, frame, false);
      this.#generalFed++;
    } else if (this.#frames.length < MAX_BUFFERED_FRAMES) {
      this.#frames.push(frame.slice());
    }
    if (this.#fallback === 'at-finish') return;
    if (!this.#doubt && this.#decoded % DOUBT_CHECK_FRAMES === 0) {
      const hyp = this.#api.getHyp(domain.ps);
      if (hyp && hyp.text !== '') {
        const c = domainConfidence(this.#api.segments(domain.ps), { partial: true });
        if (c.words >= DOUBT_MIN_WORDS && c.confidence < this.#minConfidence) this.#doubt = true;
      }
    }
    if ((this.#doubt || this.#eager) && this.#fallback === 'on-doubt') {
      // None free: one is being made; the buffered audio waits for it.
      if (!this.#generalStarted && !this.#startGeneral(false)) return;
      this.#feedGeneral(this.#generalFed + 1 + CATCH_UP_FRAMES);
    }
  }

  partial(): string {
    if (this.#done || this.#warmUp !== null) return '';
    if (this.#partialCache.at === this.#pushed) return this.#partialCache.text;
    // The domain partial, unless the domain model has lost the thread and the general
    // decoder is up to date.
    const general = this.#general;
    const useGeneral =
      general !== null &&
      this.#generalStarted &&
      (!this.#pair.domain || (this.#doubt && this.#generalFed === this.#decoded));
    const d = useGeneral ? general : this.#pair.domain;
    const text = d === undefined ? '' : (this.#api.getHyp(d.ps)?.text ?? '');
    this.#partialCache = { at: this.#pushed, text };
    return text;
  }

  /**
   * The domain model's confidence in the words so far ({@link domainConfidence}): 0 once it
   * doubted them or without a domain model, undefined while audio waits to be decoded.
   */
  confidenceSoFar(): number | undefined {
    const domain = this.#pair.domain;
    if (this.#done || this.#warmUp !== null || this.#backlog.length > 0) return undefined;
    if (!domain || this.#doubt) return 0;
    return domainConfidence(this.#api.segments(domain.ps)).confidence;
  }

  async finishAsync(): Promise<DetailedRecognitionResult> {
    // A turn that will need a general decoder takes one the moment one is idle: another
    // turn woken by the same decoder given back must not take it first, leaving this one to
    // make one on the spot in `finish()` (past the pool's limits, blocking its thread).
    while (!this.#done && this.#willNeedGeneral()) {
      if (this.#generals.hasIdle) {
        this.#general = this.#generals.take('again');
        this.#askedGeneral = true;
        break;
      }
      this.#waitingForDecoder = true;
      const idle = await this.#generals.whenIdle();
      this.#waitingForDecoder = false;
      if (!idle) break;
    }
    await this.#catchUpInSlices();
    return this.finish();
  }

  /**
   * Decodes what `finish()` would otherwise decode in one go (the backlog, and the general
   * decoder's lag when the turn will need it: up to a whole utterance, 0.3–0.8 s of a
   * loaded thread), a slice at a time, letting the thread's other utterances' frames and
   * finishes in between. In one go, every other call on the thread waited for it: with four
   * calls on two threads, a finish waited up to a second behind another's (issue 14).
   */
  async #catchUpInSlices(): Promise<void> {
    if (this.#done) return;
    if (this.#warmUp !== null) this.#endWarmUp();
    await this.catchUp();
    if (this.#done) return;
    if (!this.#generalStarted) {
      if (!this.#doubtedSoFar() || !this.#startGeneral(false)) return;
    } else if (this.#fallback === 'parallel' || this.#domainTrustedSoFar()) {
      return; // never behind, or its answer will not be taken
    }
    while (this.#generalFed < this.#frames.length) {
      this.#feedGeneral(this.#generalFed + FINISH_SLICE_FRAMES);
      await yieldToThread();
      if (this.#done) return;
    }
  }

  /**
   * Whether `finish()` will borrow a general decoder: it has none, and the domain model's
   * words so far are not trusted (judged before the utterance ends, as `finish()` will).
   */
  #willNeedGeneral(): boolean {
    return this.#general === null && this.#doubtedSoFar();
  }

  /**
   * Whether the domain model's words so far are not trusted, or not decoded yet (so it
   * cannot tell): the general model will be asked, with the fallback on.
   */
  #doubtedSoFar(): boolean {
    const domain = this.#pair.domain;
    if (!domain || this.#fallback === 'off') return false;
    if (this.#warmUp !== null || this.#backlog.length > 0) return true; // not decoded yet: cannot tell
    const text = this.#api.getHyp(domain.ps)?.text ?? '';
    if (text === '') return false;
    return domainConfidence(this.#api.segments(domain.ps)).confidence < this.#minConfidence;
  }

  /** Whether the domain model's words so far, all decoded, would be taken as they are. */
  #domainTrustedSoFar(): boolean {
    const domain = this.#pair.domain;
    if (!domain || this.#backlog.length > 0 || this.#warmUp !== null) return false;
    if ((this.#api.getHyp(domain.ps)?.text ?? '') === '') return false;
    return domainConfidence(this.#api.segments(domain.ps)).confidence >= this.#minConfidence;
  }

  finish(): DetailedRecognitionResult {
    if (this.#done) throw new Error('RecognitionStream: finish() after finish() or cancel()');
    this.#finished = true;
    const started = performance.now();
    try {
      // A short utterance is measured whole.
      if (this.#warmUp !== null) this.#endWarmUp();
      this.#drain(this.#backlog.length);
      const domain = this.#pair.domain;
      if (!domain) {
        this.#neededGeneral = true;
        const text = this.#endGeneral();
        return {
          text,
          model: 'general',
          ...this.#channel(this.#general as GeneralDecoder),
          confidence: 0,
          finishMs: performance.now() - started,
          generalFrames: this.#generalFed,
        };
      }
      this.#domainOpen = false;
      this.#check(this.#api.endUtt(domain.ps), 'ps_end_utt');
      const domainText = this.#api.getHyp(domain.ps)?.text ?? '';
      const { confidence } = domainConfidence(this.#api.segments(domain.ps));
      // The domain decoder heard every frame: its mean is the call's channel so far.
      const channel = this.#channel(domain);
      const nbest = this.#api.nbest(domain.ps, NBEST_READINGS + 1);
      const hypotheses = (...taken: string[]) => {
        const rest = nbest.filter((h) => !taken.includes(h)).slice(0, NBEST_READINGS);
        return rest.length > 0 ? { hypotheses: rest } : {};
      };
      // An empty domain answer is silence or noise, unless the general decoder, already
      // engaged, heard words.
      const trusted = domainText === '' ? !this.#generalStarted : confidence >= this.#minConfidence;
      if (trusted || this.#fallback === 'off') {
        if (this.#generalStarted) this.#abortGeneral();
        return {
          text: domainText,
          model: 'domain',
          ...(trusted ? {} : { unsure: true }),
          ...channel,
          ...hypotheses(domainText),
          confidence,
          finishMs: performance.now() - started,
          generalFrames: this.#generalFed,
        };
      }
      this.#neededGeneral = true;
      const text = this.#endGeneral();
      if (text === '' && domainText !== '') {
        // The general model heard nothing where the domain model heard words: those words
        // are the only reading there is (the reply engine judges whether they make sense).
        return {
          text: domainText,
          model: 'domain',
          ...channel,
          ...hypotheses(domainText),
          confidence,
          domainText,
          finishMs: performance.now() - started,
          generalFrames: this.#generalFed,
        };
      }
      const alternative = domainText !== '' && confidence >= ALTERNATIVE_MIN_CONFIDENCE;
      return {
        text,
        model: 'general',
        ...(alternative ? { alternatives: [domainText] } : {}),
        ...channel,
        ...hypotheses(text, domainText),
        confidence,
        domainText,
        finishMs: performance.now() - started,
        generalFrames: this.#generalFed,
      };
    } finally {
      this.#close();
    }
  }

  /** The decoder's cepstral mean after the utterance, for the call's next one. */
  #channel(d: { ps: Pointer }): { channel?: ChannelEstimate } {
    if (!this.#adapting || this.#decoded === 0) return {};
    const mean = this.#api.cepstralMean(d.ps);
    return mean ? { channel: { provider: CHANNEL_PROVIDER, values: Array.from(mean) } } : {};
  }

  cancel(): void {
    if (this.#done) return;
    this.#close();
  }

  /** Starts an utterance on a decoder, from the utterance's own mean when measured. */
  #begin(d: { ps: Pointer }): void {
    if (this.#mean !== null) this.#api.restoreStreamState(d.ps, this.#mean);
    this.#check(this.#api.startUtt(d.ps), 'ps_start_utt');
  }

  /**
   * Begins the general decoder's utterance, borrowing one (made on the spot if `now`);
   * false when none is free yet (one is being made: the next push asks again).
   */
  #startGeneral(now: boolean): boolean {
    if (this.#general === null) {
      this.#general = now
        ? this.#generals.takeNow()
        : this.#generals.take(this.#askedGeneral ? 'again' : 'first');
      this.#askedGeneral = true;
      if (this.#general === null) return false;
    }
    this.#begin(this.#general);
    this.#generalStarted = true;
    this.#generalOpen = true;
    return true;
  }

  /** Gives the general decoder buffered frames up to (not including) frame `until`. */
  #feedGeneral(until: number): void {
    if (this.#general === null) return;
    const g = this.#general.ps;
    const end = Math.min(until, this.#frames.length);
    if (end <= this.#generalFed) return;
    let length = 0;
    for (let i = this.#generalFed; i < end; i++) length += (this.#frames[i] as Int16Array).length;
    const chunk = new Int16Array(length);
    let offset = 0;
    for (let i = this.#generalFed; i < end; i++) {
      const f = this.#frames[i] as Int16Array;
      chunk.set(f, offset);
      offset += f.length;
    }
    this.#api.processRaw(g, chunk, false);
    this.#generalFed = end;
  }

  #endGeneral(): string {
    if (!this.#generalStarted) this.#startGeneral(true);
    const general = this.#general as GeneralDecoder;
    this.#feedGeneral(this.#frames.length);
    this.#generalOpen = false;
    this.#check(this.#api.endUtt(general.ps), 'ps_end_utt');
    return this.#api.getHyp(general.ps)?.text ?? '';
  }

  /** Ends the general utterance without asking for its hypothesis (no lattice search). */
  #abortGeneral(): void {
    if (!this.#generalOpen || this.#general === null) return;
    this.#generalOpen = false;
    this.#api.endUtt(this.#general.ps);
  }

  /** Ends whatever utterance is still open (cancel, or a failure) and gives the decoders back. */
  #close(): void {
    if (this.#domainOpen && this.#pair.domain) this.#api.endUtt(this.#pair.domain.ps);
    this.#domainOpen = false;
    this.#abortGeneral();
    // The general decoder goes back to the thread's pool for the next utterance that needs one.
    if (this.#general !== null) this.#generals.give(this.#general);
    this.#general = null;
    this.#done = true;
    this.#frames.length = 0;
    this.#backlog = [];
    this.#release(this, { finished: this.#finished, neededGeneral: this.#neededGeneral });
  }

  #check(rc: number, what: string): void {
    if (rc < 0) throw new Error(`pocketsphinx: ${what} failed (${rc})`);
  }
}

function concatenate(frames: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
  let offset = 0;
  for (const f of frames) {
    out.set(f, offset);
    offset += f.length;
  }
  return out;
}

/** Where a stream's cepstral mean starts: the call's estimate, or measured from its audio. */
function startingMean(channel: ChannelEstimate | undefined): Float32Array | 'measure' {
  if (channel?.provider !== CHANNEL_PROVIDER || channel.values.length !== 13) return 'measure';
  return Float32Array.from(channel.values);
}
