import { describe, expect, it } from 'vitest';
import { corpusWordErrorRate, wordErrors, wordErrorRate } from './wer.js';

describe('word error rate', () => {
  it('counts substitutions, deletions and insertions against the reference', () => {
    expect(wordErrors('book an appointment', 'book the appointment')).toEqual({
      errors: 1,
      words: 3,
    });
    expect(wordErrors('book an appointment', 'book appointment')).toEqual({ errors: 1, words: 3 });
    expect(wordErrors('book an appointment', 'please book an appointment today')).toEqual({
      errors: 2,
      words: 3,
    });
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
  });

  it('scores a contraction and its long form as the same words', () => {
    expect(wordErrorRate('i am allergic to penicillin', "i'm allergic to penicillin")).toBe(0);
    expect(wordErrorRate("I don't smoke", 'i do not smoke')).toBe(0);
    expect(wordErrorRate('i cannot breathe', "i can't breathe")).toBe(0);
    // Only real equivalents: "its" is not "it is".
    expect(wordErrorRate('it is sore', 'its sore')).toBeCloseTo(2 / 3);
  });

  it('pools errors over a corpus, normalising numbers and punctuation', () => {
    expect(
      corpusWordErrorRate([
        ['For 3 days.', 'for three days'],
        ['since monday', 'since sunday'],
      ]),
    ).toBeCloseTo(1 / 5);
  });
});
