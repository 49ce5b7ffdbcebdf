import type { AssistantDto } from '@talkbooth/protocol';

/** Which provider a call asked for at one stage, which ran, and why they differ. */
export interface ProviderChoice {
  requested: string;
  used: string;
  /** Set when `used` is a fallback for `requested`. */
  reason?: string;
  /** Anything else the operator should know about this stage (a key kept back). */
  note?: string;
}

export interface CallProviders {
  transcriber: ProviderChoice;
  model: ProviderChoice;
  voice: ProviderChoice & { voiceId: string };
}

/** eSpeak voices are named like `en-us`, `en-gb`, `en-us+f3`. */
const DEFAULT_VOICE = 'en-us';

/**
 * The embedded engines serve every stage this server can run offline. A hosted
 * transcriber or voice cannot be reached from here, so those stages fall back to the
 * embedded engine for the call, and the record says so. (The model stage is decided by
 * the reply engine factory, which can reach OpenAI-compatible endpoints.)
 */
export function chooseSpeechProviders(assistant: AssistantDto): Omit<CallProviders, 'model'> {
  const transcriber = assistant.transcriber?.provider ?? 'pocketsphinx';
  const voice = assistant.voice?.provider ?? 'espeak';
  return {
    transcriber:
      transcriber === 'pocketsphinx'
        ? { requested: transcriber, used: 'pocketsphinx' }
        : {
            requested: transcriber,
            used: 'pocketsphinx',
            reason: `${transcriber} is a hosted transcriber this server does not reach; the offline recogniser ran instead`,
          },
    voice:
      voice === 'espeak'
        ? { requested: voice, used: 'espeak', voiceId: assistant.voice?.voiceId ?? DEFAULT_VOICE }
        : {
            requested: voice,
            used: 'espeak',
            voiceId: DEFAULT_VOICE,
            reason: `${voice} is a hosted voice this server does not reach; the offline synthesiser spoke instead`,
          },
  };
}
