/**
 * The session and a recogniser whose second reading of a turn settles after the turn was
 * answered (`RecognitionResult.recheck`), with the real local reply engine on the demo
 * clinic: an emergency heard only in that reading takes back the reply already begun and
 * is answered as one; any other reading changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { RecognitionResult, SpeechRecognizer } from '../stt/types.js';
import { until } from './testing/scripted-audio.js';
import { scriptedCall } from './testing/scripted-call.js';
import type { RecordMessage, SessionProblem } from './types.js';

/** A caller in trouble, in their own words (no entry of the demo clinic uses them). */
const TROUBLE = 'my grandmother collapsed in the kitchen this morning';
/** How the recogniser's early readings misheard it: no emergency in it. */
const MISHEARD = 'my grand mother called in the kitchen this morning';

/** A later turn's words: a question the demo clinic answers, heard outright. */
const NEXT = 'what are your opening hours';

/**
 * One utterance, answered as `MISHEARD`, whose recheck the test settles when it likes;
 * any later one is heard as {@link NEXT}, with nothing to recheck.
 */
function recheckingRecognizer(): SpeechRecognizer & {
  settle: (late: string[]) => void;
  fail: (error: Error) => void;
} {
  let settle: (late: string[]) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const recheck = new Promise<string[]>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  let opened = 0;
  return {
    provider: 'scripted',
    settle: (late) => settle(late),
    fail: (error) => fail(error),
    open: () => {
      opened += 1;
      const first = opened === 1;
      return {
        push: () => undefined,
        partial: () => '',
        finish: (): RecognitionResult =>
          first
            ? {
                text: MISHEARD,
                model: 'general',
                secondOpinion: ['my grandmother cold in the kitchen this morning'],
                recheck,
              }
            : { text: NEXT, model: 'domain' },
        cancel: () => undefined,
      };
    },
    dispose: () => undefined,
  };
}

/** A call on the demo clinic whose caller says one turn; answers what the test needs. */
async function callWithOneTurn() {
  const recognizer = recheckingRecognizer();
  let record: readonly RecordMessage[] = [];
  const problems: SessionProblem[] = [];
  const { session, messages, assistant, quiet, speak } = scriptedCall(recognizer, {
    conversation: (r) => {
      record = r;
    },
    problem: (p) => problems.push(p),
  });
  session.start();
  // The greeting, played out before the caller speaks.
  await until(() => assistant('stopped') === 1, 'the greeting');
  quiet();
  speak();
  const userFinals = () =>
    messages.flatMap((m) =>
      m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final'
        ? [m.transcript]
        : [],
    );
  const assistantSaid = () =>
    messages.flatMap((m) =>
      m.type === 'transcript' && m.role === 'assistant' ? [m.transcript] : [],
    );
  const conversation = () => {
    const updates = messages.filter((m) => m.type === 'conversation-update');
    const last = updates.at(-1);
    return last?.type === 'conversation-update' ? last.conversation : [];
  };
  // The reply to the misheard words has begun playing.
  await until(() => assistant('started') === 2, 'the reply to the first reading');
  return {
    session,
    /** The caller says another turn. */
    speak,
    recognizer,
    messages,
    problems,
    record: () => record,
    assistant,
    userFinals,
    assistantSaid,
    conversation,
  };
}

