import { describe, expect, it } from 'vitest';
import { EMERGENCY_PHRASES, spokenPhrase } from '../../language/emergency-phrases.js';
import { EmergencyDetector } from './emergency.js';
import { normalize } from './text.js';

const detector = new EmergencyDetector();
const detect = (said: string) => detector.detect(normalize(said));

describe('EmergencyDetector', () => {
  it('hears a phrase in other forms of its words and with a few words between', () => {
    expect(detect('My uncle collapses every time he stands up')).toBe('collapse');
    expect(detect('his chest really hurts')).toBe('chest hurt');
  });

  it('hears a caller describing someone else: any person stands for the first', () => {
    expect(detect('She fell off the ladder and hit her head')).toBe('hit my head');
    expect(detect('Our neighbour says he wants to harm himself')).toBe('harm myself');
    expect(detect('They told me they would end their life')).toBe('end my life');
  });

  it('hears the first-aid signs of water, electricity and a body that will not wake', () => {
    expect(detect('someone is drowning in the lake')).toBe('drown');
    expect(detect('my son nearly drowned, they pulled him out of the water')).toBe('drown');
    expect(detect('my husband got an electric shock from the cooker')).toBe('electric shock');
    expect(detect('the baby is turning blue')).toBe('turn blue');
    expect(detect('they pulled her out of the water')).toBe('pull out of the water');
    expect(detect('a boy went under the water and has not come up')).toBe('go under the water');
    expect(detect('there is a man face down in the water')).toBe('face down in the water');
    expect(detect('an old lady is struggling in the water')).toBe('struggle in the water');
    expect(detect('a man is struggling out in deep water')).toBe('struggle in deep');
    expect(detect('my son is struggling in the deep end')).toBe('struggle in deep');
    // Struggling for breath is still that.
    expect(detect('my mother is struggling to breathe')).toBe('struggle to breathe');
    expect(detect('I can not wake my grandad')).toBe('can not wake');
  });

  it('hears every phrase of its list said as written', () => {
    // A word one phrase wants only as written ("fit=") must not hide another phrase that
    // wants it by its lemma.
    const missed = EMERGENCY_PHRASES.map(spokenPhrase).filter(
      (phrase) => detect(phrase) === undefined,
    );
    expect(missed).toEqual([]);
  });

  it('needs the whole phrase, in order', () => {
    expect(detect('Can I hit the gym after my head scan?')).toBeUndefined();
    expect(detect('Is the head nurse in today?')).toBeUndefined();
    expect(detect('Myself, I prefer mornings')).toBeUndefined();
  });

  it('hears a phrase with one word spelled a letter off, as a recogniser that spells writes it', () => {
    expect(detect('my father has chast pain')).toBe('chest pain');
    expect(detect('I can not brethe')).toBe('can not breathe');
    expect(detect('she had a heart atack')).toBe('heart attack');
  });

  it('takes a real word as said, and allows one slip only, in a phrase of two words or more', () => {
    // "chess" is a word: not a slip of "chest".
    expect(detect('I have chess pain')).toBeUndefined();
    expect(detect('a chast pian')).toBeUndefined();
    // A phrase of one word gives no other word to confirm a slip.
    expect(detect('he had a stroak')).toBeUndefined();
  });

  it('remembers what it heard in a sentence apart for spelled and sounded slips', () => {
    // A detector of its own: what others were asked must not decide this.
    const fresh = new EmergencyDetector();
    const said = normalize('she took too many of her bills');
    expect(fresh.detect(said, { soundSlips: true })).toBe('take too many pill');
    expect(fresh.detect(said)).toBeUndefined();
    expect(fresh.detect(said, { soundSlips: true })).toBe('take too many pill');
    const other = new EmergencyDetector();
    expect(other.detect(said)).toBeUndefined();
    expect(other.detect(said, { soundSlips: true })).toBe('take too many pill');
  });

  it('lets a word a phone off stand for a phrase word when asked to, one slip only', () => {
    const slips = (said: string) => detector.detect(normalize(said), { soundSlips: true });
    expect(detect('she took too many of her bills')).toBeUndefined();
    expect(slips('she took too many of her bills')).toBe('take too many pill');
    expect(slips('my father has chest bane')).toBe('chest pain');
    // Both words of the phrase off is too far.
    expect(slips('my father has test bane')).toBeUndefined();
  });

  it('hears road accidents, a fit and an overdose of pills, not a meeting that ran over', () => {
    expect(detect('my neighbour was run over outside the shop')).toBe('be run over');
    expect(detect('the car ran over our dog')).toBe('car run over');
    expect(detect('she was in a car crash this morning')).toBe('car crash');
    expect(detect('my appointment ran over by ten minutes')).toBeUndefined();
    expect(detect('can you run over the times again')).toBeUndefined();
    expect(detect('my grandson took too many of his tablets')).toBe('take too many tablet');
    expect(detect('I have too many pills left over')).toBeUndefined();
  });

  it('hears the signs of a stroke, of a nerve emergency and of an eye emergency', () => {
    expect(detect('her face is drooping on one side')).toBe('face droop');
    expect(detect('dad has slurred speech since lunch')).toBe('slur speech');
    expect(detect('I woke up and could not feel my right arm')).toBe('can not feel my arm');
    expect(detect('he can not move his legs after the fall')).toBe('can not move my leg');
    expect(detect('she has lost control of her bladder')).toBe('lose control of my bladder');
    expect(detect('my son has lost his sight in one eye')).toBe('lose my sight');
    expect(detect('I got some oven cleaner chemicals in my eye')).toBe('chemical in my eye');
    // Everyday sentences with the same words are not emergencies.
    expect(detect('I can not see the doctor until Friday')).toBeUndefined();
    expect(detect('can you move my appointment')).toBeUndefined();
    expect(detect('is the chemist in my area open')).toBeUndefined();
  });

  it('matches a word marked as written only as written: "a fit", not "a fitting"', () => {
    expect(detect('I think my brother is having a fit')).toBe('have a fit');
    expect(detect('he keeps having fits')).toBe('have fits');
    expect(detect('I have a fitting for my hearing aid')).toBeUndefined();
  });

  it('still matches by its lemma, in another phrase, a word one phrase wants as written', () => {
    const detector = new EmergencyDetector({ phrases: ['having fits=', 'fit and collapse'] });
    expect(detector.detect('he keeps having fits')).toBe('have fits');
    expect(detector.detect('she fits and collapses')).toBe('fit and collapse');
    expect(detector.detect('she is having a fitting')).toBeUndefined();
  });
});
