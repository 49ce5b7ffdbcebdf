import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../language/lexicon.js';
import { agreement, answerForms, likeAnswers } from './answer-words.js';

describe('how like the answers to a question a reading is', () => {
  const lexicon = Lexicon.default();

  it('scores an answer of the kind asked above other words, by words and their order', () => {
    const howLong = answerForms('How long have you had these symptoms?', lexicon);
    expect(likeAnswers('for about three days', howLong)).toBeGreaterThan(
      likeAnswers('four about tree daze', howLong),
    );
    // The same words out of order are less like an answer.
    expect(likeAnswers('for about three days', howLong)).toBeGreaterThan(
      likeAnswers('days three about for', howLong),
    );
    const allergies = answerForms('Do you have any allergies?', lexicon);
    expect(likeAnswers('i am allergic to penicillin', allergies)).toBeGreaterThan(
      likeAnswers('i am a legit to pencil in', allergies),
    );
  });

  it('knows no answers for a question of no known kind, and nothing of no words', () => {
    const forms = answerForms('What is your favourite colour?', lexicon);
    expect(forms.words.size).toBe(0);
    expect(likeAnswers('blue', forms)).toBe(0);
    expect(likeAnswers('', answerForms('Since when?', lexicon))).toBe(0);
  });

  it('builds a question’s answer forms once', () => {
    const question = 'Are you taking any medicines at the moment?';
    expect(answerForms(question, lexicon)).toBe(answerForms(question, lexicon));
  });
});

describe('how much other readings of an utterance agree with one', () => {
  it('is 1 for readings all the same, less for each word the others differ in, 0 alone', () => {
    expect(agreement('about two weeks', ['about two weeks', 'about two weeks'])).toBe(1);
    // One word of three differs in one of the two others.
    expect(agreement('about two weeks', ['about two weeks', 'about to weeks'])).toBeCloseTo(5 / 6);
    expect(agreement('about two weeks', ['what a nice day'])).toBe(0);
    expect(agreement('about two weeks', [])).toBe(0);
  });

  it('is higher for the reading the others share than for an outlier', () => {
    const readings = [
      'my cola muscle and my thigh',
      'i pulled a muscle in my thigh',
      'i pulled the muscle in my thigh',
    ];
    const others = (i: number) => readings.filter((_, j) => j !== i);
    expect(agreement(readings[1] as string, others(1))).toBeGreaterThan(
      agreement(readings[0] as string, others(0)),
    );
  });
});
