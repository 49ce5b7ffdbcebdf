/**
 * The session when the voice fails: a synthesiser that throws while speaking the greeting
 * (its engine is gone) ends the call saying why, as a reply it fails to speak does, rather
 * than leave the caller in silence; so does a fault in hearing the caller's audio, which
 * had reached the socket's handler, or no handler at all. The real local reply engine on
 * the demo clinic.
 */
import { describe, expect, it } from 'vitest';
import type { SpeechRecognizer } from '../stt/types.js';
import type { SpeechSynthesizer } from '../tts/types.js';
import { until } from './testing/scripted-audio.js';
import { scriptedCall } from './testing/scripted-call.js';
import type { EndedReason } from './types.js';

const deaf: SpeechRecognizer = {
  provider: 'scripted',
  open: () => ({
    push: () => undefined,
    partial: () => '',
    finish: () => Promise.resolve({ text: '', model: 'domain' }),
    cancel: () => undefined,
  }),
  dispose: () => undefined,
};

const broken: SpeechSynthesizer = {
  provider: 'broken',
  sampleRate: 16000,
  // eslint-disable-next-line require-yield -- fails before its first chunk
  async *synthesize() {
    throw new Error('the eSpeak thread stopped (exit code 9)');
  },
  dispose: () => undefined,
};

describe('CallSession when the voice fails the greeting', () => {
  it('ends the call with assistant-error and tells the caller why', async () => {
    let ended: EndedReason | null = null;
    const call = scriptedCall(
      deaf,
      {
        ended: ({ reason }) => {
          ended = reason;
        },
      },
      { stages: { synthesizer: broken } },
    );
    call.session.start();
    await until(() => ended !== null, 'the call to end');
    expect(ended).toBe('assistant-error');
    const error = call.messages.find((m) => m.type === 'error');
    expect(error?.type === 'error' && error.error).toBe(
      'The assistant could not speak: the eSpeak thread stopped (exit code 9)',
    );
  }, 20_000);
});

describe('CallSession when hearing the caller fails', () => {
  /** A voice detector that fails on the caller's first loud frame. */
  const failingVad = {
    isSpeech: (frame: Int16Array) => {
      if (Math.abs(frame[0] ?? 0) > 1000) throw new Error('the voice detector was given no memory');
      return false;
    },
    dispose: () => undefined,
  };
  /** Cleans nothing, on no thread, but answers later as a denoise thread does. */
  const offThread = {
    clean: (frame: Int16Array) => Promise.resolve(frame),
    dispose: () => undefined,
  };

  it.each([
    ['on the event loop', {}],
    ['after a denoise thread cleaned the frame', { denoiser: offThread }],
  ])(
    'ends the call with unknown-error and says why (%s)',
    async (_where, stages) => {
      let ended: EndedReason | null = null;
      const call = scriptedCall(
        deaf,
        {
          ended: ({ reason }) => {
            ended = reason;
          },
        },
        { stages: { vad: failingVad, ...stages } },
      );
      call.session.start();
      await until(() => call.assistant('stopped') === 1, 'the greeting');
      call.quiet();
      call.speak();
      await until(() => ended !== null, 'the call to end');
      expect(ended).toBe('unknown-error');
      const error = call.messages.find((m) => m.type === 'error');
      expect(error?.type === 'error' && error.error).toBe(
        "The caller's audio could not be heard: the voice detector was given no memory",
      );
    },
    20_000,
  );
});
