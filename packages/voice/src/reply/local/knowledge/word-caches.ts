/**
 * What a knowledge base learns about callers' words as it goes, shared by every knowledge
 * base made of the same entries' wording with the same lexicon: each call's reply engine
 * makes its own knowledge base, and calls to one assistant hear the same words ("cost",
 * "appointment") again and again. A word's closest entry words in meaning take a pass over
 * every word the entries use, on the main thread, in the turn's wait (the largest part of
 * analysing a reading, which is most of choosing one under load: see BENCHMARKS.md,
 * "Where the server's CPU goes"). They depend only on the entries' questions and answers
 * and on the lexicon, never on a call. (Whole sentences' analyses stay with each call's
 * knowledge base: another caller seldom says the same sentence, and kept for every call
 * they took about 2.5 MB per thousand.)
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { KnowledgeEntry } from '@talkbooth/protocol';
import type { Lexicon } from '../../../language/lexicon.js';

/** An entry word's index term close in meaning to a caller's word, and how close (0–1). */
export interface Meaning {
  readonly term: string;
  readonly similarity: number;
}

export interface WordCaches {
  /** Caller words → the entry terms closest to them in meaning. */
  readonly meanings: LRUCache<string, readonly Meaning[]>;
}

/**
 * Caller words whose meanings are kept for one knowledge base: the words its callers use
 * most (about 250 bytes each).
 */
const MEANINGS_CACHE_SIZE = 8192;
/** Knowledge bases whose caches are kept (the assistants called lately). */
const KNOWLEDGE_BASES_KEPT = 32;

const byLexicon = new WeakMap<Lexicon, LRUCache<string, WordCaches>>();

/** The caches of the knowledge base made of these entries with this lexicon. */
export function wordCaches(entries: readonly KnowledgeEntry[], lexicon: Lexicon): WordCaches {
  let kept = byLexicon.get(lexicon);
  if (kept === undefined) {
    kept = new LRUCache<string, WordCaches>({ max: KNOWLEDGE_BASES_KEPT });
    byLexicon.set(lexicon, kept);
  }
  const key = wordingKey(entries);
  let caches = kept.get(key);
  if (caches === undefined) {
    caches = { meanings: new LRUCache({ max: MEANINGS_CACHE_SIZE }) };
    kept.set(key, caches);
  }
  return caches;
}

/** The entries' wording, all that the meanings of callers' words depend on of them. */
function wordingKey(entries: readonly KnowledgeEntry[]): string {
  const wording = entries.map((entry) => [entry.questions, entry.answer]);
  return createHash('sha256').update(JSON.stringify(wording)).digest('hex');
}
