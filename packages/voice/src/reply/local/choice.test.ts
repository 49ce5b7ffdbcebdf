import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../language/lexicon.js';
import { pickOfTwo, settledInSoManyWords } from './choice.js';

const lexicon = Lexicon.default();
const pick = (reply: string) => pickOfTwo(reply, lexicon);

describe('which of two offered topics a reply picks', () => {
  it.each([
    ['the first one', 'first'],
    ['the former please', 'first'],
    ['one', 'first'],
    ['number one', 'first'],
    ['the second one please', 'second'],
    ['no the other one', 'second'],
    ['the last one', 'second'],
    ['option two', 'second'],
    ['both of them', 'both'],
  ] as const)('"%s" picks %s', (reply, expected) => {
    expect(pick(reply)).toBe(expected);
  });

  it('takes a misheard word before "one" for the ordinal it clearly sounds like', () => {
    // Readings of "the second one" and "the first one" a recogniser made.
    expect(pick('the sick and one')).toBe('second');
    expect(pick('the think and one')).toBe('second');
    expect(pick('the thirst one')).toBe('first');
  });

  it('is unsure when the words before "one" sound like no ordinal, or like two', () => {
    expect(pick('the fan can one')).toBe('unsure');
    // "third" is as near "first" as "other".
    expect(pick('the third one')).toBe('unsure');
    expect(pick('that one')).toBe('unsure');
  });

  it('says nothing when the reply is not about position', () => {
    expect(pick('i want to cancel it')).toBeUndefined();
    expect(pick('no')).toBeUndefined();
    expect(pick('can i ask one more question about parking')).toBeUndefined();
  });
});

describe('a reply that settles the choice in so many words', () => {
  it.each([
    ['the first one please', 'first'],
    ['and the second', 'second'],
    ['both of them', 'both'],
    ['no thanks', 'neither'],
    ['neither of them', 'neither'],
    ['no not that', 'neither'],
  ] as const)('"%s" settles it: %s', (reply, expected) => {
    expect(settledInSoManyWords(reply, lexicon)).toBe(expected);
  });

  it('is not any reply with other words, nor one that picks by sound or not at all', () => {
    // Other words: a choice and more, an emergency, a topic's own words, a slip of "both".
    expect(settledInSoManyWords('the first one but my chest hurts', lexicon)).toBeUndefined();
    expect(settledInSoManyWords('no my husband collapsed', lexicon)).toBeUndefined();
    expect(settledInSoManyWords('i want to cancel it', lexicon)).toBeUndefined();
    expect(settledInSoManyWords('both and', lexicon)).toBe('both');
    expect(settledInSoManyWords('both on', lexicon)).toBeUndefined();
    // A misheard ordinal, a pointer that says not which, a bare yes.
    expect(settledInSoManyWords('the sick and one', lexicon)).toBeUndefined();
    expect(settledInSoManyWords('that one', lexicon)).toBeUndefined();
    expect(settledInSoManyWords('yes', lexicon)).toBeUndefined();
  });

  it('takes a plain yes or no, or "the first", for the one topic of "Do you mean, A?"', () => {
    expect(settledInSoManyWords('yes please', lexicon, 1)).toBe('first');
    expect(settledInSoManyWords('yes that is right', lexicon, 1)).toBe('first');
    expect(settledInSoManyWords('the first one', lexicon, 1)).toBe('first');
    expect(settledInSoManyWords('no that is wrong', lexicon, 1)).toBe('neither');
    expect(settledInSoManyWords('nope', lexicon, 1)).toBe('neither');
    // Of one topic there is no second; a yes with more words is not plain.
    expect(settledInSoManyWords('the second one', lexicon, 1)).toBeUndefined();
    expect(settledInSoManyWords('yes breathe', lexicon, 1)).toBeUndefined();
  });
});
