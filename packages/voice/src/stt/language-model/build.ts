/**
 * Builds (or finds in the cache) an assistant's domain language model: expands its
 * vocabulary into training sentences, keeps the words the pronunciation dictionary knows,
 * trains a Kneser-Ney trigram model and writes `domain.lm` (ARPA) plus a `domain.dict`
 * holding only the model's words, so a decoder for it loads in milliseconds.
 *
 * Words the dictionary lacks ("toothache", a business's name) are sounded out by eSpeak's
 * letter-to-sound rules when a guesser is given (see sound-out.ts); the recogniser's
 * builds, through `buildDomainModelOffThread`, always have one.
 *
 * Built models are cached under `cacheDir/domain-<hash>/`, the hash covering the
 * vocabulary, the caller's version string, the extra pronunciations, the guesser, the
 * dictionary file and this builder's own version: a second build for the same assistant
 * is a lookup.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DomainVocabulary } from '../types.js';
import { formatArpa, trainKneserNey } from './arpa.js';
import { formatDictionary, readDictionary } from './dictionary.js';
import { Lexicon } from '../../language/lexicon.js';
import { CLARIFYING_QUESTION } from '../../language/clarifying.js';
import {
  expandClarifying,
  expandQuestion,
  expandVocabulary,
  type TrainingCorpus,
} from './expand.js';
import { normalizeText } from './normalize.js';
import {
  ESPEAK_GUESSER_VERSION,
  loadEspeakGuesser,
  type PronunciationGuesser,
} from './sound-out.js';

/** Bump when the expander, the smoothing or the file layout change: old caches then miss. */
export const LANGUAGE_MODEL_BUILDER_VERSION = 8;

/** The phones of the en-us acoustic model (CMUdict's set without stress marks). */
export const EN_US_PHONES: ReadonlySet<string> = new Set(
  'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(
    ' ',
  ),
);

export interface DomainModelOptions {
  vocabulary: DomainVocabulary;
  /** Folder for built models (created when missing). */
  cacheDir: string;
  /** The caller's version or content hash of the assistant; part of the cache key. */
  version?: string;
  /** CMUdict-format pronunciation dictionary (the model's `cmudict-en-us.dict`). */
  dictionaryPath: string;
  /** Pronunciations for words the dictionary lacks: word → phones (`"medibrief": "M EH D IY B R IY F"`). */
  pronunciations?: Readonly<Record<string, string>>;
  /**
   * Language resources for related-word variants and emergency phrases (default: the built
   * lexicon); null trains on the assistant's own phrases only.
   */
  lexicon?: Lexicon | null;
  /**
   * Sounds out the words the dictionary lacks (and `pronunciations` does not give);
   * without it they are left out of the model (`droppedWords`).
   */
  guesser?: PronunciationGuesser;
}

/** `buildDomainModelOffThread`'s options: the guesser is eSpeak's unless `soundOut` is false. */
export interface OffThreadModelOptions extends Omit<DomainModelOptions, 'guesser'> {
  /** Sound out words the dictionary lacks with eSpeak (default true). */
  soundOut?: boolean;
}

/** Words sounded out in one build at most (a knowledge base has a handful). */
const MAX_SOUNDED_OUT = 500;

export interface DomainModel {
  /** Folder of this build inside the cache. */
  dir: string;
  /** ARPA trigram model. */
  lmPath: string;
  /** Dictionary restricted to the model's words. */
  dictPath: string;
  /** Cache key. */
  hash: string;
  /** True when the model came from the cache. */
  cached: boolean;
  /** Time spent in this call (lookup or build), ms. */
  buildMs: number;
  /** Words of the vocabulary the dictionary does not know, left out of the model. */
  droppedWords: string[];
  /** Words the dictionary does not know, sounded out by the guesser: word → phones. */
  soundedOutWords: Record<string, string>;
  /** Words in the model (without `<s>`/`</s>`). */
  wordCount: number;
  /** Distinct training sentences. */
  sentenceCount: number;
  /** Unigram, bigram and trigram counts. */
  ngramCounts: number[];
  /**
   * Models for the caller's answers to the assistant's questions (intake questions whose
   * kind is recognised, see answers.ts), sharing `dictPath`.
   */
  questionModels: QuestionModel[];
}

