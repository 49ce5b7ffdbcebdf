import type { KnowledgeEntry } from '@talkbooth/protocol';
import { Lexicon } from '../../language/lexicon.js';
import { numberToWords } from '../../stt/language-model/normalize.js';
import { Bm25Index, type Bm25Options } from './bm25.js';
import { askedPlainly } from './question-forms.js';
import { MeaningIndex } from './semantic/meaning-index.js';
import type { SentenceEncoder } from './semantic/sentence-encoder.js';
import {
  contentTerms,
  editDistance,
  normalize,
  STOP_WORDS,
  stem,
  stripFillers,
  words,
} from './text.js';

/**
 * Ranked retrieval over an assistant's knowledge base. Each entry is one BM25 document made
 * of its questions (weight 1) and its answer (weight {@link ANSWER_WEIGHT}); a query's score
 * is turned into a 0–1 confidence by dividing it by what the query would score if each of
 * its terms occurred once in the questions of an average entry. Words the knowledge base
 * has never seen count against the confidence, so "what is the weather like" matches
 * nothing while "what are you're opening hours" still finds the hours.
 */

/**
 * Confidence thresholds (0–1), tuned on the demo clinic (knowledge.test.ts): its dev
 * phrasings score 0.74–1, misheard variants 0.49 (urgent) to 1, and off-topic lines and
 * brief answers at most 0.49, from a single shared word.
 */
export interface RetrievalThresholds {
  /** At or above: answer with the entry. */
  answer: number;
  /** At or above (and below `answer`): ask whether the caller meant the closest entry. */
  clarify: number;
  /** Urgent entries are matched first, at or above this lower threshold. */
  urgent: number;
}

export const DEFAULT_THRESHOLDS: Readonly<RetrievalThresholds> = {
  answer: 0.55,
  clarify: 0.3,
  urgent: 0.45,
};

/** How much an answer's word counts next to a question's. */
export const ANSWER_WEIGHT = 0.4;
/**
 * Below this closeness in meaning a thing the caller names is only loosely related to a
 * word of the entries (a kind of it, a word near it in use), not another way to say it
 * (see `looselyInAnswers`). Set on the team's own callers' lines: on recorded readings in
 * five voices, 4 fewer of 320 off-topic lines told a fact and no question answered less;
 * with synonyms counted as loose too (a "spot" for a "place"), 4 fewer right answers.
 */
const LOOSE_MEANING = 0.8;
/** How much a near-miss word (one or two letters off a known word) counts. */
const FUZZY_WEIGHT = 0.8;
/**
 * A word the knowledge base does not use counts for the entry word closest in meaning (a
 * synonym, a derived form, an embedding neighbour: see {@link Lexicon.similarity}) when the
 * two are at least this similar, weighted by the similarity.
 */
const MIN_MEANING_SIMILARITY = 0.3;
/** {@link Lexicon.similarity} of two forms of one word ("cancelled", "cancel"). */
const SAME_WORD = 1;
/**
 * How much a word that sounds like one of the questions' words counts ("barking" heard for
 * "parking"): a recogniser's slip, less sure than one of spelling.
 */
const SOUND_WEIGHT = 0.7;
/** The fewest phones a word needs before one phone off means a slip, not another word. */
const SOUND_MIN_PHONES = 4;
/** From this many phones, two phones off still sound alike. */
const SOUND_LONG_PHONES = 7;
/** The shortest caller word taken for the last part of a compound ("chip", "ache"). */
const COMPOUND_HEAD = 4;
/** The shortest first part of such a compound ("micro", "tooth"; not "s" + "hip"). */
const COMPOUND_MODIFIER = 3;
/** Entry words one caller word may stand for ("schedule" → "book", "plan"…). */
const MAX_MEANINGS = 3;
/** The best entry's score over the next one's at which it is answered without a doubt. */
const CLEAR_LEAD = 1.4;
/**
 * The least confidence at which a word naming one entry's topic answers it (the caller's
 * other words, known to the knowledge base but not this entry, weigh against it).
 */
const MIN_TOPIC_CONFIDENCE = 0.2;
/** Below this lead the two entries are a close race: the caller is asked which one. */
const CLOSE_RACE = 1.2;
/**
 * Question words kept as terms because they tell topics apart ("where" vs "when"), but too
 * common to make a match firm on their own.
 */
const WEAK_TERMS: ReadonlySet<string> = new Set(['wher', 'when', 'much', 'long']);
/** Number words: facts inside answers, never a topic a caller's other words could mean. */
const NUMBER_WORDS: ReadonlySet<string> = new Set(
  Array.from({ length: 101 }, (_, n) => numberToWords(n).split(' ')).flat(),
);
/**
 * What an unknown word costs, as a share of a rare known word's reference score. Lower is
 * more forgiving of recogniser noise; higher makes off-topic questions fail sooner.
 */
const UNKNOWN_WORD_COST = 0.75;
/**
 * The confidence reference: a query term scores "fully" when it occurs this often in an
 * entry of average length (in two of its questions, or one question and the answer…).
 */
const REFERENCE_TF = 2;

const DEFAULT_BM25: Required<Bm25Options> = { k1: 1.2, b: 0.5 };

/**
 * Sentence meaning (see {@link MeaningIndex}) answers what the words alone were unsure of:
 * the closest entry in meaning at or above {@link MEANING_ANSWER}, ahead of the next by
 * {@link MEANING_LEAD}, when the words point to it too. Set on the team's own callers'
 * lines (src/reply/testing/own-lines.json), never on the benchmark's: there, the right
 * entry was the closest in meaning at 0.47–0.84, off-topic questions at 0.33–0.66, and
 * every wrong entry the closest by less than 0.1 but two ("drugstore" taken for parking,
 * a bank's opening time for the clinic's). A fact is never told on meaning alone when the
 * caller said a word the knowledge base lacks: when the words find nothing to offer, the
 * caller is asked whether the entry is meant (but see {@link FUSED_ANSWER}).
 */
