import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../../language/lexicon.js';
import { demo } from '../../testing/conversation.js';
import { KnowledgeBase } from './knowledge-base.js';
import { wordCaches } from './word-caches.js';

const clinic = demo.knowledgeBase;

describe('word caches shared between knowledge bases', () => {
  it('gives two knowledge bases of the same wording one memory of words’ meanings', () => {
    const first = new KnowledgeBase(clinic);
    // Another call's engine: the same entries, copied, with other ids and thresholds.
    const second = new KnowledgeBase(
      clinic.map((entry) => ({ ...entry, id: `${entry.id}-copy` })),
      { thresholds: { answer: 0.9 } },
    );
    const shared = wordCaches(clinic, Lexicon.default());
    shared.meanings.delete('charge');
    const analysed = first.analyse('what do you charge for a visit');
    // The entries' word the first found by meaning ("charge" → cost), kept for the second.
    expect([...analysed.terms.keys()]).toContain('cost');
    const meant = shared.meanings.get('charge');
    expect(meant?.map((m) => m.term)).toContain('cost');
    expect(second.analyse('what would you charge')).toBeDefined();
    expect(shared.meanings.get('charge')).toBe(meant);
  });

  it('keeps knowledge bases of other wording, or another lexicon, apart', () => {
    const other = clinic.map((entry, i) =>
      i === 0 ? { ...entry, answer: 'Eight to six.' } : entry,
    );
    expect(wordCaches(other, Lexicon.default())).not.toBe(wordCaches(clinic, Lexicon.default()));
    expect(wordCaches(clinic, Lexicon.default())).toBe(wordCaches(clinic, Lexicon.default()));
    const lexicon = Object.create(Lexicon.default()) as Lexicon;
    expect(wordCaches(clinic, lexicon)).not.toBe(wordCaches(clinic, Lexicon.default()));
  });

  it('answers as a knowledge base that analysed every sentence afresh', () => {
    const heard = ['what do you charge for a visit', 'when do you shut', 'do you sell stamps'];
    // Another call's engine analyses them first, into the caches the second one shares.
    for (const text of heard) new KnowledgeBase(clinic).retrieve(text);
    const sharing = new KnowledgeBase(clinic);
    // A lexicon of its own (the same words) gives this one caches of its own: afresh.
    const afresh = new KnowledgeBase(clinic, {
      lexicon: Object.create(Lexicon.default()) as Lexicon,
    });
    const found = (kb: KnowledgeBase) =>
      heard.map((text) => {
        const retrieved = kb.retrieve(text);
        return retrieved.kind === 'none' ? 'none' : JSON.stringify(retrieved);
      });
    expect(found(sharing)).toEqual(found(afresh));
    expect(found(sharing)).not.toEqual(['none', 'none', 'none']);
  });
});
