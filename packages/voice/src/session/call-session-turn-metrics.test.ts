/**
 * A turn's metrics say where its recognition wait went when the recogniser measured it
 * (`RecognitionResult.waits`), and nothing about parts it did not measure: the session and
 * a scripted recogniser, with the real local reply engine on the demo clinic.
 */
import { describe, expect, it } from 'vitest';
import { LocalReplyEngine } from '../reply/local/engine.js';
import { demoAssistant } from '../reply/testing/conversation.js';
import type { RecognitionResult, SpeechRecognizer } from '../stt/types.js';
import { CallSession } from './call-session.js';
import { frames, toneSynthesizer, until } from './testing/scripted-audio.js';
import type { CallSessionListener, TurnMetrics } from './types.js';
import type { ServerMessage } from '@talkbooth/protocol';

/** Each utterance is heard as the next of `results`. */
function scriptedRecognizer(results: RecognitionResult[]): SpeechRecognizer {
  let opened = 0;
  return {
    provider: 'scripted',
    open: () => {
      const result = results[opened++] ?? { text: '', model: 'domain' };
      return {
        push: () => undefined,
        partial: () => '',
        finish: () => result,
        cancel: () => undefined,
      };
    },
    dispose: () => undefined,
  };
}

describe('CallSession turn metrics', () => {
  it('reports the parts of the recognition wait the recogniser measured, and only those', async () => {
    const recognizer = scriptedRecognizer([
      {
        text: 'what are your opening hours',
        model: 'general',
        waits: { queuedMs: 40.25, decodingMs: 12, secondOpinionMs: 80.04 },
      },
      { text: 'where are you located', model: 'domain' },
    ]);
    const messages: ServerMessage[] = [];
    const metrics: TurnMetrics[] = [];
    const listener: CallSessionListener = {
      audio: () => undefined,
      message: (m) => messages.push(m),
      conversation: () => undefined,
      metrics: (m) => metrics.push(m),
      problem: () => undefined,
      ended: () => undefined,
    };
    const session = new CallSession(
      {
        recognizer,
        vad: { isSpeech: (f) => Math.abs(f[0] ?? 0) > 1000, dispose: () => undefined },
        synthesizer: toneSynthesizer,
        voice: 'none',
        reply: new LocalReplyEngine({ assistant: demoAssistant }),
      },
      { endpointSilenceMs: 200, playbackLeadMs: 100 },
      listener,
    );
    const assistantStopped = () =>
      messages.filter(
        (m) => m.type === 'speech-update' && m.role === 'assistant' && m.status === 'stopped',
      ).length;
    const speak = () => {
      for (const f of [...frames(20, 10), ...frames(40, 8000), ...frames(15, 10)])
        session.pushCallerAudio(f);
    };
    session.start();
    await until(() => assistantStopped() === 1, 'the greeting');
    speak();
    await until(() => metrics.length === 1, 'the first turn’s metrics');
    await until(() => assistantStopped() === 2, 'the first reply');
    speak();
    await until(() => metrics.length === 2, 'the second turn’s metrics');
    await session.end('customer-ended-call');

    const [first, second] = metrics;
    expect(first).toMatchObject({
      turn: 1,
      recognitionModel: 'general',
      recognitionQueuedMs: 40.3,
      recognitionDecodingMs: 12,
      secondOpinionWaitMs: 80,
    });
    expect(second?.recognitionModel).toBe('domain');
    expect(second).not.toHaveProperty('recognitionQueuedMs');
    expect(second).not.toHaveProperty('recognitionDecodingMs');
    expect(second).not.toHaveProperty('secondOpinionWaitMs');
  });
});
