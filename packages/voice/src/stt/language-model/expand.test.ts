import { describe, expect, it } from 'vitest';
import { answersTo, expandClarifying, expandQuestion, expandVocabulary } from './expand.js';

describe('expandVocabulary', () => {
  const corpus = expandVocabulary({
    sentences: [
      'What are your opening hours?',
      'Riverside Clinic is at 12 River Road. It has parking.',
    ],
    keywords: ['physiotherapy'],
    assistantQuestions: [
      'Do you have any allergies?',
      'Are you taking any medicines at the moment?',
    ],
  });

  it('keeps the sentences, weighted above their variants', () => {
    expect(corpus.get('what are your opening hours')).toBeGreaterThan(
      corpus.get('your opening hours') ?? 0,
    );
    // Paragraphs are split into sentences, numbers spelled out.
    expect(corpus.has('riverside clinic is at twelve river road')).toBe(true);
    expect(corpus.has('it has parking')).toBe(true);
  });

  it('adds prefixes, suffixes and sub-phrases', () => {
    expect(corpus.has('what are your')).toBe(true);
    expect(corpus.has('opening hours')).toBe(true);
    expect(corpus.has('hello what are your opening hours')).toBe(true);
    expect(corpus.has('what are your opening hours please')).toBe(true);
  });

  it('adds keywords alone and in carrier phrases', () => {
    expect(corpus.has('physiotherapy')).toBe(true);
    expect(corpus.has('i said physiotherapy')).toBe(true);
  });

  it('adds small talk, durations and numbers', () => {
    for (const s of [
      'yes',
      'no thank you',
      'goodbye',
      'can you repeat that',
      'about three days',
      'since yesterday',
      'forty two',
    ]) {
      expect(corpus.has(s), s).toBe(true);
    }
  });

  it("adds the caller's answers to the assistant's questions", () => {
    expect(corpus.has('no i do not have any allergies')).toBe(true);
    expect(corpus.has('no i am not taking anything')).toBe(true);
  });
});

describe('answersTo', () => {
  it('turns the question around', () => {
    expect(answersTo('Do you have any allergies?')).toContain('i have allergies');
    expect(answersTo('What is the main reason for your visit?')).toContain(
      'the main reason for my visit is',
    );
    expect(answersTo('Are you taking any medicines at the moment?')).toContain(
      'i am not taking any medicines at the moment',
    );
  });
});

describe('expandQuestion', () => {
  it('weighs "none" above any one allergen or medicine, and names the common ones', () => {
    const allergies = expandQuestion('Do you have any allergies?');
    const medicines = expandQuestion('Are you taking any medicines at the moment?');
    for (const [corpus, named] of [
      [allergies, ['peanuts', 'latex', 'i am allergic to penicillin']],
      [medicines, ['paracetamol', 'i take metformin', 'an inhaler']],
    ] as const) {
      const none = corpus?.get('none') ?? 0;
      for (const n of named) {
        expect(corpus?.get(n), n).toBeGreaterThan(0);
        expect(none, n).toBeGreaterThan(corpus?.get(n) ?? 0);
      }
    }
  });
});

describe('expandQuestion, asking how long', () => {
  const howLong = expandQuestion('How long has this been going on?');
  const reason = expandQuestion('What is the reason for your visit?');

  it('expects ranges, something on and off, a duration up to now and a part of a day', () => {
    for (const s of [
      'five or six weeks',
      'an hour or two',
      'on and off for ten years',
      'for the past couple of months',
      'one week now',
      'since tuesday afternoon',
    ]) {
      expect(howLong?.get(s), s).toBeGreaterThan(0);
    }
  });

  it('keeps them to a question asking how long, and to whole numbers of units', () => {
    expect(reason?.has('five or six weeks')).toBe(false);
    // Neighbouring numbers only, and no "a couple of or …".
    expect(howLong?.has('two or nine days')).toBe(false);
    expect([...(howLong?.keys() ?? [])].some((s) => /\bof or\b/.test(s))).toBe(false);
  });
});

describe('expandQuestion, asking what is wrong', () => {
  const wrong = expandQuestion('What seems to be the problem?');
  const said = [...(wrong?.keys() ?? [])];

  it('expects everyday states and doings, of the caller and of whom they speak of', () => {
    for (const s of [
      'i feel dizzy',
      'she is itchy',
      'he keeps coughing',
      'she has been vomiting',
      'he has stopped eating',
      'i have a temperature',
    ]) {
      expect(wrong?.get(s), s).toBeGreaterThan(0);
    }
    // Every complaint is said of someone else too, and on someone's body.
    expect(said.some((s) => /^(he|she) has a lump$/.test(s))).toBe(true);
    expect(said.some((s) => /^there is a \w+ on (his|her) \w+$/.test(s))).toBe(true);
  });

  it('names family members and pets as whom a caller speaks of, with a possessive', () => {
    for (const who of ['son', 'daughter', 'dog', 'cat', 'rabbit']) {
      expect(
        said.some((s) => s.startsWith(`my ${who} has `)),
        who,
      ).toBe(true);
      expect(
        said.some((s) => s.startsWith(`our ${who} keeps `)),
        who,
      ).toBe(true);
    }
  });

  it('keeps them to a question about what is wrong', () => {
    const howLong = expandQuestion('How long has this been going on?');
    expect(howLong?.has('he keeps coughing')).toBe(false);
  });
});

describe('expandClarifying', () => {
  const domain = expandVocabulary({ sentences: ['Can I book an appointment?'], keywords: [] });
  const corpus = expandClarifying(domain);

  it('expects "the first one" as much as the assistant’s own questions, and no numbers', () => {
    expect(corpus.get('the first one')).toBe(domain.get('can i book an appointment'));
    expect(corpus.has('both')).toBe(true);
    expect(domain.has('the first one')).toBe(false);
    // A reply to "A, or B?" is not a count.
    expect(domain.has('thirty one')).toBe(true);
    expect(corpus.has('thirty one')).toBe(false);
    // Whatever else the caller may say instead is there as in the domain model.
    expect(corpus.get('can i book an appointment')).toBe(domain.get('can i book an appointment'));
    expect(corpus.has('no thank you')).toBe(true);
  });
});