export const MEANING_ANSWER = 0.5;
export const MEANING_LEAD = 0.1;
/**
 * The lead in meaning that settles what the words left open: a tie between two entries
 * that both fit the caller's words, or an entry the words would ask about on a word of its
 * questions the caller said themselves, every other word being known to the knowledge base
 * ("my prescription is about to run out"). The words have already ruled out every other
 * entry, so less of a margin is needed than for meaning alone. (Not when the caller also
 * says something nobody wrote about: "is the doctor nice" shares one word with the booking
 * entry, and is close to it in meaning for that word alone; unless that is one word beside
 * a word only this entry's questions use: "the price of flea tablets".)
 */
export const MEANING_TIE_LEAD = 0.03;

/**
 * When neither the words nor meaning alone are sure, the two together may be: each entry
 * scores its words' confidence plus {@link FUSED_MEANING_WEIGHT} times its closeness in
 * meaning, and the best is answered at {@link FUSED_ANSWER} or more, ahead of the next by
 * {@link FUSED_LEAD} and close in meaning at {@link FUSED_MIN_MEANING} or more, when every
 * word the caller said is one the knowledge base knows (in spelling, meaning or sound) and
 * no thing is named that it never mentions: then there is nothing else the caller could
 * be asking about. Set on the team's own callers' lines
 * (src/reply/testing/own-lines.json), never on the benchmark's: it answers seven more of
 * their 92 questions ("do i need to bring shorts", "a screw fell out of my specs"), one
 * wrongly ("i want to call off my treatment": nothing says "call off" is "cancel"), and
 * none of their 64 off-topic lines. The best entry of the two signals together is the
 * right one for 83 % of those questions, against 72 % by the words and 70 % by meaning.
 * Spoken in five voices and read by the product's recogniser (bench/lib/offline-own-lines),
 * their questions got 224 right answers of 460 instead of 197, and 61 wrong instead of 56;
 * but 62 of their 320 off-topic lines a fact instead of 54: a misheard line can be made of
 * the knowledge base's words alone, and then nothing here tells it apart.
 */
export const FUSED_MEANING_WEIGHT = 2;
export const FUSED_ANSWER = 1;
export const FUSED_LEAD = 0.2;
/**
 * Together means both: the entry's closeness in meaning must itself reach this. Misheard
 * off-topic lines made of the entries' words alone scored their 1 with weak words and
 * weak meaning (a sum asked aloud, its numbers heard as "too close to", took the opening
 * hours at 0.37 in words and 0.36 in meaning, the fourth entry by meaning). On recorded
 * readings of our own lines in five voices: 3 fewer off-topic lines told a fact, 3 fewer
 * questions answered right, none more wrong.
 */
export const FUSED_MIN_MEANING = 0.4;
/**
 * How close in meaning both of two entries in a close race must be for the caller to be
 * asked which (see `twoInTheRunning`): as close as {@link FUSED_MIN_MEANING} asks of one.
 */
export const RACE_MIN_MEANING = FUSED_MIN_MEANING;

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  /** 0–1. */
  confidence: number;
  /** Raw BM25 score. */
  score: number;
  /** Whether a word of the query is in one of the entry's questions (not only its answer). */
  inQuestions: boolean;
  /**
   * Whether a word the caller said is itself (or a near-miss spelling of) a word of the
   * entry's questions, rather than only related to one in meaning.
   */
  firmInQuestions: boolean;
  /** How many of the caller's words found a term in this entry. */
  matchedWords: number;
  /** How many of the caller's words have a term (not a {@link WEAK_TERMS} one) in the entry's questions. */
  questionWords: number;
  /**
   * How many of the caller's words support this entry: a word with a term in the entry's
   * questions, or the caller's own word (not only a related one) in its answer.
   */
  supportWords: number;
  /** Whether a firm term (see `firmInQuestions`) is anywhere in the entry, answer included. */
  firm: boolean;
  /**
   * How many of the caller's own words (not a {@link WEAK_TERMS} one) are in this entry's
   * questions and nowhere else in the knowledge base: words that name this entry's topic.
   */
  distinctWords: number;
  /**
   * The caller's words the knowledge base has no term for, other than light words ("come",
   * "back", "around"): a thing or a quality nobody wrote about may be what is asked.
   */
  unknownContentWords: number;
  /** How many of those name a thing ({@link Lexicon.isThing}: "tablets", not "nice"). */
  unknownThings: number;
  /**
   * How many of the caller's words point only to other entries: with no term in this one,
   * and their own word in another entry, or a related word in another entry's questions.
   */
  otherTopicWords: number;
}

export type Retrieval =
  /** `together`: neither the words nor meaning alone were sure, the two together were. */
  | { kind: 'answer'; match: KnowledgeMatch; together?: true }
  /** `byMeaning`: the words found nothing to offer, but the sentence means this entry. */
  | { kind: 'clarify'; match: KnowledgeMatch; byMeaning?: true }
  /** Two entries fit about equally: ask which one. */
  | { kind: 'choose'; matches: [KnowledgeMatch, KnowledgeMatch] }
  | { kind: 'none'; closest?: KnowledgeMatch };

