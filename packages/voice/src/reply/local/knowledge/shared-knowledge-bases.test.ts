import type { KnowledgeEntry } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import type { SentenceEncoder } from '../semantic/sentence-encoder.js';
import { demo } from '../../testing/conversation.js';
import { sharedKnowledgeBase } from './shared-knowledge-bases.js';

/** The demo clinic's entries, a copy each time: a new call reads its assistant anew. */
function demoEntries(): KnowledgeEntry[] {
  return structuredClone(demo.knowledgeBase);
}

/** An encoder of its own (never asked to encode here: building a knowledge base does not). */
const encoder: SentenceEncoder = {
  encode: () => Promise.reject(new Error('not used by this test')),
};

describe('sharedKnowledgeBase', () => {
  it('gives the calls of one knowledge base the same one, read from storage each time', () => {
    const first = sharedKnowledgeBase(demoEntries());
    const second = sharedKnowledgeBase(demoEntries());
    expect(second).toBe(first);
    expect(first.retrieve('what are your opening hours')).toMatchObject({
      kind: 'answer',
      match: { entry: { id: 'hours' } },
    });
  });

  it('builds another when an entry, the thresholds or the encoder differ', () => {
    const base = sharedKnowledgeBase(demoEntries());
    const edited = demoEntries();
    (edited[0] as KnowledgeEntry).answer = `${(edited[0] as KnowledgeEntry).answer} Updated.`;
    const afterEdit = sharedKnowledgeBase(edited);
    expect(afterEdit).not.toBe(base);
    expect(afterEdit.get((edited[0] as KnowledgeEntry).id)?.answer).toMatch(/Updated\.$/);
    expect(sharedKnowledgeBase(demoEntries(), { thresholds: { answer: 0.9 } })).not.toBe(base);
    expect(
      sharedKnowledgeBase(demoEntries(), { thresholds: { answer: 0.9 } }).thresholds.answer,
    ).toBe(0.9);
    expect(sharedKnowledgeBase(demoEntries(), { encoder })).not.toBe(base);
    expect(sharedKnowledgeBase(demoEntries(), { encoder })).toBe(
      sharedKnowledgeBase(demoEntries(), { encoder }),
    );
  });
});
