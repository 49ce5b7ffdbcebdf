import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../language/lexicon.js';
import { closestInSound, soundsOf } from './sound.js';

const lexicon = Lexicon.default();

describe('readings compared by sound', () => {
  it('spells each word in its phones, and keeps the letters of a word the dictionary lacks', () => {
    const chest = lexicon.sounds('chest') ?? '';
    const pain = lexicon.sounds('pain') ?? '';
    expect(chest).toHaveLength(4); // CH EH S T
    expect(soundsOf('chest pain', lexicon)).toBe(chest + pain);
    expect(soundsOf('chast pain', lexicon)).toBe(`chast${pain}`);
    expect(soundsOf('  ', lexicon)).toBe('');
  });

  it('finds the readings that sound most like another, ties included', () => {
    // Two recognisers' readings of one sentence: spelled apart, alike in sound.
    const first = ['i have chest do you', 'i have test do you', 'i have chest pain'];
    expect(closestInSound('i am cast vain', first, lexicon)).toEqual([2]);
    expect(closestInSound('i have test do you', first, lexicon)).toEqual([1]);
    expect(closestInSound('x', ['a', 'a'], lexicon)).toEqual([0, 1]);
  });
});