export interface KnowledgeBaseOptions {
  thresholds?: Partial<RetrievalThresholds>;
  bm25?: Bm25Options;
  /** Word meanings for words the entries do not use (default: the built lexicon). */
  lexicon?: Lexicon;
  /**
   * Sentence meanings (the reply engine passes the process's encoder). Without one, or
   * for a sentence not prepared (`prepare`), retrieval goes by words alone.
   */
  encoder?: SentenceEncoder;
}

/** An analysed query: term → weight, each word's terms, and the words nothing matched. */
export interface AnalysedQuery {
  terms: Map<string, number>;
  /** Terms the caller said themselves (or a near-miss spelling of), not only in meaning. */
  firm: Set<string>;
  /** For each word that matched, the terms it stands for and their weights. */
  words: Map<string, number>[];
  /** For each word that matched (same order), the terms it is itself or nearly spells. */
  firmWords: Set<string>[];
  /** Terms of the words nothing matched. */
  unknown: string[];
  /** The words nothing matched, as the caller said them. */
  unknownWords: string[];
  /**
   * Things or places the caller names that the knowledge base has no word for, in meaning
   * or spelling, or that is only a kind of one of its words ("a hotel", where the entries
   * say "building"; "the library", where they say "changing room"), or only loosely
   * related to a word of their answers ("the bank", where an address says "riverside"): a
   * word the lexicon knows as a thing ({@link Lexicon.isThing}), after an article ("the
   * library", "a taxi to the station", "the swimming pool"), that is not just saying which
   * of the entries' own things is meant ("a car park").
   */
  namedThings: string[];
}

/** Words that make the noun after them a thing named: "the library", "a taxi". */
const ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an']);
/** How many words (an adjective, a modifier) may stand between the article and the noun. */
const ARTICLE_REACH = 2;

export class KnowledgeBase {
  readonly thresholds: RetrievalThresholds;
  private readonly entries: KnowledgeEntry[];
  private readonly index: Bm25Index<number>;
  private readonly vocabulary: string[];
  private readonly questionTerms: Set<string>[];
  /** Each entry's terms, questions and answer. */
  private readonly entryTerms: Set<string>[];
  private readonly unknownCost: number;
  private readonly lexicon: Lexicon;
  /** Index term → the entries' words it came from ("park" ← "park", "parking"). */
  private readonly surfaceWords = new Map<string, Set<string>>();
  /** The entries' question words made of a shorter word and the caller's ("microchip"), → term. */
  private readonly questionCompounds = new Map<string, string>();
  /** The entries' question words as the recogniser's dictionary says them, with their term. */
  private readonly questionSounds: { word: string; sounds: string; term: string }[] = [];
  private readonly meaningCache = new Map<string, { term: string; similarity: number }[]>();
  private readonly meaning: MeaningIndex | undefined;