export interface QuestionModel {
  /** The question, normalised (`normalizeText`). */
  question: string;
  /** ARPA trigram model. */
  lmPath: string;
  /** Words in the model. */
  wordCount: number;
}

interface Meta {
  builder: number;
  droppedWords: string[];
  soundedOutWords: Record<string, string>;
  wordCount: number;
  sentenceCount: number;
  ngramCounts: number[];
  questions: { question: string; file: string; wordCount: number }[];
}

function normalisePronunciations(
  p: Readonly<Record<string, string>> | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [word, phones] of Object.entries(p ?? {})) {
    const w = normalizeText(word);
    const ph = phones.trim().toUpperCase().replace(/[0-9]/g, '').split(/\s+/);
    if (w === '' || w.includes(' ')) throw new Error(`pronunciation for "${word}": give one word`);
    const bad = ph.filter((x) => !EN_US_PHONES.has(x));
    if (ph.length === 0 || bad.length > 0)
      throw new Error(`pronunciation for "${word}": unknown phones ${bad.join(' ')}`);
    out.set(w, ph.join(' '));
  }
  return out;
}

function readMeta(path: string): Meta | undefined {
  try {
    const meta = JSON.parse(readFileSync(path, 'utf8')) as Meta;
    return meta.builder === LANGUAGE_MODEL_BUILDER_VERSION ? meta : undefined;
  } catch {
    return undefined;
  }
}

function lexiconOf(options: DomainModelOptions): Lexicon | null {
  return options.lexicon === undefined ? Lexicon.default() : options.lexicon;
}

/** The cache key of a vocabulary build (`guesser`: the version of the guesser it uses). */
export function domainModelHash(
  options: Omit<DomainModelOptions, 'guesser'>,
  guesser: string | null,
): string {
  const st = statSync(options.dictionaryPath);
  const key = {
    builder: LANGUAGE_MODEL_BUILDER_VERSION,
    guesser,
    lexicon:
      options.lexicon === undefined ? Lexicon.defaultVersion() : (options.lexicon?.version ?? null),
    version: options.version ?? '',
    sentences: options.vocabulary.sentences.map(normalizeText),
    keywords: options.vocabulary.keywords.map(normalizeText),
    assistantQuestions: (options.vocabulary.assistantQuestions ?? []).map(normalizeText),
    pronunciations: [...normalisePronunciations(options.pronunciations)].sort(),
    dictionary: [options.dictionaryPath, st.size, st.mtimeMs],
  };
  return createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 24);
}

/** Builds the domain model, or answers the cached one. Synchronous; a build takes a fraction of a second. */
export function buildDomainModel(options: DomainModelOptions): DomainModel {
  const started = performance.now();
  const hash = domainModelHash(options, options.guesser?.version ?? null);
  return cachedModel(options.cacheDir, hash, started) ?? buildModel(options, hash, started);
}

/** The model cached under `hash`, if a complete one is there. */
function cachedModel(cacheDir: string, hash: string, started: number): DomainModel | undefined {
  const dir = join(cacheDir, `domain-${hash}`);
  const existing = readMeta(join(dir, 'meta.json'));
  if (existing && existsSync(join(dir, 'domain.lm')) && existsSync(join(dir, 'domain.dict'))) {
    return modelOf(dir, hash, existing, true, started);
  }
  return undefined;
}

