import { describe, expect, it } from 'vitest';
import { normalizeText, numberToWords, ordinalToWords } from './normalize.js';

describe('normalizeText', () => {
  it('lower-cases and removes punctuation', () => {
    expect(normalizeText('What are your opening hours?')).toBe('what are your opening hours');
    expect(normalizeText('  Hello,   WORLD!! ')).toBe('hello world');
  });

  it('keeps contractions as the dictionary spells them', () => {
    expect(normalizeText("I don't know, I’m not sure.")).toBe("i don't know i'm not sure");
    expect(normalizeText("'quoted' words")).toBe('quoted words');
  });

  it('spells numbers, money and ordinals', () => {
    expect(normalizeText('about 3 days')).toBe('about three days');
    expect(normalizeText('costs $60.')).toBe('costs sixty dollars');
    expect(normalizeText('on the 21st')).toBe('on the twenty first');
    expect(normalizeText('call 555-1234')).toBe('call five five five one two three four');
    expect(normalizeText('2.5 mg')).toBe('two point five mg');
  });

  it('splits hyphenated words and maps symbols', () => {
    expect(normalizeText('follow-up & check')).toBe('follow up and check');
  });
});

describe('numberToWords', () => {
  it('covers 0 to 100', () => {
    expect(numberToWords(0)).toBe('zero');
    expect(numberToWords(13)).toBe('thirteen');
    expect(numberToWords(40)).toBe('forty');
    expect(numberToWords(99)).toBe('ninety nine');
    expect(numberToWords(100)).toBe('one hundred');
    expect(ordinalToWords(2)).toBe('second');
    expect(ordinalToWords(30)).toBe('thirtieth');
  });
});
