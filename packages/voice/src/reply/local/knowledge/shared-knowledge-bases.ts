/**
 * One knowledge base per assistant's knowledge, shared by the reply engines of all its
 * calls. A knowledge base is fixed once built (its caches aside), and building one for each
 * call held the event loop while calls started (about 10 ms each for the demo clinic: eight
 * callers arriving at once stalled it for over 400 ms under the profiler, most of it this).
 * Shared, its caches of what sentences and words mean are warm for every call after the
 * first: callers of one business use the same words, and say "yes", "no" and "thank you"
 * alike.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { KnowledgeEntry } from '@talkbooth/protocol';
import type { SentenceEncoder } from '../semantic/sentence-encoder.js';
import { KnowledgeBase } from './knowledge-base.js';
import type { RetrievalThresholds } from './tuning.js';

/**
 * Knowledge bases kept per encoder: one for each assistant (and version of its knowledge)
 * with calls lately; one not used for a while is rebuilt by its next call.
 */
const KEPT = 32;

/** Stands for "no encoder" as a key of {@link byEncoder}. */
const WORDS_ALONE: object = {};

const byEncoder = new WeakMap<object, LRUCache<string, KnowledgeBase>>();

export interface SharedKnowledgeBaseOptions {
  thresholds?: Partial<RetrievalThresholds>;
  /** The encoder its meaning is weighed with; undefined goes by words alone. */
  encoder?: SentenceEncoder;
}

/**
 * The knowledge base of these entries, built on first use and shared after: the same one
 * for the same entries, thresholds and encoder (a change to any of them builds another).
 */
export function sharedKnowledgeBase(
  entries: readonly KnowledgeEntry[],
  options: SharedKnowledgeBaseOptions = {},
): KnowledgeBase {
  const owner = options.encoder ?? WORDS_ALONE;
  let kept = byEncoder.get(owner);
  if (kept === undefined) byEncoder.set(owner, (kept = new LRUCache({ max: KEPT })));
  // The entries as stored (their ids, questions, answers and flags), and the thresholds.
  const key = createHash('sha256')
    .update(JSON.stringify([entries, options.thresholds ?? null]))
    .digest('base64');
  let knowledge = kept.get(key);
  if (knowledge === undefined) {
    knowledge = new KnowledgeBase(entries, options);
    kept.set(key, knowledge);
  }
  return knowledge;
}
