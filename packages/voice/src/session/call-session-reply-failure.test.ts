/**
 * The session when the reply engine fails to weigh a turn's readings: the turn is answered
 * from the recogniser's best reading, the operator is told (a `choose` problem), and the
 * call goes on to answer the next turn. The real local reply engine on the demo clinic
 * answers; only its choice among readings is made to fail.
 */
import { describe, expect, it } from 'vitest';
import { LocalReplyEngine } from '../reply/local/engine.js';
import { demoAnswer, demoAssistant } from '../reply/testing/conversation.js';
import type { ReplyEngine } from '../reply/types.js';
import type { RecognitionResult, SpeechRecognizer } from '../stt/types.js';
import { until } from './testing/scripted-audio.js';
import { type ScriptedCall, scriptedCall } from './testing/scripted-call.js';
import type { SessionProblem } from './types.js';

/** Hears every turn as a question the clinic answers, with a reading beside it to weigh. */
const hearing: SpeechRecognizer = {
  provider: 'scripted',
  open: () => ({
    push: () => undefined,
    partial: () => 'what are your opening hours',
    finish: (): Promise<RecognitionResult> =>
      Promise.resolve({
        text: 'what are your opening hours',
        model: 'general',
        alternatives: ['what are your opening ours'],
      }),
    cancel: () => undefined,
  }),
  dispose: () => undefined,
};

/** The local engine, with `part` of it throwing `failure` every time. */
function failingTo(part: 'choose' | 'isComplete', failure: unknown): ReplyEngine {
  const engine = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
  return Object.assign(Object.create(engine) as ReplyEngine, {
    [part]: () => {
      throw failure;
    },
  });
}

/** Starts the call, and the caller says two turns, each answered before the next. */
async function twoTurnsAnswered(call: ScriptedCall): Promise<void> {
  call.session.start();
  await until(() => call.assistant('stopped') === 1, 'the greeting');
  call.quiet();
  call.speak();
  await until(() => call.assistant('stopped') === 2, 'the answer to the first turn');
  call.speak();
  await until(() => call.assistant('stopped') === 3, 'the answer to the second turn');
}

describe('CallSession when the reply engine cannot choose among the readings', () => {
  it('answers each turn from the best reading, tells the operator, and goes on', async () => {
    const problems: SessionProblem[] = [];
    const call = scriptedCall(
      hearing,
      { problem: (problem) => problems.push(problem) },
      {
        stages: {
          reply: failingTo('choose', new TypeError('text[word]?.split is not a function')),
        },
      },
    );
    await twoTurnsAnswered(call);
    const said = (role: 'user' | 'assistant') =>
      call.messages.flatMap((m) =>
        m.type === 'transcript' && m.role === role && m.transcriptType === 'final'
          ? [m.transcript]
          : [],
      );
    expect(said('user')).toEqual(['what are your opening hours', 'what are your opening hours']);
    // Each answer is told sentence by sentence, after the greeting's.
    const answers = said('assistant').join(' ');
    expect(answers.split(demoAnswer('hours'))).toHaveLength(3);
    expect(problems).toEqual([
      { stage: 'choose', error: 'text[word]?.split is not a function' },
      { stage: 'choose', error: 'text[word]?.split is not a function' },
    ]);
    expect(call.messages.some((m) => m.type === 'error')).toBe(false);
    await call.session.end('customer-ended-call');
  }, 20_000);
});

describe('CallSession when answering a turn fails', () => {
  it('tells the caller, and answers the next turn', async () => {
    let writes = 0;
    const call = scriptedCall(hearing, {
      // The call record's first write of a caller's words fails (its store is down).
      conversation: (messages) => {
        if (messages.at(-1)?.role !== 'user') return;
        writes += 1;
        if (writes === 1) throw new Error('the call record could not be written');
      },
    });
    call.session.start();
    await until(() => call.assistant('stopped') === 1, 'the greeting');
    call.quiet();
    call.speak();
    await until(() => call.messages.some((m) => m.type === 'error'), 'the error');
    const error = call.messages.find((m) => m.type === 'error');
    expect(error?.type === 'error' && error.error).toBe(
      "The caller's turn could not be answered: the call record could not be written",
    );
    call.speak();
    await until(() => call.assistant('stopped') === 2, 'the answer to the next turn');
    expect(call.session.ended).toBe(false);
    await call.session.end('customer-ended-call');
  }, 20_000);
});

describe('CallSession when the reply engine cannot judge whether a turn is whole', () => {
  it('ends the turns by the words’ form, tells the operator once, and answers them', async () => {
    const problems: SessionProblem[] = [];
    const call = scriptedCall(
      hearing,
      { problem: (problem) => problems.push(problem) },
      {
        stages: { reply: failingTo('isComplete', new Error('the engine is confused')) },
        // Long enough that the engine is asked whether a turn is whole before it ends.
        settings: { endpointSilenceMs: 500 },
      },
    );
    await twoTurnsAnswered(call);
    expect(problems).toEqual([{ stage: 'complete', error: 'the engine is confused' }]);
    await call.session.end('customer-ended-call');
  }, 20_000);
});
