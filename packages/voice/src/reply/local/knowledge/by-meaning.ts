/**
 * The knowledge base's decisions that weigh a sentence's meaning beside its words, when
 * the words alone were not sure (see `KnowledgeBase.retrieve`).
 */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import type { MeaningScore } from '../semantic/meaning-index.js';
import {
  type AnalysedQuery,
  type KnowledgeMatch,
  meaningOnly,
  namesTopicAmidOneUnknown,
  type Retrieval,
} from './match.js';
import {
  FUSED_ANSWER,
  FUSED_LEAD,
  FUSED_MEANING_WEIGHT,
  FUSED_MIN_MEANING,
  MEANING_ANSWER,
  MEANING_LEAD,
  MEANING_TIE_LEAD,
  RACE_MIN_MEANING,
} from './tuning.js';

/** What is known of the caller's sentence besides its words' ranking. */
export interface SentenceEvidence {
  /** Every entry's closeness in meaning, closest first; undefined when not prepared. */
  meanings: readonly MeaningScore[] | undefined;
  /** The caller's words as the knowledge base reads them. */
  analysed: AnalysedQuery;
  /** The entry at a position of the knowledge base. */
  entryAt: (i: number) => KnowledgeEntry;
}

/**
 * The entry the sentence means: the closest in meaning at or above
 * {@link MEANING_ANSWER}, ahead of the next by {@link MEANING_LEAD}, or by
 * {@link MEANING_TIE_LEAD} when it is one of the two entries the words could not choose
 * between, or the one they would ask about on the caller's own word. `supported` when
 * the words point to it too: one of those, their own best match (found through more than
 * a question word: {@link groundedIn}), or an entry two or more of the caller's words
 * found, with no word the knowledge base lacks.
 * Never an urgent entry: emergencies have their own path, and an ordinary question close
 * in meaning to one must not get the emergency answer.
 */
export function meantEntry(
  sentence: SentenceEvidence,
  byWords: Retrieval,
  byWord: readonly KnowledgeMatch[],
): { match: KnowledgeMatch; supported: boolean } | undefined {
  const ranked = sentence.meanings?.filter((m) => sentence.entryAt(m.entry).urgent !== true);
  const [first, second] = ranked ?? [];
  if (first === undefined || first.similarity < MEANING_ANSWER) return undefined;
  const lead = first.similarity - (second?.similarity ?? 0);
  if (lead < MEANING_TIE_LEAD) return undefined;
  const entry = sentence.entryAt(first.entry);
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
  const top = byWord[0];
  if (top?.entry === entry && groundedIn(top, sentence.analysed)) {
    return { match: top, supported: true };
  }
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
 * Whether the caller's words found this entry through more than a question word ("how
 * much", "when"), which asks about any topic: a word of its questions that names one, or
 * the caller's own word in its answer; or through every word the caller said, when the
 * question word is all there is ("how much is it"). "How much is it for a visitor", at a
 * leisure centre, found the membership's price on "how much" alone, while "visitor" meant
 * its guests: meaning, which put the membership first, did not have the words' support.
 * On recorded readings of our own lines in five voices: 5 fewer of 460 questions answered
 * wrongly (4 more asked about), 1 fewer answered right.
 */
function groundedIn(match: KnowledgeMatch, analysed: AnalysedQuery): boolean {
  return match.supportWords > 0 || match.matchedWords === analysed.words.length;
}

/**
 * The entry the words and meaning point to together (see {@link FUSED_ANSWER}), when the
 * caller said no word the knowledge base lacks and named no thing it never mentions, and
 * the words found that entry too (unless every word is a light one: then meaning is all
 * there is), and not only loosely where they found another first through its questions.
 * Never an urgent entry (emergencies have their own path).
 */
export function fusedEntry(
  sentence: SentenceEvidence,
  byWords: readonly KnowledgeMatch[],
): KnowledgeMatch | undefined {
  const { meanings } = sentence;
  if (meanings === undefined) return undefined;
  const { unknownWords, namedThings } = sentence.analysed;
  if (unknownWords.length > 0 || namedThings.length > 0) return undefined;
  const scored = meanings
    .filter((m) => sentence.entryAt(m.entry).urgent !== true)
    .map((m) => {
      const entry = sentence.entryAt(m.entry);
      const words = byWords.find((w) => w.entry === entry);
      const score = (words?.confidence ?? 0) + FUSED_MEANING_WEIGHT * m.similarity;
      return {
        match: words ?? meaningOnly(entry, m.similarity),
        score,
        meaning: m.similarity,
        byWords: words !== undefined,
      };
    })
    .sort((a, b) => b.score - a.score);
  const [first, second] = scored;
  if (first === undefined || first.score < FUSED_ANSWER) return undefined;
  if (first.score - (second?.score ?? 0) < FUSED_LEAD) return undefined;
  if (first.meaning < FUSED_MIN_MEANING) return undefined;
  // Meaning alone, where the caller's words point elsewhere: not together. "Do you like your
  // job" took a dental practice's cleaning on meaning alone, its "job" being a word related
  // to another entry's. Only a sentence of nothing but light words ("can you tell me how to
  // get there") leaves meaning to speak for it.
  if (!first.byWords && sentence.analysed.terms.size > 0) return undefined;
  // Nor on the words' support when all they found of it is a question word ("how much").
  if (first.byWords && !groundedIn(first.match, sentence.analysed)) return undefined;
  // Nor against the words' own first, found through a word of its questions (not a
  // question word), when no word the caller said is one of this entry's questions and the
  // words are less sure of it: "i want to call off my treatment tomorrow" says "cancel"
  // in other words, while the first visit's answer plans a treatment and its question asks
  // what happens; meaning, which reads "call off" no better than any other two words, put the
  // first visit ahead. On recorded readings of our own lines in five voices: 3 fewer of
  // 460 questions answered wrongly and 2 fewer of 320 off-topic lines told a fact, for 1
  // fewer answered right (and one more false alarm, which the wrong answer had hidden).
  const wordsFirst = byWords.find((m) => m.entry.urgent !== true);
  if (
    wordsFirst !== undefined &&
    wordsFirst.entry !== first.match.entry &&
    wordsFirst.questionWords > 0 &&
    !first.match.firmInQuestions &&
    wordsFirst.confidence > first.match.confidence
  )
    return undefined;
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
export function twoInTheRunning(
  sentence: SentenceEvidence,
  byWords: readonly KnowledgeMatch[],
): [KnowledgeMatch, KnowledgeMatch] | undefined {
  const words = byWords.filter((m) => m.entry.urgent !== true).slice(0, 2);
  const [a, b] = words;
  if (a === undefined || b === undefined || !a.inQuestions || !b.inQuestions) return undefined;
  if (a.unknownContentWords > 0) return undefined;
  const meanings = sentence.meanings?.filter((m) => sentence.entryAt(m.entry).urgent !== true);
  const [first, second] = meanings ?? [];
  if (first === undefined || second === undefined || second.similarity < RACE_MIN_MEANING) {
    return undefined;
  }
  const pair = new Set([sentence.entryAt(first.entry), sentence.entryAt(second.entry)]);
  if (!pair.has(a.entry) || !pair.has(b.entry)) return undefined;
  if (sentence.analysed.namedThings.length > 0) return undefined;
  return a.entry === sentence.entryAt(first.entry) ? [a, b] : [b, a];
}
