/**
 * The session's contract with its recogniser, with stand-in stages: what the recogniser
 * learns about a caller's channel from one utterance reaches the same call's next
 * utterance, and so does the question the assistant asked before it; and a caller who
 * answers the moment the assistant stops, or talks over it, is heard from their first word.
 */
import { describe, expect, it } from 'vitest';
import type { ReplyEngine } from '../reply/types.js';
import type {
  ChannelEstimate,
  RecognitionModel,
  RecognitionOptions,
  RecognitionResult,
  SpeechRecognizer,
} from '../stt/types.js';
import type { SpeechSynthesizer } from '../tts/types.js';
import type { CallSession } from './call-session.js';
import { frames, until } from './testing/scripted-audio.js';
import { scriptedCall } from './testing/scripted-call.js';
import type { CallSessionListener } from './types.js';

/** Hands out one channel estimate per utterance and remembers what each `open()` got. */
class RecordingRecognizer implements SpeechRecognizer {
  readonly provider = 'recording';
  readonly opened: RecognitionOptions[] = [];
  /** The frames each utterance was given. */
  readonly pushed: Int16Array[][] = [];
  /** For each utterance, how many frames it had been given at each `pause()`. */
  readonly pauses: number[][] = [];
  /** The quiet each `pause()` was told of. */
  readonly quiet: number[] = [];
  /** @param models which model hears each utterance in turn (then: the domain model) */
  constructor(private readonly models: RecognitionModel[] = []) {}
  open(options: RecognitionOptions = {}) {
    this.opened.push(options);
    const n = this.opened.length;
    const frames: Int16Array[] = [];
    const pauses: number[] = [];
    this.pushed.push(frames);
    this.pauses.push(pauses);
    return {
      push: (frame: Int16Array) => {
        frames.push(frame);
      },
      pause: (quietMs: number) => {
        pauses.push(frames.length);
        this.quiet.push(quietMs);
      },
      partial: () => '',
      finish: (): RecognitionResult => ({
        text: `utterance ${n}`,
        model: this.models[n - 1] ?? 'domain',
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

/**
 * A session that speaks in silence, with a stand-in voice detector (a frame above 1000 is
 * voiced) and the caller's turn ended by `endpointSilenceMs` of quiet.
 */
function quietSession(
  recognizer: SpeechRecognizer,
  endpointSilenceMs: number,
  reply: ReplyEngine = askingReply,
): CallSession {
  return scriptedCall(
    recognizer,
    {},
    { stages: { synthesizer: silentSynthesizer, reply }, settings: { endpointSilenceMs } },
  ).session;
}

/**
 * A session that greets with `greetingFrames` of loud audio (-4 dBFS: while it plays and
 * for 400 ms after, a voice more than 12 dB quieter may be its echo), a stand-in voice
 * detector (a frame above 1000 is voiced) and the caller's turn ended by 200 ms of quiet.
 */
function sessionWithLoudGreeting(
  recognizer: SpeechRecognizer,
  greetingFrames: number,
  message: CallSessionListener['message'],
): CallSession {
  const loud: SpeechSynthesizer = {
    provider: 'loud',
    sampleRate: 16000,
    async *synthesize() {
      yield frames(greetingFrames, 20000).reduce((all, f) => Int16Array.from([...all, ...f]));
    },
    dispose: () => undefined,
  };
  return scriptedCall(
    recognizer,
    { message },
    { stages: { synthesizer: loud, reply: { ...askingReply, greeting: () => 'Hello!' } } },
  ).session;
}

describe('CallSession and its recogniser', () => {
  it("passes each utterance's channel estimate and the assistant's question to the next utterance", async () => {
    const recognizer = new RecordingRecognizer();
    const session = quietSession(recognizer, 200);
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

  it('tells the recogniser to expect its fallback after an utterance only the fallback heard, and only then', async () => {
    const recognizer = new RecordingRecognizer(['general', 'domain', 'neural']);
    const session = quietSession(recognizer, 200);
    session.start();
    for (let turn = 0; turn < 4; turn++) {
      for (const f of [...frames(20, 10), ...frames(30, 8000), ...frames(20, 10)])
        session.pushCallerAudio(f);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await session.end('customer-ended-call');
    expect(recognizer.opened.map((o) => o.expectFallback)).toEqual([
      undefined,
      true,
      undefined,
      true,
    ]);
  });

  it('tells the recogniser each time the caller pauses, the last time after their last word', async () => {
    const recognizer = new RecordingRecognizer();
    const session = quietSession(recognizer, 400);
    session.start();
    // Words, a breath (60 ms: no pause), words, a pause mid-sentence (200 ms), the last
    // words, and the quiet that ends the turn.
    const turn = [
      ...frames(20, 10),
      ...frames(20, 8000),
      ...frames(3, 10),
      ...frames(20, 8000),
      ...frames(10, 10),
      ...frames(15, 8001),
      ...frames(25, 10),
    ];
    for (const f of turn) session.pushCallerAudio(f);
    await session.end('customer-ended-call');
    const heard = recognizer.pushed[0] ?? [];
    const pauses = recognizer.pauses[0] ?? [];
    expect(pauses).toHaveLength(2);
    // Each after 100 ms of quiet (five frames), and told so.
    expect(recognizer.quiet).toEqual([100, 100]);
    const lastWord = heard.findLastIndex((f) => f[0] === 8001);
    const [midSentence = 0, last = 0] = pauses;
    // The first pause came before the last words, the second after them: only quiet followed.
    expect(midSentence).toBeLessThan(heard.findIndex((f) => f[0] === 8001));
    expect(last).toBeGreaterThan(lastWord);
    expect(heard.slice(last).every((f) => Math.abs(f[0] ?? 0) < 1000)).toBe(true);
  });

  it('readies the meaning of the readings the recogniser expects at the pause, before the turn ends', async () => {
    const events: string[] = [];
    const recognizer: SpeechRecognizer = {
      provider: 'early',
      open: () => ({
        push: () => undefined,
        partial: () => '',
        // Moonshine's reading of the turn so far, begun at the pause, comes back in the quiet.
        pause: () => Promise.resolve(['where can i park', 'where can i bark']),
        finish: (): RecognitionResult => {
          events.push('finish');
          return {
            text: 'where can i park',
            model: 'general',
            alternatives: ['where can i pork'],
            secondOpinion: ['where can i bark'],
          };
        },
        cancel: () => undefined,
      }),
      dispose: () => undefined,
    };
    const session = quietSession(recognizer, 300, {
      ...askingReply,
      prepareReadings: async (readings) => {
        events.push(`prepare ${readings.join(', ')}`);
      },
      choose: () => 0,
    });
    session.start();
    // Frames arrive 20 ms apart in a call: the event loop turns between them.
    for (const f of [...frames(20, 10), ...frames(30, 8000), ...frames(20, 10)]) {
      session.pushCallerAudio(f);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await session.end('customer-ended-call');
    expect(events).toEqual([
      // In the quiet after the last word, while the turn's end was awaited…
      'prepare where can i park, where can i bark',
      'finish',
      // …then the turn's own readings, of which only the new one costs any encoding.
      'prepare where can i park, where can i pork, where can i bark',
    ]);
  });

  it('hears a caller who answers at once from their first word, though the echo guard held it', async () => {
    const recognizer = new RecordingRecognizer();
    const stopped: string[] = [];
    // A loud greeting of 200 ms: for 400 ms after it, a quieter voice may be its echo.
    const session = sessionWithLoudGreeting(recognizer, 10, (m) => {
      if (m.type === 'speech-update' && m.role === 'assistant') stopped.push(m.status);
    });
    session.start();
    for (const f of frames(20, 10)) session.pushCallerAudio(f);
    await until(() => stopped.includes('stopped'), 'the reply to stop', 5000);
    // The caller answers at once at -24 dBFS: 400 ms held back by the echo guard...
    const held = frames(20, 2000);
    for (const f of held) session.pushCallerAudio(f);
    await new Promise((resolve) => setTimeout(resolve, 450));
    // ...and the rest of the words after its tail.
    const rest = frames(20, 2001);
    for (const f of [...rest, ...frames(20, 10)]) session.pushCallerAudio(f);
    await session.end('customer-ended-call');
    expect(recognizer.opened).toHaveLength(1);
    const heard = recognizer.pushed[0] ?? [];
    expect(heard.filter((f) => f[0] === 2000)).toHaveLength(held.length);
    expect(heard.filter((f) => f[0] === 2001)).toHaveLength(rest.length);
  });

  it('hears a caller who talks over the assistant from their first word, though softer than it', async () => {
    const recognizer = new RecordingRecognizer();
    const speaking: string[] = [];
    // A loud greeting of three seconds: while it plays, a quieter voice may be its echo.
    const session = sessionWithLoudGreeting(recognizer, 150, (m) => {
      if (m.type === 'speech-update') speaking.push(`${m.role} ${m.status}`);
    });
    session.start();
    for (const f of frames(5, 10)) session.pushCallerAudio(f);
    await until(() => speaking.includes('assistant started'), 'the reply to start', 5000);
    // The caller's first words at -24 dBFS, held back by the echo guard, a short closure
    // inside them, and then louder words that start the turn over the assistant.
    const soft = [...frames(8, 2000), ...frames(1, 10), ...frames(8, 2000)];
    const loud = frames(10, 12000);
    for (const f of [...soft, ...loud, ...frames(20, 10)]) session.pushCallerAudio(f);
    await session.end('customer-ended-call');
    expect(speaking).toContain('user started');
    const heard = recognizer.pushed[0] ?? [];
    expect(heard.filter((f) => f[0] === 2000)).toHaveLength(16);
    expect(heard.filter((f) => f[0] === 12000)).toHaveLength(loud.length);
  });
});

/**
 * "Cleans" by negating (the stand-in detector hears either sign), each frame back 0–15 ms
 * after the one before, as the denoise threads give them back; `cleaned` lists what it got.
 */
function lateCleaner() {
  const cleaned: Int16Array[] = [];
  let last: Promise<unknown> = Promise.resolve();
  const cleaner = {
    clean(frame: Int16Array): Promise<Int16Array> {
      cleaned.push(frame);
      const delay = (cleaned.length * 7) % 16;
      const done = last.then(
        () =>
          new Promise<Int16Array>((resolve) =>
            setTimeout(() => resolve(frame.map((s) => -s)), delay),
          ),
      );
      last = done;
      return done;
    },
    dispose: () => undefined,
  };
  return { cleaner, cleaned, settled: () => last };
}

function cleanedSession(
  recognizer: SpeechRecognizer,
  cleaner: ReturnType<typeof lateCleaner>['cleaner'],
): CallSession {
  return scriptedCall(
    recognizer,
    {},
    { stages: { denoiser: cleaner, synthesizer: silentSynthesizer, reply: askingReply } },
  ).session;
}

describe('CallSession with its noise suppression off the event loop', () => {
  it('hears the cleaned frames, in the order spoken, however late each comes back, and none after the call ends', async () => {
    const recognizer = new RecordingRecognizer();
    const { cleaner, settled } = lateCleaner();
    const session = cleanedSession(recognizer, cleaner);
    session.start();
    // Quiet, then 30 frames of speech numbered in their second sample, then quiet.
    const speech = frames(30, 8000).map((f, i) => {
      f[1] = i + 1;
      return f;
    });
    for (const f of [...frames(20, 10), ...speech, ...frames(20, 10)]) session.pushCallerAudio(f);
    const spoken = () => (recognizer.pushed[0] ?? []).filter((f) => Math.abs(f[0]!) === 8000);
    await until(() => spoken().length === 30, 'the 30 frames of speech');
    const heard = spoken();
    expect(heard.map((f) => -f[1]!)).toEqual(speech.map((_, i) => i + 1));
    expect(heard.every((f) => f[0] === -8000)).toBe(true);
    // Frames still being cleaned when the call ends are not heard.
    for (const f of [...frames(20, 10), ...frames(30, 8000)]) session.pushCallerAudio(f);
    await session.end('customer-ended-call');
    await settled();
    expect(recognizer.opened).toHaveLength(1);
  });

  it('keeps the caller quiet between turns from the denoiser, and still hears every frame in order', async () => {
    const recognizer = new RecordingRecognizer();
    const { cleaner, cleaned, settled } = lateCleaner();
    const session = cleanedSession(recognizer, cleaner);
    session.start();
    // Background noise numbered in its second sample (×4, so that the copy the gate passes
    // on, 12 dB quieter, still tells them apart), two turns of speech, numbered too.
    let n = 0;
    const noise = (count: number) =>
      frames(count, 40).map((f) => {
        f[1] = 4 * ++n;
        return f;
      });
    const speech = (count: number) =>
      frames(count, 8000).map((f) => {
        f[1] = ++n;
        return f;
      });
    const call = [...noise(40), ...speech(30), ...noise(60), ...speech(30), ...noise(40)];
    for (const f of call) session.pushCallerAudio(f);
    await until(() => (recognizer.pushed[1] ?? []).length >= 40, 'the second turn');
    await settled();

    // The denoiser saw the turns, the frames around them and the call's first second while
    // the noise floor settled, not the quiet between turns: 10 frames of it reach the
    // second turn as its pre-roll, passed on without the denoiser, in order.
    expect(cleaned.length).toBeLessThan(call.length - 50);
    const second = recognizer.pushed[1]!;
    const preroll = second.slice(0, 10);
    const passedOn = (k: number) => Math.round(4 * k * 10 ** (-12 / 20));
    expect(preroll.map((f) => f[1])).toEqual(
      [121, 122, 123, 124, 125, 126, 127, 128, 129, 130].map(passedOn),
    );
    expect(preroll.every((f) => f[0] === 10)).toBe(true);
    // The last quiet frames primed the denoiser just before the turn's first word.
    const firstWord = cleaned.findIndex((f) => f[1] === 131);
    expect(cleaned.slice(firstWord - 3, firstWord).map((f) => f[1])).toEqual(
      [128, 129, 130].map((k) => 4 * k),
    );
    // The turn itself was all denoised, in order.
    const words = second.slice(10, 40);
    expect(words.map((f) => -f[1]!)).toEqual(Array.from({ length: 30 }, (_, i) => 131 + i));
    await session.end('customer-ended-call');
  });
});