  constructor(entries: readonly KnowledgeEntry[], options: KnowledgeBaseOptions = {}) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
    this.entries = [...entries];
    this.lexicon = options.lexicon ?? Lexicon.default();
    this.index = new Bm25Index<number>({ ...DEFAULT_BM25, ...options.bm25 });
    for (const entry of this.entries) {
      for (const w of words([...entry.questions, entry.answer].join(' '))) {
        if (STOP_WORDS.has(w) || NUMBER_WORDS.has(w)) continue;
        const term = stem(w);
        let set = this.surfaceWords.get(term);
        if (set === undefined) this.surfaceWords.set(term, (set = new Set()));
        set.add(w);
      }
    }
    for (const w of words(this.entries.flatMap((e) => e.questions).join(' '))) {
      if (STOP_WORDS.has(w)) continue;
      if (w.length >= COMPOUND_HEAD + COMPOUND_MODIFIER) {
        this.questionCompounds.set(w, stem(w));
      }
      const sounds = this.lexicon.sounds(w);
      if (sounds !== undefined && sounds.length >= SOUND_MIN_PHONES) {
        if (!this.questionSounds.some((q) => q.word === w)) {
          this.questionSounds.push({ word: w, sounds, term: stem(w) });
        }
      }
    }
    this.questionTerms = this.entries.map((entry, i) => {
      const questionTerms = entry.questions.flatMap((q) => termsOf(q));
      this.index.add(i, [
        { terms: questionTerms, weight: 1 },
        // Each answer word once: "five five five, one two three four" is one phone number.
        { terms: [...new Set(termsOf(entry.answer))], weight: ANSWER_WEIGHT },
      ]);
      return new Set(questionTerms);
    });
    this.entryTerms = this.entries.map(
      (entry, i) => new Set([...(this.questionTerms[i] ?? []), ...termsOf(entry.answer)]),
    );
    this.vocabulary = [...this.index.vocabulary()];
    // A word seen in exactly one entry: the rarest a known word can be.
    const rareIdf = Math.log(1 + (this.index.size - 1 + 0.5) / 1.5);
    this.unknownCost = UNKNOWN_WORD_COST * rareIdf;
    this.meaning =
      options.encoder === undefined
        ? undefined
        : new MeaningIndex(this.entries, options.encoder, (t) => stripFillers(normalize(t)));
  }

  /**
   * Readies the meaning of these sentences (each as the dialog passes it: normalised,
   * fillers stripped), so `retrieve` can weigh it. Does nothing without an encoder.
   */
  prepare(sentences: readonly string[]): Promise<void> {
    return this.meaning?.prepare(sentences) ?? Promise.resolve();
  }

  get size(): number {
    return this.entries.length;
  }

  /** The entry with this id. */
  get(id: string): KnowledgeEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /**
   * The caller's words as weighted index terms: a word the entries use counts fully, a
   * near-miss spelling (a recogniser slip) or the last part of a question's compound
   * ("chip" for "microchip") as {@link FUZZY_WEIGHT}, and a word they do not use for each of
   * the (up to {@link MAX_MEANINGS}) entry words closest to it in meaning, weighted by the
   * similarity; failing all these, for the one question word it sounds like
   * ({@link soundsLike}), as {@link SOUND_WEIGHT}.
   */
  analyse(text: string): AnalysedQuery {
    const said = words(text);
    // Idioms read as the question word they stand for ("how late" → "when late"), which
    // the caller did not say themselves.
    const asked = words(askedPlainly(said.join(' ')));
    const ws = this.joinPhrases(joinCompounds(asked, (t) => this.index.has(t)));
    const terms = new Map<string, number>();
    const perWord: Map<string, number>[] = [];
    const firmWords: Set<string>[] = [];
    const firm = new Set<string>();
    const unknown: string[] = [];
    const unknownWords: string[] = [];
    /** Things that are only kinds of the entries' things ("hotel", where they say "building"). */
    const otherKinds: string[] = [];
    for (const w of ws) {
      if (STOP_WORDS.has(w)) continue;
      const term = stem(w);
      // A question word ("when") the entries never use costs no confidence: it is no topic
      // nobody wrote about ("when do you close", where the entry asks "what are your opening
      // hours"), nor a thing or quality that might be what is asked. Said by the caller, it
      // is still a word the knowledge base does not know, for the rule that wants every word
      // known (`fusedEntry`).
      if (WEAK_TERMS.has(term) && !this.index.has(term)) {
        if (said.includes(w)) unknownWords.push(w);
        continue;
      }
      const mine = new Map<string, number>();
      const mineFirm = new Set<string>();
      if (this.index.has(term)) {
        mine.set(term, 1);
        mineFirm.add(term);
      } else {
        for (const meant of this.closestInMeaning(w)) {
          mine.set(meant.term, meant.similarity);
          // The same word in another form ("cancelled" for "cancel"): the caller's own word.
          if (meant.similarity >= SAME_WORD) mineFirm.add(meant.term);
        }
        // A light word ("around", "back") is what the caller said, not a slip for a word one
        // letter off ("ground"): it says nothing of a topic. Nor is a word that means one of
        // the entries' words itself ("charge", the price: not a slip for "change").
        const near = this.lexicon.isLight(w) || mine.size > 0 ? undefined : this.nearest(term);
        if (near !== undefined) {
          mine.set(near, Math.max(mine.get(near) ?? 0, FUZZY_WEIGHT));
          mineFirm.add(near);
        }
      }
      // "chip" for a question's "microchip": a compound names a kind of its last word.
      for (const compound of this.compoundsOf(w)) {
        mine.set(compound, Math.max(mine.get(compound) ?? 0, FUZZY_WEIGHT));
        mineFirm.add(compound);
      }
      // Nothing in spelling or meaning: a word that sounds like one question word alone may
      // be the recogniser's slip for it ("barking" for "parking").
      const heard = mine.size === 0 ? this.soundsLike(w) : undefined;
      if (heard !== undefined) {
        mine.set(heard, SOUND_WEIGHT);
        mineFirm.add(heard);
      }
      if (mine.size === 0) {
        if (!unknown.includes(term)) unknown.push(term);
        unknownWords.push(w);
        continue;
      }
      if (
        mineFirm.size === 0 &&
        this.isThing(w) &&
        (this.anotherKind(w) || this.looselyInAnswers(w, mine))
      ) {
        otherKinds.push(w);
      }
      for (const t of mineFirm) firm.add(t);
      perWord.push(mine);
      firmWords.push(mineFirm);
      for (const [t, weight] of mine) terms.set(t, Math.max(terms.get(t) ?? 0, weight));
    }
    const isThing = (w: string) => this.isThing(w);
    // A noun before one of the entries' own things only says which one ("a car park").
    const modifies = (next: string | undefined) =>
      next !== undefined && this.index.has(stem(next)) && isThing(next);
    const namedThings = ws.filter(
      (w, i) =>
        (unknownWords.includes(w) || otherKinds.includes(w)) &&
        isThing(w) &&
        !modifies(ws[i + 1]) &&
        ws.slice(Math.max(0, i - 1 - ARTICLE_REACH), i).some((before) => ARTICLES.has(before)),
    );
    return { terms, firm, words: perWord, firmWords, unknown, unknownWords, namedThings };
  }

  /** All entries that share a term with the text, best first, with their confidence. */
  rank(text: string, filter?: (entry: KnowledgeEntry) => boolean): KnowledgeMatch[] {
    const {
      terms,
      firm: firmTerms,
      words: perWord,
      firmWords: firmPerWord,
      unknown,
      unknownWords,
    } = this.analyse(text);
    if (terms.size === 0) return [];
    // Each word counts once in the reference, by its strongest reading, and in full: a word
    // that only means something close to an entry's word scores a share of what the word
    // itself would, so "dentist" is not as sure a match for "doctor" as "doctor" is.
    let reference = unknown.length * this.unknownCost;
    for (const mine of perWord) {
      let best = 0;
      for (const [term, weight] of mine) {
        const full = weight >= FUZZY_WEIGHT ? weight : 1;
        best = Math.max(best, full * this.index.reference(term, REFERENCE_TF));
      }
      reference += best;
    }
    const firm = [...firmTerms].filter((term) => !WEAK_TERMS.has(term));
    const unknownContent = unknownWords.filter(
      (w) => !this.lexicon.isLight(w) && !WEAK_TERMS.has(stem(w)),
    );
    const unknownContentWords = unknownContent.length;
    const unknownThings = unknownContent.filter((w) => this.isThing(w)).length;
    const hits = this.index.search(terms, filter && ((i) => filter(this.entryAt(i))));
    return hits.map((hit) => ({
      entry: this.entryAt(hit.id),
      score: hit.score,
      confidence: Math.min(1, hit.score / reference),
      inQuestions: [...terms.keys()].some((t) => this.questionTerms[hit.id]?.has(t) === true),
      firmInQuestions: firm.some((t) => this.questionTerms[hit.id]?.has(t) === true),
      firm: firm.some((t) => this.entryTerms[hit.id]?.has(t) === true),
      distinctWords: firmPerWord.filter((mine) =>
        [...mine].some(
          (t) =>
            !WEAK_TERMS.has(t) &&
            this.questionTerms[hit.id]?.has(t) === true &&
            this.entryTerms.every((terms, i) => i === hit.id || !terms.has(t)),
        ),
      ).length,
      unknownContentWords,
      unknownThings,
      otherTopicWords: perWord.filter(
        (mine, w) =>
          ![...mine.keys()].some((t) => this.entryTerms[hit.id]?.has(t) === true) &&
          [...mine.keys()].some(
            (t) =>
              !WEAK_TERMS.has(t) &&
              this.entryTerms.some(
                (terms, i) =>
                  i !== hit.id &&
                  (firmPerWord[w]?.has(t) === true
                    ? terms.has(t)
                    : this.questionTerms[i]?.has(t) === true),
              ),
          ),
      ).length,
      matchedWords: perWord.filter((mine) =>
        [...mine.keys()].some((t) => this.entryTerms[hit.id]?.has(t) === true),
      ).length,
      questionWords: perWord.filter((mine) =>
        [...mine.keys()].some(
          (t) => !WEAK_TERMS.has(t) && this.questionTerms[hit.id]?.has(t) === true,
        ),
      ).length,
      supportWords: perWord.filter((mine, w) =>
        [...mine.keys()].some(
          (t) =>
            this.questionTerms[hit.id]?.has(t) === true ||
            (firmPerWord[w]?.has(t) === true && this.entryTerms[hit.id]?.has(t) === true),
        ),
      ).length,
    }));
  }

  /**
   * The best urgent entry at or above the urgent threshold, if any, on a word of its own:
   * related words alone ("bone" for "tooth") do not raise an alarm (the emergency phrases
   * catch what callers say in other words).
   */
  urgent(text: string): KnowledgeMatch | undefined {
    const ranked = this.rank(text);
    const best = ranked.find((m) => m.entry.urgent === true);
    if (!best || !best.firm || best.confidence < this.thresholds.urgent) return undefined;
    // An ordinary entry that fits the words about as well (in a close race, or better) is
    // what they are about ("i would like to get my eyes tested" at an optician whose urgent
    // entry is about chemicals in the eye; "… about my tooth" at a dental practice whose
    // urgent entry and toothache entry both say "tooth"), unless the caller said a word
    // only the urgent entry uses.
    const ordinary = ranked.find((m) => m.entry.urgent !== true);
    if (
      ordinary !== undefined &&
      ordinary.score * CLOSE_RACE >= best.score &&
      best.distinctWords === 0
    ) {
      return undefined;
    }
    return best;
  }

  /**
   * What to do with the caller's words. By the words first, as below; when they give no
   * sure answer and the sentence was prepared (`prepare`), its meaning decides (see
   * {@link MEANING_ANSWER}). By the words:
   *   - answer: the best entry is sure (confidence ≥ `answer`) through a word of its
   *     questions that is not only a question word ("when"); or likely (≥ `clarify`), well
   *     ahead of the next ({@link CLEAR_LEAD}) on the caller's own word in its questions,
   *     and supported by two or more of the caller's words (a word of its questions, or
   *     the caller's own word in its answer: a merely related word of the answer is not
   *     enough); or named by a word only its questions use, every other word of the
   *     caller's being a light word or one of the entry's, and well ahead of the next;
   *   - choose: two entries fit about equally ({@link CLOSE_RACE}): ask which (so too when
   *     the words are unsure of either and meaning puts the same two first:
   *     `twoInTheRunning`);
   *   - clarify: the best entry is likely but not sure: ask whether it is meant;
   *   - none: nothing fits, or only through words related in meaning (never enough alone to
   *     put a clinic fact to an off-topic question).
   * An answer to a question that names a thing the knowledge base never mentions
   * (`namedThings`) is asked about instead, unless the entry is urgent.
   */
  retrieve(text: string): Retrieval {
    const found = this.retrieveAny(text);
    // "When does the library open?": the caller names a thing the knowledge base never
    // mentions, so the question may be about that thing, not the business. Asked, not told.
    // An urgent entry is answered whatever else is named ("the dog ate a chocolate bar").
    if (
      found.kind === 'answer' &&
      found.match.entry.urgent !== true &&
      this.analyse(text).namedThings.length > 0
    ) {
      return { kind: 'clarify', match: found.match };
    }
    return found;
  }

  /** {@link retrieve} before the named-thing check. */
  private retrieveAny(text: string): Retrieval {
    // The words' ranking, once: each step below weighs it.
    const ranked = this.rank(text);
    const byWords = this.retrieveByWords(ranked);
    if (byWords.kind === 'answer') return byWords;
    const meant = this.meantEntry(text, byWords, ranked);
    if (meant?.supported === true) return { kind: 'answer', match: meant.match };
    // Two entries the words found about equally are the caller's to choose between.
    const together = byWords.kind === 'choose' ? undefined : this.fusedEntry(text, ranked);
    if (together !== undefined) return { kind: 'answer', match: together, together: true };
    const race = byWords.kind === 'none' ? this.twoInTheRunning(text, ranked) : undefined;
    if (race !== undefined) return { kind: 'choose', matches: race };
    if (meant === undefined) return byWords;
    // The words found no entry they could offer, but the sentence means this one: ask.
    return byWords.kind === 'none'
      ? { kind: 'clarify', match: meant.match, byMeaning: true }
      : byWords;
  }

  /**
   * The entry the sentence means: the closest in meaning at or above
   * {@link MEANING_ANSWER}, ahead of the next by {@link MEANING_LEAD}, or by
   * {@link MEANING_TIE_LEAD} when it is one of the two entries the words could not choose
   * between, or the one they would ask about on the caller's own word. `supported` when
   * the words point to it too: one of those, their own best match, or an entry two or more
   * of the caller's words found, with no word the knowledge base lacks.
   * Never an urgent entry: emergencies have their own path, and an ordinary question close
   * in meaning to one must not get the emergency answer.
   */
  private meantEntry(
    text: string,
    byWords: Retrieval,
    byWord: readonly KnowledgeMatch[],
  ): { match: KnowledgeMatch; supported: boolean } | undefined {
    const ranked = this.meaning?.rank(text)?.filter((m) => this.entryAt(m.entry).urgent !== true);
    const [first, second] = ranked ?? [];
    if (first === undefined || first.similarity < MEANING_ANSWER) return undefined;
    const lead = first.similarity - (second?.similarity ?? 0);
    if (lead < MEANING_TIE_LEAD) return undefined;
    const entry = this.entryAt(first.entry);
    // The words narrowed it down to two entries, this one among them: meaning breaks the tie,
    // unless the other has more words only its own questions use ("how much is a booster
    // for my dog": "booster" names the vaccinations, while the price of neutering only sounds
    // like the sentence). Then the caller is asked.
    if (byWords.kind === 'choose') {
      const offered = byWords.matches.find((m) => m.entry === entry);
      const rival = byWords.matches.find((m) => m.entry !== entry);
      if (offered !== undefined) {
        const named = rival !== undefined && rival.distinctWords > offered.distinctWords;
        return named ? undefined : { match: offered, supported: true };
      }
    }
    // The words would ask about this entry, on a word of its questions the caller said
    // themselves, with no word the knowledge base lacks (which might be what is asked: "is
    // the doctor nice"), or with one beside a word that names this entry's topic alone
    // ("the price of flea tablets"): meaning agreeing is the second, independent voice
    // that settles it.
    if (
      byWords.kind === 'clarify' &&
      byWords.match.entry === entry &&
      byWords.match.firmInQuestions &&
      (byWords.match.unknownContentWords === 0 || namesTopicAmidOneUnknown(byWords.match))
    ) {
      return { match: byWords.match, supported: true };
    }
    if (lead < MEANING_LEAD) return undefined;
    if (byWord[0]?.entry === entry) return { match: byWord[0], supported: true };
    // Not the words' first, but found by two or more of the caller's words, with none the
    // knowledge base lacks: the words are split between two topics ("will my insurer pay
    // for this": "pay" is a word of the fees, "insurer" of insurance), and the sentence
    // clearly means this one.
    const found = byWord.find((m) => m.entry === entry);
    if (found !== undefined && found.supportWords >= 2 && found.unknownContentWords === 0) {
      return { match: found, supported: true };
    }
    return { match: meaningOnly(entry, first.similarity), supported: false };
  }

  /**
   * The entry the words and meaning point to together (see {@link FUSED_ANSWER}), when the
   * caller said no word the knowledge base lacks and named no thing it never mentions.
   * Never an urgent entry (emergencies have their own path).
   */
  private fusedEntry(text: string, byWords: readonly KnowledgeMatch[]): KnowledgeMatch | undefined {
    const meanings = this.meaning?.rank(text);
    if (meanings === undefined) return undefined;
    const { unknownWords, namedThings } = this.analyse(text);
    if (unknownWords.length > 0 || namedThings.length > 0) return undefined;
    const scored = meanings
      .filter((m) => this.entryAt(m.entry).urgent !== true)
      .map((m) => {
        const entry = this.entryAt(m.entry);
        const words = byWords.find((w) => w.entry === entry);
        const score = (words?.confidence ?? 0) + FUSED_MEANING_WEIGHT * m.similarity;
        return { match: words ?? meaningOnly(entry, m.similarity), score, meaning: m.similarity };
      })
      .sort((a, b) => b.score - a.score);
    const [first, second] = scored;
    if (first === undefined || first.score < FUSED_ANSWER) return undefined;
    if (first.score - (second?.score ?? 0) < FUSED_LEAD) return undefined;
    if (first.meaning < FUSED_MIN_MEANING) return undefined;
    return first.match;
  }

  /**
   * The two entries the caller's words and the sentence's meaning both put first, when
   * neither is sure of either: each entry is found through a word of its questions (the
   * caller's, or one related to it), every word the caller said is one the knowledge base
   * knows and no other thing is named, and
   * both are close in meaning ({@link RACE_MIN_MEANING}). A caller asking whether a child
   * pays, at a practice with an entry on children and one on payments, fits both about as
   * well: the caller is asked which, rather than told neither. The entry meaning puts first
   * is offered first.
   */
  private twoInTheRunning(
    text: string,
    byWords: readonly KnowledgeMatch[],
  ): [KnowledgeMatch, KnowledgeMatch] | undefined {
    const words = byWords.filter((m) => m.entry.urgent !== true).slice(0, 2);
    const [a, b] = words;
    if (a === undefined || b === undefined || !a.inQuestions || !b.inQuestions) return undefined;
    if (a.unknownContentWords > 0) return undefined;
    const meanings = this.meaning?.rank(text)?.filter((m) => this.entryAt(m.entry).urgent !== true);
    const [first, second] = meanings ?? [];
    if (first === undefined || second === undefined || second.similarity < RACE_MIN_MEANING) {
      return undefined;
    }
    const pair = new Set([this.entryAt(first.entry), this.entryAt(second.entry)]);
    if (!pair.has(a.entry) || !pair.has(b.entry)) return undefined;
    if (this.analyse(text).namedThings.length > 0) return undefined;
    return a.entry === this.entryAt(first.entry) ? [a, b] : [b, a];
  }

  /** {@link retrieve} by the caller's words alone, given their ranking ({@link rank}). */
  private retrieveByWords(ranked: readonly KnowledgeMatch[]): Retrieval {
    const [best, second] = ranked;
    if (!best) return { kind: 'none' };
    const { answer, clarify } = this.thresholds;
    const lead = second === undefined ? Infinity : best.score / second.score;
    // A match on the answer's words alone is never sure enough to answer outright, nor one
    // on question words too common to tell a topic ("when", "where") alone.
    const grounded = best.questionWords >= 1;
    if (grounded && best.confidence >= answer && lead >= CLOSE_RACE) {
      return { kind: 'answer', match: best };
    }
    if (!best.firm && best.confidence < answer) return { kind: 'none', closest: best };
    if (
      best.firmInQuestions &&
      best.confidence >= clarify &&
      lead >= CLEAR_LEAD &&
      best.supportWords >= 2
    ) {
      return { kind: 'answer', match: best };
    }
    // A word only this entry's questions use names its topic: asked about with no other
    // thing named ("are my results back again"), the entry is meant.
    if (
      best.distinctWords >= 1 &&
      best.unknownContentWords === 0 &&
      best.otherTopicWords === 0 &&
      best.confidence >= MIN_TOPIC_CONFIDENCE &&
      lead >= CLEAR_LEAD
    ) {
      return { kind: 'answer', match: best };
    }
    if (
      second !== undefined &&
      lead < CLOSE_RACE &&
      second.confidence >= clarify &&
      second.inQuestions
    ) {
      return { kind: 'choose', matches: [best, second] };
    }
    if (best.confidence >= clarify) return { kind: 'clarify', match: best };
    return { kind: 'none', closest: best };
  }

  /**
   * The term of the one question word the caller's word sounds like: a phone off (two for
   * words of {@link SOUND_LONG_PHONES} phones or more), in words of
   * {@link SOUND_MIN_PHONES} phones or more, never a light word. None when it sounds like
   * question words of two different terms: then it is no clue which was meant.
   */
  soundsLike(word: string): string | undefined {
    if (this.lexicon.isLight(word)) return undefined;
    const sounds = this.lexicon.sounds(word);
    if (sounds === undefined || sounds.length < SOUND_MIN_PHONES) return undefined;
    const max = sounds.length >= SOUND_LONG_PHONES ? 2 : 1;
    const terms = new Set<string>();
    for (const q of this.questionSounds) {
      if (q.word === word || Math.abs(q.sounds.length - sounds.length) > max) continue;
      if (editDistance(sounds, q.sounds, max) <= max) terms.add(q.term);
    }
    return terms.size === 1 ? [...terms][0] : undefined;
  }

  /**
   * Terms of the entries' question words that end in the caller's word (or its lemma) after
   * a modifier of {@link COMPOUND_MODIFIER} letters or more: "chip" → "microchip",
   * "ache" → "toothache". English compounds name a kind of their last word.
   */
  private compoundsOf(word: string): string[] {
    if (word.length < COMPOUND_HEAD || this.lexicon.isLight(word)) return [];
    const heads = new Set([word, this.lexicon.lemma(word)]);
    const found: string[] = [];
    for (const [compound, term] of this.questionCompounds) {
      for (const head of heads) {
        if (compound.length - head.length >= COMPOUND_MODIFIER && compound.endsWith(head)) {
          found.push(term);
          break;
        }
      }
    }
    return found;
  }

  /**
   * Phrasal verbs as one word ("call off" → "call_off", which means "cancel"), when the
   * phrase means one of the entries' words and the verb alone is not a word of their
   * questions: "call" and "off" apart say nothing of what "call off" does.
   */
  private joinPhrases(ws: readonly string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < ws.length; i++) {
      const verb = ws[i] ?? '';
      const particle = ws[i + 1];
      const phrase = particle === undefined ? undefined : this.lexicon.phrase(verb, particle);
      if (
        phrase !== undefined &&
        !this.questionTerms.some((terms) => terms.has(stem(verb))) &&
        this.closestInMeaning(phrase).length > 0
      ) {
        out.push(phrase);
        i++;
        continue;
      }
      out.push(verb);
    }
    return out;
  }

  /** Up to {@link MAX_MEANINGS} index terms whose entry words mean most nearly what `word` means. */
  private closestInMeaning(word: string): { term: string; similarity: number }[] {
    const cached = this.meaningCache.get(word);
    if (cached !== undefined) return cached;
    const found: { term: string; similarity: number }[] = [];
    for (const [term, surfaces] of this.surfaceWords) {
      let similarity = 0;
      for (const surface of surfaces) {
        similarity = Math.max(similarity, this.lexicon.similarity(word, surface));
      }
      if (similarity >= MIN_MEANING_SIMILARITY) found.push({ term, similarity });
    }
    found.sort((x, y) => y.similarity - x.similarity);
    const kept = found.slice(0, MAX_MEANINGS);
    this.meaningCache.set(word, kept);
    return kept;
  }

  /**
   * Whether the word reaches the entries' words only as a kind of them: "hotel" is a kind
   * of "building", but a caller who asks about a hotel asks about another building. A word
   * close in meaning some other way (a synonym, a derived form, an embedding neighbour) is
   * not, nor one more general than an entry's word: "the time of my session" may well be
   * about the evening hours.
   */
  private anotherKind(word: string): boolean {
    const meant = this.closestInMeaning(word);
    if (meant.length === 0) return false;
    const { lexicon } = this;
    return meant.every(({ term }) =>
      [...(this.surfaceWords.get(term) ?? [])].every(
        (surface) =>
          lexicon.isKindOf(word, surface) ||
          lexicon.similarity(word, surface) < MIN_MEANING_SIMILARITY,
      ),
    );
  }

  /**
   * Whether a thing the caller names is only loosely related to words of the entries'
   * answers, and to no word of their questions: the caller's "bank" is related to the
   * "riverside" of an address, their "game" to the "running" of a physio's answer, but a
   * question about a bank or a game is about that thing, not about the business. A
   * synonym ({@link LOOSE_MEANING} or closer: a "spot" for the answer's "place") is the
   * same thing in other words, and so is one written together with the answer's word (a
   * "checkup", where the answer says "check ups").
   */
  private looselyInAnswers(word: string, meant: ReadonlyMap<string, number>): boolean {
    for (const [term, similarity] of meant) {
      if (similarity >= LOOSE_MEANING) return false;
      if (this.questionTerms.some((terms) => terms.has(term))) return false;
      for (const surface of this.surfaceWords.get(term) ?? []) {
        if (surface.length >= COMPOUND_HEAD && (word.startsWith(surface) || word.endsWith(surface)))
          return false;
      }
    }
    return true;
  }

  /** Whether the word (or its dictionary form) names a thing or a place. */
  private isThing(word: string): boolean {
    return this.lexicon.isThing(word) || this.lexicon.isThing(this.lexicon.lemma(word));
  }

  /** Entries marked urgent, in order. */
  urgentEntries(): KnowledgeEntry[] {
    return this.entries.filter((e) => e.urgent === true);
  }

  /** Entries that are not urgent, for "what can you do". */
  topics(): KnowledgeEntry[] {
    return this.entries.filter((e) => e.urgent !== true);
  }

  private entryAt(i: number): KnowledgeEntry {
    const entry = this.entries[i];
    if (!entry) throw new Error(`No knowledge entry ${i}`);
    return entry;
  }

  /** A known term one letter off (two for long words), for recogniser near-misses. */
  private nearest(term: string): string | undefined {
    if (term.length < 5 || /\d/.test(term)) return undefined;
    const max = term.length >= 8 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = max + 1;
    for (const known of this.vocabulary) {
      if (known.length < 4) continue;
      const d = editDistance(term, known, max);
      if (d < bestDistance) {
        best = known;
        bestDistance = d;
      }
    }
    return best;
  }
}

