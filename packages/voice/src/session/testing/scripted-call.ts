/**
 * A call for the session tests: a recogniser the test scripts, a detector that hears the
 * tests' loud frames as speech, and unless the test says otherwise the tone voice and the
 * real local reply engine on the demo clinic. What the session says is kept for the test to
 * read.
 */
import type { ServerMessage } from '@talkbooth/protocol';
import { LocalReplyEngine } from '../../reply/local/engine.js';
import { demoAssistant } from '../../reply/testing/conversation.js';
import type { SpeechRecognizer } from '../../stt/types.js';
import { CallSession, type CallSessionSettings, type CallSessionStages } from '../call-session.js';
import type { CallSessionListener } from '../types.js';
import { frames, toneSynthesizer } from './scripted-audio.js';

export interface ScriptedCall {
  session: CallSession;
  /** Every message the session sent the caller, in order. */
  messages: ServerMessage[];
  /** How many times the assistant's speech has `status` so far. */
  assistant: (status: 'started' | 'stopped') => number;
  /** The caller says a turn: 800 ms of loud frames, then the quiet that ends it. */
  speak: () => void;
  /** 400 ms of quiet, from which the session learns the noise floor. */
  quiet: () => void;
}

/**
 * What a test changes in the call: other stages (a reply engine, a voice, a denoiser, a
 * voice detector) or settings.
 */
export interface ScriptedCallSetup {
  stages?: Partial<Omit<CallSessionStages, 'recognizer'>>;
  /** Added to the defaults: the turn ended by 200 ms of quiet, audio sent 100 ms ahead. */
  settings?: CallSessionSettings;
}

/**
 * Starts nothing: the test calls `session.start()` when it is ready. `listener` adds to
 * (or replaces) the default listener's parts, which ignore what they hear.
 */
export function scriptedCall(
  recognizer: SpeechRecognizer,
  listener: Partial<CallSessionListener> = {},
  setup: ScriptedCallSetup = {},
): ScriptedCall {
  const messages: ServerMessage[] = [];
  const session = new CallSession(
    {
      recognizer,
      vad: { isSpeech: (f) => Math.abs(f[0] ?? 0) > 1000, dispose: () => undefined },
      synthesizer: toneSynthesizer,
      voice: 'none',
      reply: new LocalReplyEngine({ assistant: demoAssistant }),
      ...setup.stages,
    },
    { endpointSilenceMs: 200, playbackLeadMs: 100, ...setup.settings },
    {
      audio: () => undefined,
      conversation: () => undefined,
      metrics: () => undefined,
      problem: () => undefined,
      ended: () => undefined,
      ...listener,
      message: (m) => {
        messages.push(m);
        listener.message?.(m);
      },
    },
  );
  const push = (list: Int16Array[]) => {
    for (const f of list) session.pushCallerAudio(f);
  };
  return {
    session,
    messages,
    assistant: (status) =>
      messages.filter(
        (m) => m.type === 'speech-update' && m.role === 'assistant' && m.status === status,
      ).length,
    speak: () => push([...frames(40, 8000), ...frames(15, 10)]),
    quiet: () => push(frames(20, 10)),
  };
}
