/**
 * The session when the recogniser fails a turn: a recogniser that is gone (its thread
 * crashed, `RecognizerLostError`) ends the call saying why; any other failure of one turn
 * is reported and the call goes on. The real local reply engine on the demo clinic.
 */
import { describe, expect, it } from 'vitest';
import { RecognizerLostError } from '../stt/recognizer-lost.js';
import type { RecognitionResult, SpeechRecognizer } from '../stt/types.js';
import { until } from './testing/scripted-audio.js';
import { scriptedCall } from './testing/scripted-call.js';
import type { EndedReason } from './types.js';

/** Fails the first turn with `failure`; hears every later one as a question the clinic answers. */
function failingOnce(failure: Error): SpeechRecognizer {
  let opened = 0;
  return {
    provider: 'scripted',
    open: () => {
      opened += 1;
      const first = opened === 1;
      return {
        push: () => undefined,
        partial: () => '',
        finish: (): Promise<RecognitionResult> =>
          first
            ? Promise.reject(failure)
            : Promise.resolve({ text: 'what are your opening hours', model: 'domain' }),
        cancel: () => undefined,
      };
    },
    dispose: () => undefined,
  };
}

async function callWhoseFirstTurnFails(failure: Error) {
  let ended: EndedReason | null = null;
  const call = scriptedCall(failingOnce(failure), {
    ended: ({ reason }) => {
      ended = reason;
    },
  });
  call.session.start();
  await until(() => call.assistant('stopped') === 1, 'the greeting');
  call.quiet();
  call.speak();
  await until(() => call.messages.some((m) => m.type === 'error'), 'the error');
  return { ...call, ended: () => ended };
}

describe('CallSession when the recogniser fails a turn', () => {
  it('ends the call with pipeline-error-transcriber-failed when the recogniser is gone', async () => {
    const call = await callWhoseFirstTurnFails(new RecognizerLostError('it stopped (exit code 9)'));
    await until(() => call.ended() !== null, 'the call to end');
    expect(call.ended()).toBe('pipeline-error-transcriber-failed');
    expect(call.session.ended).toBe(true);
    const error = call.messages.find((m) => m.type === 'error');
    expect(error?.type === 'error' && error.error).toMatch(/exit code 9/);
    const status = call.messages.find((m) => m.type === 'status-update' && m.status === 'ended');
    expect(status).toMatchObject({ endedReason: 'pipeline-error-transcriber-failed' });
  }, 20_000);

  it('goes on with the call after any other failure of one turn, and answers the next', async () => {
    const call = await callWhoseFirstTurnFails(new Error('pocketsphinx: ps_end_utt failed (-1)'));
    expect(call.ended()).toBeNull();
    call.speak();
    await until(() => call.assistant('stopped') === 2, 'the answer to the next turn');
    expect(call.ended()).toBeNull();
    await call.session.end('customer-ended-call');
    expect(call.ended()).toBe('customer-ended-call');
  }, 20_000);
});
