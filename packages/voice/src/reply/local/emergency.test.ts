import { describe, expect, it } from 'vitest';
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
});
