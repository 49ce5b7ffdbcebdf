import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lexicon, LEXICON_DIR } from './lexicon.js';
import { editDistance } from '../reply/local/text.js';

// The lexicon the build makes from WordNet, the wink embeddings and wink-lemmatizer.
const lexicon = Lexicon.default();

describe('Lexicon (built from WordNet, embeddings and a lemmatizer)', () => {
  it('reduces words to their dictionary form', () => {
    expect(lexicon.lemma('swollen')).toBe('swell');
    expect(lexicon.lemma('children')).toBe('child');
    expect(lexicon.lemma('collapsed')).toBe('collapse');
    expect(lexicon.lemma('pharmacy')).toBe('pharmacy');
    expect(lexicon.forms('park')).toEqual(expect.arrayContaining(['park', 'parks', 'parking']));
  });

  it('finds nothing for a word an ordinary object inherits ("constructor", "__proto__")', () => {
    for (const word of ['constructor', '__proto__', 'tostring', 'hasownproperty']) {
      expect(lexicon.related(word)).toBeInstanceOf(Map);
      expect(lexicon.opposites(word).size).toBe(0);
      expect(lexicon.relatedWithLemma(word)).toBeInstanceOf(Map);
      expect(() => lexicon.isKindOf(word, 'person')).not.toThrow();
      expect(lexicon.similarity(word, 'builder')).toBeGreaterThanOrEqual(0);
    }
    // "constructor" is an English word with relations of its own, found as they are.
    expect(lexicon.related('constructor').has('builder')).toBe(true);
  });

  it('keeps a bounded number of words decoded, and decodes a dropped one the same again', () => {
    const small = Lexicon.load(LEXICON_DIR, { cachedWords: 2 });
    const words = ['cancel', 'appointment', 'pharmacy', 'swelling'];
    const first = words.map((w) => [...small.relatedWithLemma(w)]);
    const similar = words.map((w) => small.similarity(w, 'booking'));
    // Each cache holds the last two words only (a private field, read for the bound).
    const { relationCache } = small as unknown as { relationCache: { size: number } };
    expect(relationCache.size).toBeLessThanOrEqual(2);
    // "cancel" was dropped long ago: decoded again, it is what it was, and what a
    // lexicon with room for every word says.
    expect(words.map((w) => [...small.relatedWithLemma(w)])).toEqual(first);
    expect(words.map((w) => [...lexicon.relatedWithLemma(w)])).toEqual(first);
    expect(words.map((w) => small.similarity(w, 'booking'))).toEqual(similar);
    expect(words.map((w) => lexicon.similarity(w, 'booking'))).toEqual(similar);
    expect(first[0]?.length).toBeGreaterThan(0);
  });

  it('rates words of the same meaning close and unrelated words far', () => {
    expect(lexicon.similarity('medication', 'medicine')).toBeGreaterThanOrEqual(0.6);
    expect(lexicon.similarity('drugstore', 'pharmacy')).toBeGreaterThanOrEqual(0.6);
    expect(lexicon.similarity('monthly', 'months')).toBeGreaterThanOrEqual(0.8);
    expect(lexicon.similarity('swelling', 'swollen')).toBe(1);
    for (const [a, b] of [
      ['pizza', 'insurance'],
      ['football', 'pharmacy'],
      ['weather', 'hours'],
      ['moon', 'address'],
    ] as const) {
      expect(lexicon.similarity(a, b), `${a} / ${b}`).toBeLessThan(0.3);
    }
  });

  it('relates a word through its lemma only as the part of speech the word is a form of', () => {
    // "swelling" is a form of the verb "swell"; "best" of the adjective "good", which is the
    // adjective "swell" (great), not the verb.
    expect(lexicon.related('good').get('swell')).toBeGreaterThanOrEqual(0.5);
    expect(lexicon.similarity('best', 'swell')).toBeGreaterThanOrEqual(0.5);
    expect(lexicon.similarity('best', 'swelling')).toBeLessThan(0.3);
    // A form keeps its own relations, and its lemma's of its part of speech.
    expect(lexicon.similarity('swelling', 'lump')).toBeGreaterThanOrEqual(0.6);
    expect(lexicon.similarity('cancelled', 'postpone')).toBeGreaterThanOrEqual(0.3);
    // The language model's variants of a sentence say its words the same way.
    const variants = lexicon.relatedWithLemma('swelling');
    expect(variants.get('bulge')).toBeGreaterThanOrEqual(0.6);
    expect(variants.has('nifty')).toBe(false);
  });

  it('takes a word used as a noun for a form of its lemma only where the two share a sense', () => {
    // "the left" only shares a spelling with the verb "leave"; "a booking" comes from "book".
    expect(lexicon.similarity('leave', 'left')).toBe(1);
    expect(lexicon.similarity('leave', 'left', { bAsNoun: true })).toBeLessThan(0.3);
    expect(lexicon.similarity('grind', 'ground', { bAsNoun: true })).toBeLessThan(0.3);
    expect(lexicon.similarity('book', 'booking', { bAsNoun: true })).toBe(1);
    expect(lexicon.similarity('park', 'parking', { bAsNoun: true })).toBe(1);
    expect(lexicon.similarity('result', 'results', { bAsNoun: true })).toBe(1);
  });

  it('gives light words no embedding similarity, and frequent words a higher bar', () => {
    // Frequent verbs and adverbs are near everything in embedding space.
    expect(lexicon.isLight('take')).toBe(true);
    expect(lexicon.isLight('back')).toBe(true);
    expect(lexicon.cosine('take', 'make')).toBeUndefined();
    expect(lexicon.cosine('fees', 'cost')).toBeGreaterThan(0.6);
    // Frequent nouns and adjectives keep their embeddings, but only close neighbours count.
    expect(lexicon.isLight('sunday')).toBe(false);
    expect(lexicon.similarity('sunday', 'saturdays')).toBeGreaterThanOrEqual(0.6);
    expect(lexicon.cosine('town', 'near')).toBeGreaterThan(0.7);
    expect(lexicon.similarity('town', 'near')).toBe(0);
  });

  it('relates opposites (both name the same topic) and verbs spelt from their hypernym', () => {
    expect(lexicon.similarity('close', 'open')).toBeGreaterThanOrEqual(0.5);
    // An opposite is not another way to say the word: the language model's variants use
    // `related`, which leaves it out.
    expect(lexicon.opposites('open').has('close')).toBe(true);
    expect(lexicon.related('open').has('close')).toBe(false);
    expect(lexicon.similarity('late', 'early')).toBeGreaterThanOrEqual(0.5);
    expect(lexicon.similarity('reschedule', 'schedule')).toBeGreaterThanOrEqual(0.6);
  });

  it('keeps a word’s synonyms and generalisations when it has more kinds than room', () => {
    // "medicine" (the field) has dozens of kinds (cardiology, urology…) and "drug" hundreds
    // (statin, sedative…): they fill only what the words' other relations leave.
    expect(lexicon.related('medicine').has('drug')).toBe(true);
    expect(lexicon.related('drug').has('medicine')).toBe(true);
    expect(lexicon.related('medicine').has('cardiology')).toBe(true);
  });

  it('knows which thing is a kind of which, and not the other way round', () => {
    expect(lexicon.isKindOf('hotel', 'building')).toBe(true);
    expect(lexicon.isKindOf('hotels', 'building')).toBe(true);
    expect(lexicon.isKindOf('building', 'hotel')).toBe(false);
    expect(lexicon.isKindOf('pill', 'medicine')).toBe(true);
    expect(lexicon.isKindOf('drugstore', 'pharmacy')).toBe(false);
  });

  it('knows what phrasal verbs mean, whatever form the verb is in', () => {
    expect(lexicon.phrase('call', 'off')).toBe('call_off');
    expect(lexicon.phrase('called', 'off')).toBe('call_off');
    expect(lexicon.similarity('call_off', 'cancel')).toBeGreaterThanOrEqual(0.8);
    expect(lexicon.similarity('put_off', 'postpone')).toBeGreaterThanOrEqual(0.8);
    expect(lexicon.similarity('come_in', 'enter')).toBeGreaterThanOrEqual(0.8);
    // Not every verb and particle is a phrase, and a phrase is not its verb.
    expect(lexicon.phrase('call', 'the')).toBeUndefined();
    expect(lexicon.phrase('tooth', 'off')).toBeUndefined();
    expect(lexicon.similarity('call_off', 'call')).toBeLessThan(0.3);
  });

  it('knows which nouns name things and places, and which name people, times or states', () => {
    for (const thing of ['library', 'shops', 'taxi', 'stadium', 'ticket', 'passport']) {
      expect(lexicon.isThing(thing), thing).toBe(true);
    }
    // A British spelling is what its American spelling is, whatever order WordNet gives its
    // senses in ("licence" lists the state of "poetic licence" first).
    const spellings: [british: string, american: string][] = [
      ['licence', 'license'],
      ['harbour', 'harbor'],
      ['judgement', 'judgment'],
    ];
    for (const [british, american] of spellings) {
      expect(lexicon.isThing(british), british).toBe(lexicon.isThing(american));
    }
    expect(lexicon.isThing('licence')).toBe(true);
    for (const other of ['son', 'week', 'tonight', 'pain', 'open', 'quickly', 'nice']) {
      expect(lexicon.isThing(other), other).toBe(false);
    }
  });

  it('says how the recogniser pronounces a word, one letter per phone', () => {
    const parking = lexicon.sounds('parking');
    const barking = lexicon.sounds('barking');
    expect(parking).toHaveLength(6); // P AA R K IH NG
    expect(barking).toHaveLength(6);
    expect(editDistance(parking ?? '', barking ?? '')).toBe(1);
    expect(lexicon.sounds('knight')).toBe(lexicon.sounds('night'));
    expect(lexicon.sounds('zzzqx')).toBeUndefined();
  });

  it('says how to build it when the files are missing', () => {
    expect(() => Lexicon.load('/nonexistent')).toThrow(/npm run build/);
  });

  it('asks for a rebuild when its files come from an older build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'talkbooth-lexicon-'));
    try {
      writeFileSync(
        join(dir, 'lexicon.json'),
        JSON.stringify({ version: 10, dimensions: 1, vectorScale: 1, words: ['a'] }),
      );
      writeFileSync(join(dir, 'vectors.bin'), Buffer.alloc(1));
      expect(() => Lexicon.load(dir)).toThrow(/out of date.*npm run build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
