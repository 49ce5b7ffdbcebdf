/**
 * The session's contract with its recogniser, with stand-in stages: what the recogniser
 * learns about a caller's channel from one utterance reaches the same call's next
 * utterance, and so does the question the assistant asked before it.
 */
import { describe, expect, it } from 'vitest';
import { FRAME_SAMPLES } from '../audio/format.js';
import type { ReplyEngine } from '../reply/types.js';
import type {
  ChannelEstimate,
  RecognitionOptions,
  RecognitionResult,
  SpeechRecognizer,
} from '../stt/types.js';
import type { SpeechSynthesizer } from '../tts/types.js';
import { CallSession } from './call-session.js';
import type { CallSessionListener } from './types.js';

/** Hands out one channel estimate per utterance and remembers what each `open()` got. */
class RecordingRecognizer implements SpeechRecognizer {
  readonly provider = 'recording';
  readonly opened: RecognitionOptions[] = [];
  open(options: RecognitionOptions = {}) {
    this.opened.push(options);
    const n = this.opened.length;
    return {
      push: () => undefined,
      partial: () => '',
      finish: (): RecognitionResult => ({
        text: `utterance ${n}`,
        model: 'domain',
        channel: { provider: 'recording', values: [n] },
      }),
      cancel: () => undefined,
    };
  }
  dispose(): void {}
}

const silentSynthesizer: SpeechSynthesizer = {
  provider: 'silent',
  sampleRate: 16000,
  // eslint-disable-next-line require-yield -- speaks nothing
  async *synthesize() {
    return;
  },
  dispose: () => undefined,
};

/** Asks the caller a question after each of their turns. */
const askingReply: ReplyEngine = {
  provider: 'asking',
  greeting: () => null,
  async *reply(history) {
    yield { type: 'text', text: `Question ${history.length}?` };
  },
  conclude: () => ({ summary: '' }),
};

const listener: CallSessionListener = {
  audio: () => undefined,
  message: () => undefined,
  conversation: () => undefined,
  metrics: () => undefined,
  ended: () => undefined,
};

function frames(count: number, amplitude: number): Int16Array[] {
  return Array.from({ length: count }, () =>
    Int16Array.from({ length: FRAME_SAMPLES }, (_, i) => (i % 2 === 0 ? amplitude : -amplitude)),
  );
}

describe('CallSession and its recogniser', () => {
  it("passes each utterance's channel estimate and the assistant's question to the next utterance", async () => {
    const recognizer = new RecordingRecognizer();
    const session = new CallSession(
      {
        recognizer,
        vad: { isSpeech: (f) => Math.abs(f[0] ?? 0) > 1000, dispose: () => undefined },
        synthesizer: silentSynthesizer,
        voice: 'none',
        reply: askingReply,
      },
      { endpointSilenceMs: 200 },
      listener,
    );
    session.start();
    for (let turn = 0; turn < 3; turn++) {
      // Quiet (the noise floor), 600 ms of speech, then enough quiet to end the turn.
      for (const f of [...frames(20, 10), ...frames(30, 8000), ...frames(20, 10)])
        session.pushCallerAudio(f);
      // The reply is produced, "spoken" (in silence) and drained before the next turn.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await session.end('customer-ended-call');
    // The assistant's last words (its question) tell the recogniser what to expect.
    expect(recognizer.opened.map((o) => o.question)).toEqual([
      undefined,
      'Question 1?',
      'Question 3?',
    ]);
    const channels = recognizer.opened.map((o) => o.channel);
    expect(channels).toEqual<(ChannelEstimate | undefined)[]>([
      undefined,
      { provider: 'recording', values: [1] },
      { provider: 'recording', values: [2] },
    ]);
  });
});
