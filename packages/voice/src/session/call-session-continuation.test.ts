/**
 * The session and a caller who pauses mid-sentence long enough to end the turn, then goes
 * on: before the reply made a sound, or over it with words that carry the sentence on. The
 * two halves are one turn, answered as such, with the real local reply engine on the demo
 * clinic; a caller who talks over a reply with something new, or after a long pause, is not.
 */
import type { ServerMessage } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { LocalReplyEngine } from '../reply/local/engine.js';
import { Call, demoAssistant } from '../reply/testing/conversation.js';
import type { ReplyEngine } from '../reply/types.js';
import type { SpeechRecognizer } from '../stt/types.js';
import { CallSession } from './call-session.js';
import { frames, toneSynthesizer, toneVoice, until } from './testing/scripted-audio.js';
import type { RecordMessage } from './types.js';

/** A caller's request in two halves, as a pause split it. */
const FIRST_HALF = 'could you let the doctor';
const SECOND_HALF = 'know about my cough';

/** Hears each utterance as the next of `texts`. */
function scriptedRecognizer(texts: readonly string[]): SpeechRecognizer {
  let opened = 0;
  return {
    provider: 'scripted',
    open: () => {
      const text = texts[opened] ?? '';
      opened += 1;
      return {
        push: () => undefined,
        partial: () => '',
        finish: () => ({ text, model: 'domain' }),
        cancel: () => undefined,
      };
    },
    dispose: () => undefined,
  };
}

/** What the demo clinic answers to `text` said first in a call. */
const demoReply = (text: string) =>
  new Call(new LocalReplyEngine({ assistant: demoAssistant })).reply(text);

/** Says nothing at all: the caller never hears a reply. */
const mute: ReplyEngine = {
  provider: 'mute',
  greeting: () => null,
  // eslint-disable-next-line require-yield -- says nothing
  async *reply() {
    return;
  },
  conclude: () => ({ summary: '' }),
};

/** The engine's greeting, reply and conclusion, as a plain object to change parts of. */
function bound(engine: ReplyEngine): ReplyEngine {
  return {
    provider: engine.provider,
    greeting: () => engine.greeting(),
    reply: (history, signal) => engine.reply(history, signal),
    conclude: (history) => engine.conclude(history),
  };
}

function session(
  texts: readonly string[],
  reply: ReplyEngine,
  { synthesizer = toneSynthesizer, numWordsToInterruptAssistant = 0 } = {},
) {
  const messages: ServerMessage[] = [];
  let record: readonly RecordMessage[] = [];
  const call = new CallSession(
    {
      recognizer: scriptedRecognizer(texts),
      vad: { isSpeech: (f) => Math.abs(f[0] ?? 0) > 1000, dispose: () => undefined },
      synthesizer,
      voice: 'none',
      reply,
    },
    {
      endpointSilenceMs: 200,
      earlyEndpointSilenceMs: 200,
      playbackLeadMs: 100,
      numWordsToInterruptAssistant,
    },
    {
      audio: () => undefined,
      message: (m) => messages.push(m),
      conversation: (r) => {
        record = r;
      },
      metrics: () => undefined,
      ended: () => undefined,
    },
  );
  const startSpeaking = () => {
    for (const f of [...frames(10, 10), ...frames(40, 8000)]) call.pushCallerAudio(f);
  };
  const stopSpeaking = () => {
    for (const f of frames(15, 10)) call.pushCallerAudio(f);
  };
  const assistant = (status: string) =>
    messages.filter(
      (m) => m.type === 'speech-update' && m.role === 'assistant' && m.status === status,
    ).length;
  const users = () => {
    const updates = messages.filter((m) => m.type === 'conversation-update');
    const last = updates.at(-1);
    return last?.type === 'conversation-update'
      ? last.conversation.filter((m) => m.role === 'user').map((m) => m.content)
      : [];
  };
  return {
    call,
    messages,
    assistant,
    users,
    record: () => record.filter((m) => m.role === 'user').map((m) => m.message),
    /** The assistant's lines in the call's record. */
    said: () => record.filter((m) => m.role === 'bot').map((m) => m.message),
    /** The conversation as last sent to the client. */
    conversation: () => {
      const last = messages.filter((m) => m.type === 'conversation-update').at(-1);
      return last?.type === 'conversation-update' ? last.conversation : [];
    },
    assistantSaid: () =>
      messages.flatMap((m) =>
        m.type === 'transcript' && m.role === 'assistant' ? [m.transcript] : [],
      ),
    /** The caller is quiet for 200 ms, then speaks for 800 ms (the turn goes on). */
    startSpeaking,
    /** The caller pauses long enough to end the turn. */
    stopSpeaking,
    /** One utterance: {@link startSpeaking}, then {@link stopSpeaking}. */
    speak: () => {
      startSpeaking();
      stopSpeaking();
    },
  };
}

