import { describe, expect, it } from 'vitest';
import {
  correction,
  isGoodbye,
  isNothingElse,
  isQuestion,
  isStopBrief,
  smallTalk,
  yesNo,
} from './intents.js';

describe('small-talk intents', () => {
  it('recognises whole-utterance small talk only', () => {
    expect(smallTalk('hello')).toBe('greeting');
    expect(smallTalk('hi there')).toBe('greeting');
    expect(smallTalk('good morning')).toBe('greeting');
    expect(smallTalk('hello where is the pharmacy')).toBeUndefined();
    expect(smallTalk('thank you')).toBe('thanks');
    expect(smallTalk('ok thanks a lot that was helpful')).toBe('thanks');
    expect(smallTalk('thanks where do i park')).toBeUndefined();
    expect(smallTalk('can you repeat that')).toBe('repeat');
    expect(smallTalk('say that again')).toBe('repeat');
    expect(smallTalk('sorry what')).toBe('repeat');
    expect(smallTalk('i need a repeat prescription')).toBeUndefined();
    expect(smallTalk('what can you do')).toBe('capabilities');
    expect(smallTalk('help')).toBe('capabilities');
    expect(smallTalk('')).toBeUndefined();
  });

  it('ends on goodbyes and the configured phrases', () => {
    expect(isGoodbye('goodbye')).toBe(true);
    expect(isGoodbye('ok bye then')).toBe(true);
    expect(isGoodbye('goodbye for now')).toBe(true);
    // A goodbye the sentence runs on from is not one.
    expect(isGoodbye('my tooth hurts bye i can not chew on that side')).toBe(false);
    expect(isGoodbye('that is all thank you', ['that is all thank you'])).toBe(true);
    expect(isGoodbye('that is all thank you')).toBe(false);
    expect(isGoodbye('maybe')).toBe(false);
    // A question is not a goodbye, unless it starts with one.
    expect(isGoodbye('can i see you tomorrow')).toBe(false);
    expect(isGoodbye('how do we book when bye then')).toBe(false);
    expect(isGoodbye('see you')).toBe(true);
    expect(isGoodbye('bye can you')).toBe(true);
    expect(isGoodbye('what a help thank you goodbye')).toBe(true);
    expect(isGoodbye('could you hang up', ['could you hang up'])).toBe(true);
  });

  it('tells yes from no', () => {
    expect(yesNo('yes')).toBe('yes');
    expect(yesNo('yeah that is right')).toBe('yes');
    expect(yesNo('um yes please')).toBe('yes');
    expect(yesNo('ok')).toBe('yes');
    expect(yesNo('that is correct')).toBe('yes');
    expect(yesNo('no')).toBe('no');
    expect(yesNo('nope that is wrong')).toBe('no');
    expect(yesNo('not really')).toBe('no');
    expect(yesNo('about three days')).toBeUndefined();
  });

  it('takes the new value out of a correction', () => {
    expect(correction('no i meant five days')).toBe('five days');
    expect(correction('sorry i meant two weeks')).toBe('two weeks');
    expect(correction('actually it is three weeks')).toBe('three weeks');
    expect(correction('i meant ibuprofen')).toBe('ibuprofen');
    expect(correction('no i am not taking anything')).toBeUndefined();
    expect(correction('i mean i have a cough')).toBeUndefined();
    expect(correction('no i meant')).toBeUndefined();
  });

  it('tells questions from statements without punctuation', () => {
    expect(isQuestion('where is the pharmacy')).toBe(true);
    expect(isQuestion('sorry do you take my insurance')).toBe(true);
    expect(isQuestion('and what are your opening hours')).toBe(true);
    expect(isQuestion('can you tell me the address')).toBe(true);
    expect(isQuestion('i would like to know the price')).toBe(true);
    expect(isQuestion('i need a prescription refill')).toBe(false);
    expect(isQuestion('about three days')).toBe(false);
  });

  it('knows "stop the brief" and "nothing else"', () => {
    expect(isStopBrief('stop the brief')).toBe(true);
    expect(isStopBrief('never mind')).toBe(true);
    expect(isStopBrief('i need to cancel my appointment')).toBe(false);
    expect(isNothingElse('no thank you')).toBe(true);
    expect(isNothingElse('no that is all')).toBe(true);
    expect(isNothingElse('no where is the pharmacy')).toBe(false);
  });
});
