/** How the assistant names an entry when it asks back or lists what it can help with. */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { normalize } from '../text.js';

/** Pronouns turned round, so the caller's question can be asked back to them. */
const PERSPECTIVE: ReadonlyMap<string, string> = new Map([
  ['i', 'you'],
  ['me', 'you'],
  ['my', 'your'],
  ['mine', 'yours'],
  ['am', 'are'],
  ['you', 'we'],
  ['your', 'our'],
  ['yours', 'ours'],
]);

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
    .map((w) => PERSPECTIVE.get(w) ?? w)
    .join(' ');
}

/** A short name for an entry in lists ("hours, address and parking"). */
export function shortTopicOf(entry: KnowledgeEntry): string {
  const topic = entry['topic'];
  if (typeof topic === 'string' && topic.trim() !== '') return topic.trim();
  return entry.id.replace(/[-_]+/g, ' ');
}
