/**
 * A turn's metrics say where its recognition wait went when the recogniser measured it
 * (`RecognitionResult.waits`), and nothing about parts it did not measure: the session and
 * a scripted recogniser, with the real local reply engine on the demo clinic.
 */
import { describe, expect, it } from 'vitest';
import type { RecognitionResult, SpeechRecognizer } from '../stt/types.js';
import { until } from './testing/scripted-audio.js';
import { scriptedCall } from './testing/scripted-call.js';
import type { TurnMetrics } from './types.js';

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
    const metrics: TurnMetrics[] = [];
    const { session, assistant, quiet, speak } = scriptedCall(recognizer, {
      metrics: (m) => metrics.push(m),
    });
    session.start();
    await until(() => assistant('stopped') === 1, 'the greeting');
    quiet();
    speak();
    await until(() => metrics.length === 1, 'the first turn’s metrics');
    await until(() => assistant('stopped') === 2, 'the first reply');
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
