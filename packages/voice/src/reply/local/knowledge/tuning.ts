/**
 * The knowledge base's tuning (knowledge-base.ts): how much each kind of evidence counts and
 * the thresholds its decisions take. The values were set on the demo clinic's own phrasings
 * and the team's own callers' lines, never on the benchmark's; where a value's comment says
 * more, it says what moved when it was set.
 */
import { numberToWords } from '../../../stt/language-model/normalize.js';
import type { Bm25Options } from '../bm25.js';

/**
 * Confidence thresholds (0–1), tuned on the demo clinic (knowledge-base.test.ts): its dev
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
export const LOOSE_MEANING = 0.8;
/** How much a near-miss word (one or two letters off a known word) counts. */
export const FUZZY_WEIGHT = 0.8;
/**
 * A word the knowledge base does not use counts for the entry word closest in meaning (a
 * synonym, a derived form, an embedding neighbour: see {@link Lexicon.similarity}) when the
 * two are at least this similar, weighted by the similarity.
 */
export const MIN_MEANING_SIMILARITY = 0.3;
/** {@link Lexicon.similarity} of two forms of one word ("cancelled", "cancel"). */
export const SAME_WORD = 1;
/**
 * How much a word that sounds like one of the questions' words counts ("barking" heard for
 * "parking"): a recogniser's slip, less sure than one of spelling.
 */
export const SOUND_WEIGHT = 0.7;
/** The fewest phones a word needs before one phone off means a slip, not another word. */
export const SOUND_MIN_PHONES = 4;
/** From this many phones, two phones off still sound alike. */
export const SOUND_LONG_PHONES = 7;
/** The shortest caller word taken for the last part of a compound ("chip", "ache"). */
export const COMPOUND_HEAD = 4;
/** The shortest first part of such a compound ("micro", "tooth"; not "s" + "hip"). */
export const COMPOUND_MODIFIER = 3;
/** Entry words one caller word may stand for ("schedule" → "book", "plan"…). */
export const MAX_MEANINGS = 3;
/** The best entry's score over the next one's at which it is answered without a doubt. */
export const CLEAR_LEAD = 1.4;
/**
 * The least confidence at which a word naming one entry's topic answers it (the caller's
 * other words, known to the knowledge base but not this entry, weigh against it).
 */
export const MIN_TOPIC_CONFIDENCE = 0.2;
/** Below this lead the two entries are a close race: the caller is asked which one. */
export const CLOSE_RACE = 1.2;
/**
 * Question words kept as terms because they tell topics apart ("where" vs "when"), but too
 * common to make a match firm on their own; and "late" and "early", which only say which
 * end of the day a question about time asks for ("how late can i come in on a weekday").
 * Like the question words, they cost no confidence where the entries never use them. On our
 * own lines, recorded in four voices: 2 more of 368 paraphrases answered right, 2 fewer
 * answered "I do not know", nothing else changed.
 */
export const WEAK_TERMS: ReadonlySet<string> = new Set([
  'wher',
  'when',
  'much',
  'long',
  'late',
  'early',
]);
/** Number words: facts inside answers, never a topic a caller's other words could mean. */
export const NUMBER_WORDS: ReadonlySet<string> = new Set(
  Array.from({ length: 101 }, (_, n) => numberToWords(n).split(' ')).flat(),
);
/**
 * What an unknown word costs, as a share of a rare known word's reference score. Lower is
 * more forgiving of recogniser noise; higher makes off-topic questions fail sooner.
 */
export const UNKNOWN_WORD_COST = 0.75;
/**
 * The confidence reference: a query term scores "fully" when it occurs this often in an
 * entry of average length (in two of its questions, or one question and the answer…).
 */
export const REFERENCE_TF = 2;

export const DEFAULT_BM25: Required<Bm25Options> = { k1: 1.2, b: 0.5 };

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