describe('CallSession with a recheck of the turn it answered', () => {
  it('takes back the reply and answers the emergency heard only in the whole-turn reading', async () => {
    const call = await callWithOneTurn();
    expect(call.userFinals()).toEqual([MISHEARD]);
    const before = call.messages.length;
    call.recognizer.settle([TROUBLE]);
    await until(
      () => call.assistantSaid().some((s) => /emergency number/i.test(s)),
      'the urgent answer',
    );
    await until(() => call.assistant('stopped') === 3, 'the urgent answer to end');
    await call.session.end('customer-ended-call');

    const after = call.messages.slice(before);
    // The caller's words corrected, then the reply stopped and its audio cleared, as when the
    // caller talks over it: it had begun playing.
    expect(after.slice(0, 3)).toEqual([
      { type: 'transcript', role: 'user', transcriptType: 'final', transcript: TROUBLE },
      { type: 'speech-update', role: 'assistant', status: 'stopped' },
      { type: 'clear' },
    ]);
    // The withdrawn reply said none of its sentences in full; the urgent one followed.
    const said = call.assistantSaid().slice(1);
    expect(said.length).toBeGreaterThan(0);
    expect(said.join(' ')).toMatch(/emergency number/i);
    // The conversation goes on from the corrected words, with one turn of the caller's.
    const users = call.conversation().filter((m) => m.role === 'user');
    expect(users).toEqual([{ role: 'user', content: TROUBLE }]);
    expect(call.conversation().at(-1)?.content).toMatch(/emergency number/i);
    // The record keeps the call as it went: the caller's corrected words, once.
    const recorded = call.record().filter((m) => m.role === 'user');
    expect(recorded.map((m) => m.message)).toEqual([TROUBLE]);
  }, 20_000);

  it('changes nothing when the whole-turn reading hears no emergency', async () => {
    const call = await callWithOneTurn();
    const reply = call.assistantSaid().length;
    call.recognizer.settle(['my grand mother cold in the kitchen this morning']);
    await until(() => call.assistant('stopped') === 2, 'the reply to end');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call.session.end('customer-ended-call');
    expect(call.userFinals()).toEqual([MISHEARD]);
    expect(call.messages.some((m) => m.type === 'clear')).toBe(false);
    expect(call.assistantSaid().length).toBeGreaterThan(reply);
    expect(call.assistantSaid().join(' ')).not.toMatch(/emergency number/i);
    expect(call.conversation().filter((m) => m.role === 'user')).toEqual([
      { role: 'user', content: MISHEARD },
    ]);
  }, 20_000);

  it('answers the caller’s next turn while the last one’s recheck is still out, and its emergency after', async () => {
    const call = await callWithOneTurn();
    await until(() => call.assistant('stopped') === 2, 'the first reply to end');
    call.speak();
    await until(() => call.userFinals().includes(NEXT), 'the next turn heard');
    await until(() => call.assistant('stopped') === 3, 'the next reply to end');
    expect(call.assistantSaid().join(' ')).toMatch(/open/i);
    // The recheck settles late: its emergency is answered, as a turn of its own.
    call.recognizer.settle([TROUBLE]);
    await until(
      () => call.assistantSaid().some((s) => /emergency number/i.test(s)),
      'the urgent answer',
    );
    await call.session.end('customer-ended-call');
    expect(call.userFinals()).toEqual([MISHEARD, NEXT, TROUBLE]);
    expect(call.conversation().filter((m) => m.role === 'user')).toEqual([
      { role: 'user', content: MISHEARD },
      { role: 'user', content: NEXT },
      { role: 'user', content: TROUBLE },
    ]);
  }, 20_000);

  it('goes on with the call when the whole-turn reading fails, and reports it, not to the caller', async () => {
    const call = await callWithOneTurn();
    call.recognizer.fail(new Error('the recogniser stopped'));
    await until(() => call.problems.length === 1, 'the problem reported');
    expect(call.problems).toEqual([{ stage: 'recheck', error: 'the recogniser stopped' }]);
    await until(() => call.assistant('stopped') === 2, 'the reply to end');
    // The caller heard no error, and the call answers their next turn as ever.
    expect(call.messages.some((m) => m.type === 'error' || m.type === 'clear')).toBe(false);
    call.speak();
    await until(() => call.assistant('stopped') === 3, 'the next reply to end');
    await call.session.end('customer-ended-call');
    expect(call.userFinals()).toEqual([MISHEARD, NEXT]);
    expect(call.assistantSaid().join(' ')).toMatch(/open/i);
  }, 20_000);
});
