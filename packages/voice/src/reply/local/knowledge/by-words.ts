/** The knowledge base's decision on the caller's words alone, before meaning is weighed. */
import type { KnowledgeMatch, Retrieval } from './match.js';
import {
  CLEAR_LEAD,
  CLOSE_RACE,
  MIN_TOPIC_CONFIDENCE,
  type RetrievalThresholds,
} from './tuning.js';

/**
 * What the caller's words alone say to do, given their ranking (`KnowledgeBase.rank`): the
 * first step of `KnowledgeBase.retrieve`, whose comment gives the rules.
 */
export function retrieveByWords(
  ranked: readonly KnowledgeMatch[],
  thresholds: RetrievalThresholds,
): Retrieval {
  const [best, second] = ranked;
  if (!best) return { kind: 'none' };
  const { answer, clarify } = thresholds;
  const lead = second === undefined ? Infinity : best.score / second.score;
  // A match on the answer's words alone is never sure enough to answer outright, nor one
  // on question words too common to tell a topic ("when", "where") alone.
  const grounded = best.questionWords >= 1;
  if (grounded && best.confidence >= answer && lead >= CLOSE_RACE) {
    return { kind: 'answer', match: best };
  }
  if (!best.firm && best.confidence < answer) return { kind: 'none', closest: best };
  // Two of the caller's words for the entry, one its questions' own, and far ahead of the
  // next: answered, though words nobody wrote about dilute the confidence. A question word
  // ("where", "how much") is not one of the two: counted, it answered misheard off-topic
  // lines with one entry word amid three unknown ones ("where is the near east main
  // station" → the parking). On recorded readings of our own lines in five voices: 4
  // fewer of 320 off-topic lines told a fact, 1 fewer of 460 questions answered right
  // (asked which of two instead).
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