/**
 * Whether the caller named the entry's topic by a word only its questions use, said nothing
 * that points to another entry, and only one word the knowledge base lacks, a thing: one of
 * that topic's things ("flea tablets"). A quality ("is the doctor nice") may be what is
 * asked, and nobody wrote about it.
 */
function namesTopicAmidOneUnknown(match: KnowledgeMatch): boolean {
  return (
    match.distinctWords >= 1 &&
    match.otherTopicWords === 0 &&
    match.unknownContentWords === 1 &&
    match.unknownThings === 1
  );
}

/** A match found by meaning only: no word of the caller's is in the entry. */
function meaningOnly(entry: KnowledgeEntry, similarity: number): KnowledgeMatch {
  return {
    entry,
    confidence: similarity,
    score: 0,
    inQuestions: false,
    firmInQuestions: false,
    matchedWords: 0,
    questionWords: 0,
    supportWords: 0,
    firm: false,
    distinctWords: 0,
    unknownContentWords: 0,
    unknownThings: 0,
    otherTopicWords: 0,
  };
}

function termsOf(text: string): string[] {
  return contentTerms(words(text));
}

/**
 * Joins two neighbouring words when the joined word is a known term and the words alone are
 * not ("re fill" → "refill", "pharma see" stays).
 */
export function joinCompounds(ws: readonly string[], known: (term: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const a = ws[i] ?? '';
    const b = ws[i + 1];
    if (b !== undefined) {
      const joined = stem(a + b);
      if (known(joined) && !(known(stem(a)) && known(stem(b)))) {
        out.push(a + b);
        i++;
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

/** Pronouns turned round, so the caller's question can be asked back to them. */
const PERSPECTIVE: Readonly<Record<string, string>> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  am: 'are',
  you: 'we',
  your: 'our',
  yours: 'ours',
};

/**
 * How to name an entry when asking back ("Do you mean, what are our opening hours?"): the
 * entry's own `topic` field if it has one, otherwise its first question turned round.
 */
export function topicOf(entry: KnowledgeEntry): string {
  const topic = entry['topic'];
  if (typeof topic === 'string' && topic.trim() !== '') return topic.trim();
  const first = entry.questions[0] ?? entry.id;
  return normalize(first)
    .split(' ')
    .map((w) => PERSPECTIVE[w] ?? w)
    .join(' ');
}

/** A short name for an entry in lists ("hours, address and parking"). */
export function shortTopicOf(entry: KnowledgeEntry): string {
  const topic = entry['topic'];
  if (typeof topic === 'string' && topic.trim() !== '') return topic.trim();
  return entry.id.replace(/[-_]+/g, ' ');
}