describe('CallSession with a caller who pauses mid-sentence', () => {
  it('answers the two halves as one turn when the caller went on before the reply was heard', async () => {
    const joined = `${FIRST_HALF} ${SECOND_HALF}`;
    // What the demo clinic answers to the whole sentence, and to its halves.
    const whole = await demoReply(joined);
    const toFirstHalf = await demoReply(FIRST_HALF);
    expect(toFirstHalf).not.toBe(whole);

    const s = session(
      [FIRST_HALF, SECOND_HALF],
      new LocalReplyEngine({ assistant: demoAssistant }),
    );
    s.call.start();
    await until(() => s.assistant('stopped') === 1, 'the greeting');
    // The caller goes on while the first half is still being read: no reply has played.
    s.speak();
    s.speak();
    await until(() => s.assistant('stopped') === 2, 'the reply to end');
    await s.call.end('customer-ended-call');

    expect(s.assistantSaid().slice(1).join(' ')).toBe(whole);
    expect(s.users()).toEqual([joined]);
    expect(s.record()).toEqual([joined]);
    // The caller's words as they were heard: the first half, then the whole sentence.
    const finals = s.messages.flatMap((m) =>
      m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final'
        ? [m.transcript]
        : [],
    );
    expect(finals).toEqual([FIRST_HALF, joined]);
  }, 20_000);

  it('holds the reply while the caller is still going on, and answers the whole sentence', async () => {
    const joined = `${FIRST_HALF} ${SECOND_HALF}`;
    const whole = await demoReply(joined);
    const s = session(
      [FIRST_HALF, SECOND_HALF],
      new LocalReplyEngine({ assistant: demoAssistant }),
    );
    s.call.start();
    await until(() => s.assistant('stopped') === 1, 'the greeting');
    // The first half; the caller starts the second before it is answered.
    s.speak();
    s.startSpeaking();
    await until(() => s.users().length === 1, 'the first half heard');
    // Its reply waits while the caller speaks: nothing is said over them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.assistant('started')).toBe(1);
    s.stopSpeaking();
    await until(() => s.assistant('stopped') === 2, 'the reply to the whole sentence');
    await s.call.end('customer-ended-call');
    expect(s.assistantSaid().slice(1).join(' ')).toBe(whole);
    expect(s.users()).toEqual([joined]);
    expect(s.messages.some((m) => m.type === 'clear')).toBe(false);
  }, 20_000);

  it('answers the held turn when what the caller went on with was no words at all', async () => {
    const toFirstHalf = await demoReply(FIRST_HALF);
    const s = session([FIRST_HALF, ''], new LocalReplyEngine({ assistant: demoAssistant }));
    s.call.start();
    await until(() => s.assistant('stopped') === 1, 'the greeting');
    s.speak();
    s.startSpeaking();
    await until(() => s.users().length === 1, 'the first half heard');
    // A cough, heard as nothing: the turn before it is answered.
    s.stopSpeaking();
    await until(() => s.assistant('stopped') === 2, 'the reply');
    await s.call.end('customer-ended-call');
    expect(s.assistantSaid().slice(1).join(' ')).toBe(toFirstHalf);
    expect(s.users()).toEqual([FIRST_HALF]);
  }, 20_000);

  it('takes back a reply that began playing while the caller was still going on', async () => {
    const joined = `${FIRST_HALF} ${SECOND_HALF}`;
    const whole = await demoReply(joined);
    // A reply slow to begin, which three words of the caller's would interrupt (the
    // recogniser here gives no words while the caller speaks, so it never is).
    const local = new LocalReplyEngine({ assistant: demoAssistant });
    const slow: ReplyEngine = {
      ...bound(local),
      async *reply(history, signal) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        yield* local.reply(history, signal);
      },
    };
    const s = session([FIRST_HALF, SECOND_HALF], slow, { numWordsToInterruptAssistant: 3 });
    s.call.start();
    await until(() => s.assistant('stopped') === 1, 'the greeting');
    s.speak();
    // Answered, its reply not yet begun: the caller goes on, and the reply begins meanwhile.
    await until(() => s.users().length === 1, 'the first half heard');
    s.startSpeaking();
    await until(() => s.assistant('started') === 2, 'the reply to the first half');
    const before = s.messages.length;
    s.stopSpeaking();
    await until(() => s.assistant('stopped') === 3, 'the reply to the whole sentence');
    await s.call.end('customer-ended-call');
    // The whole sentence heard, the reply begun stopped and its audio dropped, as when the
    // caller talks over it; then the reply to the whole sentence.
    const after = s.messages
      .slice(before)
      .filter((m) => !(m.type === 'speech-update' && m.role === 'user'));
    expect(after.slice(0, 3)).toEqual([
      { type: 'transcript', role: 'user', transcriptType: 'final', transcript: joined },
      { type: 'speech-update', role: 'assistant', status: 'stopped' },
      { type: 'clear' },
    ]);
    const answered = after
      .slice(3)
      .flatMap((m) => (m.type === 'transcript' && m.role === 'assistant' ? [m.transcript] : []));
    expect(answered.join(' ')).toBe(whole);
    expect(s.users()).toEqual([joined]);
  }, 20_000);

  it('keeps two turns apart when the caller talks over a reply that has begun to sound', async () => {
    // Ten seconds a sentence: talked over at once, not a word of it has been heard. (No
    // greeting: it would take as long.)
    const local = new LocalReplyEngine({ assistant: demoAssistant });
    const s = session(
      [FIRST_HALF, SECOND_HALF],
      { ...bound(local), greeting: () => null },
      { synthesizer: toneVoice(100) },
    );
    s.call.start();
    s.speak();
    await until(() => s.assistant('started') === 1, 'the reply to the first turn');
    // At once, before a word of it could be heard: still something new, said over it.
    s.speak();
    await until(() => s.users().length === 2, 'the second turn');
    await s.call.end('customer-ended-call');
    expect(s.users()).toEqual([FIRST_HALF, SECOND_HALF]);
  }, 20_000);

  it('joins a turn that talks over the reply when its words carry on the sentence before', async () => {
    // The second half begins with a word that carries a sentence on ("for …").
    const [first, second] = ['could you book me in', 'for a flu shot'];
    const whole = await demoReply(`${first} ${second}`);
    const toFirst = await demoReply(first);
    const local = new LocalReplyEngine({ assistant: demoAssistant });
    for (const [voice, heardFor] of [
      [toneVoice(100), 0],
      [toneSynthesizer, 400],
    ] as const) {
      const s = session(
        [first, second],
        { ...bound(local), greeting: () => null },
        {
          synthesizer: voice,
        },
      );
      s.call.start();
      s.speak();
      await until(() => s.assistant('started') === 1, 'the reply to the first half');
      // The caller goes on over it: at once (nothing heard), or after some of its words.
      await new Promise((resolve) => setTimeout(resolve, heardFor));
      const before = s.messages.length;
      s.speak();
      await until(
        () =>
          s.messages.slice(before).some((m) => m.type === 'transcript' && m.role === 'assistant'),
        'the reply to the whole sentence',
      );
      await s.call.end('customer-ended-call');
      expect(s.users()).toEqual([`${first} ${second}`]);
      // What the caller heard of the first reply stays in the record, and is out of the
      // conversation.
      const heard = s.said()[0] ?? '';
      if (heardFor > 0) expect(toFirst.startsWith(heard) && heard !== '').toBe(true);
      expect(s.conversation()).toEqual([{ role: 'user', content: `${first} ${second}` }]);
      const said = s.messages
        .slice(before)
        .flatMap((m) => (m.type === 'transcript' && m.role === 'assistant' ? [m.transcript] : []));
      expect(whole.startsWith(said[0] ?? '-')).toBe(true);
    }
  }, 30_000);

  it('keeps two turns apart after a longer pause, even with no reply between them', async () => {
    const s = session([FIRST_HALF, SECOND_HALF], mute);
    s.call.start();
    s.speak();
    await until(() => s.users().length === 1, 'the first turn');
    // Three seconds on, the caller says something else: a turn of its own.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    s.speak();
    await until(() => s.users().length === 2, 'the second turn');
    await s.call.end('customer-ended-call');
    expect(s.users()).toEqual([FIRST_HALF, SECOND_HALF]);
    expect(s.record()).toEqual([FIRST_HALF, SECOND_HALF]);
  }, 20_000);

  it('joins the halves with no reply between them when the pause was short', async () => {
    const s = session([FIRST_HALF, SECOND_HALF], mute);
    s.call.start();
    s.speak();
    await until(() => s.users().length === 1, 'the first turn');
    s.speak();
    await until(() => s.users()[0] !== FIRST_HALF, 'the turns joined');
    await s.call.end('customer-ended-call');
    expect(s.users()).toEqual([`${FIRST_HALF} ${SECOND_HALF}`]);
  }, 20_000);
});
