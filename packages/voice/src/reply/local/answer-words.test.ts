import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../language/lexicon.js';
import { answerForms, likeAnswers } from './answer-words.js';

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