function buildModel(options: DomainModelOptions, hash: string, started: number): DomainModel {
  const pronunciations = normalisePronunciations(options.pronunciations);
  const dir = join(options.cacheDir, `domain-${hash}`);
  const metaPath = join(dir, 'meta.json');

  const dict = readDictionary(options.dictionaryPath);
  for (const [w, phones] of pronunciations) dict.set(w, [phones]);

  const lexicon = lexiconOf(options);
  const corpus = expandVocabulary(options.vocabulary, { lexicon });
  const soundedOut: Record<string, string> = {};
  soundOutUnknownWords(corpus, dict, options.guesser, soundedOut);
  const dropped = new Set<string>();
  const training = trainingSentences(corpus, dict, dropped);
  if (training.size === 0)
    throw new Error('domain language model: no sentence has a word the dictionary knows');
  const model = trainKneserNey([...training].map(([s, c]) => [s.split(' '), c] as const));
  const domainWords = modelWordsOf(model);
  const words = new Set(domainWords);

  const questions: { question: string; file: string; wordCount: number; arpa: string }[] = [];
  const questionCorpora = new Map<string, TrainingCorpus | null>();
  for (const question of new Set(
    (options.vocabulary.assistantQuestions ?? []).map(normalizeText).filter(Boolean),
  ))
    questionCorpora.set(question, expandQuestion(question, { lexicon }));
  // The reply engine's own "Do you mean, A, or B?" (see language/clarifying.ts).
  questionCorpora.set(CLARIFYING_QUESTION, expandClarifying(corpus));
  for (const [question, corpus] of questionCorpora) {
    if (corpus === null) continue;
    soundOutUnknownWords(corpus, dict, options.guesser, soundedOut);
    const sentences = trainingSentences(corpus, dict, new Set());
    if (sentences.size === 0) continue;
    const qModel = trainKneserNey([...sentences].map(([s, c]) => [s.split(' '), c] as const));
    const qWords = modelWordsOf(qModel);
    for (const w of qWords) words.add(w);
    questions.push({
      question,
      file: `question-${questions.length + 1}.lm`,
      wordCount: qWords.length,
      arpa: formatArpa(qModel),
    });
  }

  const meta: Meta = {
    builder: LANGUAGE_MODEL_BUILDER_VERSION,
    droppedWords: [...dropped].sort(),
    soundedOutWords: soundedOut,
    wordCount: domainWords.length,
    sentenceCount: training.size,
    ngramCounts: model.ngrams.map((g) => g.size),
    questions: questions.map(({ question, file, wordCount }) => ({ question, file, wordCount })),
  };

  // Write into a private folder, then move it into place: concurrent builders never see
  // half a model, and the first one to finish wins.
  mkdirSync(options.cacheDir, { recursive: true });
  const tmp = join(
    options.cacheDir,
    `.tmp-${hash}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  mkdirSync(tmp);
  try {
    writeFileSync(join(tmp, 'domain.lm'), formatArpa(model));
    // One dictionary for the domain model and the question models: one decoder loads them all.
    writeFileSync(join(tmp, 'domain.dict'), formatDictionary(dict, [...words]));
    for (const q of questions) writeFileSync(join(tmp, q.file), q.arpa);
    writeFileSync(join(tmp, 'corpus.txt'), [...training.keys()].join('\n') + '\n');
    writeFileSync(join(tmp, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
    if (!readMeta(metaPath)) {
      // A stale build (older builder) or a broken folder: replace it.
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
      try {
        renameSync(tmp, dir);
      } catch (err) {
        // Another builder got there first; its model is the same.
        if (!readMeta(metaPath)) throw err;
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return modelOf(dir, hash, meta, false, started);
}

function modelOf(
  dir: string,
  hash: string,
  meta: Meta,
  cached: boolean,
  started: number,
): DomainModel {
  const { questions, builder: _builder, ...counts } = meta;
  return {
    dir,
    lmPath: join(dir, 'domain.lm'),
    dictPath: join(dir, 'domain.dict'),
    hash,
    cached,
    buildMs: performance.now() - started,
    ...counts,
    questionModels: questions.map((q) => ({
      question: q.question,
      lmPath: join(dir, q.file),
      wordCount: q.wordCount,
    })),
  };
}

/**
 * Adds a guessed pronunciation to `dict` for each word of the corpus it lacks, and to
 * `added` (up to {@link MAX_SOUNDED_OUT} words in all).
 */
function soundOutUnknownWords(
  corpus: TrainingCorpus,
  dict: Map<string, string[]>,
  guesser: PronunciationGuesser | undefined,
  added: Record<string, string>,
): void {
  if (guesser === undefined) return;
  let count = Object.keys(added).length;
  for (const [sentence] of corpus) {
    for (const word of sentence.split(' ')) {
      if (word === '' || dict.has(word) || count >= MAX_SOUNDED_OUT) continue;
      const phones = guesser.guess(word);
      if (phones === undefined || !phones.split(' ').every((p) => EN_US_PHONES.has(p))) continue;
      dict.set(word, [phones]);
      added[word] = phones;
      count++;
    }
  }
}

/**
 * A corpus cut to the words the dictionary knows: a sentence with an unknown word is
 * split around it (the unknown words go to `dropped`).
 */
function trainingSentences(
  corpus: TrainingCorpus,
  dict: ReadonlyMap<string, unknown>,
  dropped: Set<string>,
): Map<string, number> {
  const training = new Map<string, number>();
  for (const [sentence, weight] of corpus) {
    let run: string[] = [];
    const flush = () => {
      if (run.length > 0) training.set(run.join(' '), (training.get(run.join(' ')) ?? 0) + weight);
      run = [];
    };
    for (const w of sentence.split(' ')) {
      if (dict.has(w)) run.push(w);
      else {
        dropped.add(w);
        flush();
      }
    }
    flush();
  }
  return training;
}

function modelWordsOf(model: ReturnType<typeof trainKneserNey>): string[] {
  return [...(model.ngrams[0]?.keys() ?? [])].filter((w) => w !== '<s>' && w !== '</s>');
}

/** The compiled worker (absent when running from TypeScript sources, as in unit tests). */
const WORKER_FILE = fileURLToPath(new URL('./build-worker.js', import.meta.url));

/**
 * `buildDomainModel` without blocking the event loop: a cached model is a lookup here; a
 * cold build runs on a worker thread, which loads eSpeak to sound out unknown words
 * (unless `soundOut` is false). Builds in this thread when the worker cannot be used
 * (running from sources, or with a lexicon other than the built one).
 */
export async function buildDomainModelOffThread(
  options: OffThreadModelOptions,
): Promise<DomainModel> {
  const started = performance.now();
  const { soundOut = true, ...rest } = options;
  const hash = domainModelHash(rest, soundOut ? ESPEAK_GUESSER_VERSION : null);
  const cached = cachedModel(options.cacheDir, hash, started);
  if (cached) return cached;
  const custom = rest.lexicon !== undefined && rest.lexicon !== null;
  if (custom || !existsSync(WORKER_FILE)) {
    const guesser = soundOut ? await loadEspeakGuesser() : undefined;
    return buildDomainModel({ ...rest, ...(guesser ? { guesser } : {}) });
  }
  const { lexicon, ...cloneable } = rest;
  const model = await new Promise<DomainModel>((resolve, reject) => {
    const data: BuildWorkerData = { ...cloneable, withLexicon: lexicon !== null, soundOut };
    const worker = new Worker(WORKER_FILE, { workerData: data });
    worker.once('message', (message: { ok: boolean; model?: DomainModel; message?: string }) => {
      if (message.ok && message.model) resolve(message.model);
      else reject(new Error(message.message ?? 'domain language model: the build failed'));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`domain language model: the build worker exited ${code}`));
    });
  });
  return { ...model, buildMs: performance.now() - started };
}

/** What the build worker is given (see build-worker.ts). */
export interface BuildWorkerData extends Omit<DomainModelOptions, 'lexicon' | 'guesser'> {
  /** The built lexicon (true) or none (false). */
  withLexicon: boolean;
  /** Load eSpeak to sound out unknown words. */
  soundOut: boolean;
}
