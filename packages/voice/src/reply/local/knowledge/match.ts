/** What the knowledge base finds for the caller's words: matches, decisions, analysed words. */
import type { KnowledgeEntry } from '@talkbooth/protocol';

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
   * questions, or the caller's own word (not only a related one) in its answer; never a
   * {@link WEAK_TERMS} one ("where" names no topic, so "where near here can i buy stamps"
   * has one word for the parking entry, not two).
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

/** An analysed query: term → weight, each word's terms, and the words nothing matched. */
export interface AnalysedQuery {
  readonly terms: ReadonlyMap<string, number>;
  /** Terms the caller said themselves (or a near-miss spelling of), not only in meaning. */
  readonly firm: ReadonlySet<string>;
  /** For each word that matched, the terms it stands for and their weights. */
  readonly words: readonly ReadonlyMap<string, number>[];
  /** For each word that matched (same order), the terms it is itself or nearly spells. */
  readonly firmWords: readonly ReadonlySet<string>[];
  /** Terms of the words nothing matched. */
  readonly unknown: readonly string[];
  /** The words nothing matched, as the caller said them. */
  readonly unknownWords: readonly string[];
  /**
   * Things or places the caller names that the knowledge base has no word for, in meaning
   * or spelling, or that is only a kind of one of its words ("a hotel", where the entries
   * say "building"; "the library", where they say "changing room"), or only loosely
   * related to a word of their answers ("the bank", where an address says "riverside"): a
   * word the lexicon knows as a thing ({@link Lexicon.isThing}), after an article ("the
   * library", "a taxi to the station", "the swimming pool"), that is not just saying which
   * of the entries' own things is meant ("a car park").
   */
  readonly namedThings: readonly string[];
  /**
   * A quality the knowledge base never mentions that ends the caller's question: what they
   * ask of the thing before it ("is the hygienist nice"). Not one before a thing ("a
   * terrible pain").
   */
  readonly askedQualities: readonly string[];
}

/**
 * Whether the caller named the entry's topic by a word only its questions use, said nothing
 * that points to another entry, and only one word the knowledge base lacks, a thing: one of
 * that topic's things ("flea tablets"). A quality ("is the doctor nice") may be what is
 * asked, and nobody wrote about it.
 */
export function namesTopicAmidOneUnknown(match: KnowledgeMatch): boolean {
  return (
    match.distinctWords >= 1 &&
    match.otherTopicWords === 0 &&
    match.unknownContentWords === 1 &&
    match.unknownThings === 1
  );
}

/** A match found by meaning only: no word of the caller's is in the entry. */
export function meaningOnly(entry: KnowledgeEntry, similarity: number): KnowledgeMatch {
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
