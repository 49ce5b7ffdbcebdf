import { describe, expect, it } from 'vitest';
import { BriefIntent } from './brief-intent.js';
import { normalize } from './text.js';

const intent = new BriefIntent();
const asks = (said: string) => intent.asksForBrief(normalize(said));

describe('BriefIntent', () => {
  it('hears a request to pass something on to whoever sees the caller', () => {
    expect(asks('can you pass my details on to the nurse')).toBe(true);
    expect(asks('let the dentist know I am coming')).toBe(true);
    expect(asks('would you send a summary to the physio')).toBe(true);
  });

  it('hears the caller’s symptoms asked to be passed on when who it is for was misheard', () => {
    // A recogniser often mishears the name or title: the request stands on the verb and
    // the symptom.
    expect(asks('please tell a knock at her about my stiff neck')).toBe(true);
    expect(asks('could you let them know I keep feeling dizzy')).toBe(true);
    expect(asks('I want my gp to know about my rash')).toBe(true);
    expect(asks('can you write down that my ankle is swollen')).toBe(true);
    // A body part stands for what is wrong with it, as a symptom does.
    expect(asks('could you tell the physio about my wrist')).toBe(true);
    expect(asks('I need them to know about my shoulder')).toBe(true);
  });

  it('takes no question about the business, nor a request for the caller, for one', () => {
    expect(asks('can you tell me about the pain clinic')).toBe(false);
    expect(asks('please send me the opening hours')).toBe(false);
    expect(asks('let me know when you open')).toBe(false);
    expect(asks('I would like to know about my bill')).toBe(false);
    expect(asks('what do I need to know about parking')).toBe(false);
    // "Leave" and "give" have other senses: a misheard "car" is no request for the brief.
    expect(asks('is there somewhere to leave my cough')).toBe(false);
    expect(asks('can you give me something for a sore throat')).toBe(false);
    expect(asks('can you tell me if my knee brace is ready')).toBe(false);
  });
});
