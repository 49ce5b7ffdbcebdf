import { describe, expect, it } from 'vitest';
import {
  containsPhrase,
  editDistance,
  normalize,
  speakableAnswer,
  stem,
  stripFillers,
  terms,
} from './text.js';

describe('text normalisation', () => {
  it('lower-cases, drops punctuation and expands contractions', () => {
    expect(normalize("What's your  ADDRESS?")).toBe('what is your address');
    expect(normalize("what are you're opening hours")).toBe('what are you are opening hours');
    expect(normalize('I can’t breathe, I’m scared')).toBe('i can not breathe i am scared');
    expect(normalize("i'd like the clinic's number")).toBe('i would like the clinic number');
    expect(normalize('I cannot come, I won’t')).toBe('i can not come i will not');
    expect(normalize('  Café — déjà vu!  ')).toBe('cafe deja vu');
    expect(normalize('')).toBe('');
  });

  it('stems so that related forms meet', () => {
    const same = [
      ['opening', 'open'],
      ['hours', 'hour'],
      ['located', 'location'],
      ['parking', 'park'],
      ['vaccines', 'vaccination'],
      ['results', 'result'],
      ['breathe', 'breathing'],
      ['appointments', 'appointment'],
      ['pharmacies', 'pharmacy'],
      ['consultation', 'consult'],
    ];
    for (const [a = '', b = ''] of same) expect(stem(a)).toBe(stem(b));
    expect(stem('address')).toBe('address');
    expect(stem('bus')).toBe('bus');
    expect(stem('bring')).toBe('bring');
    expect(stem('refill')).toBe('refill');
  });

  it('keeps topic words only, stemmed, and folds no synonyms by a list', () => {
    expect(terms('What are your opening hours?')).toEqual(['open', 'hour']);
    expect(terms('Where is the pharmacy')).toEqual(['wher', 'pharmacy']);
    expect(terms('any medicines or allergies')).toEqual(terms('medicine or allergy'));
    // Other words for a thing are the lexicon's to relate (KnowledgeBase), not this list's.
    expect(terms('my medication')).not.toEqual(terms('my medicine'));
    expect(terms('the a of')).toEqual([]);
  });

  it('measures edit distance, stopping early past a bound', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('pharmacy', 'pharmecy')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('finds phrases on word boundaries', () => {
    expect(containsPhrase('ok bye bye then', 'Bye bye')).toBe(true);
    expect(containsPhrase('goodbye', 'bye')).toBe(false);
    expect(containsPhrase('anything', '')).toBe(false);
  });

  it('strips leading fillers and tidies answers for reading back', () => {
    expect(stripFillers('um well about three days')).toBe('about three days');
    expect(stripFillers('um')).toBe('um');
    expect(speakableAnswer('i think i am fine')).toBe('I think I am fine');
  });
});
