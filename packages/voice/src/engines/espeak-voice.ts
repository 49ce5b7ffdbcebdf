import { EspeakSynthesizer } from '../tts/espeak/espeak-synthesizer.js';
import { DEFAULT_ESPEAK_VOICE } from '../tts/espeak/voices.js';
import type { SpeechSynthesizer } from '../tts/types.js';
import type { VoiceEngine } from './types.js';

/** The offline synthesiser: one eSpeak NG instance shared by every call (it queues its jobs). */
export class EspeakVoice implements VoiceEngine {
  readonly name = 'espeak';
  readonly defaultVoiceId = DEFAULT_ESPEAK_VOICE;
  private created: Promise<SpeechSynthesizer> | null = null;

  synthesizer(): Promise<SpeechSynthesizer> {
    this.created ??= EspeakSynthesizer.create();
    return this.created;
  }

  /** Loads the synthesiser (once; calls then share it). */
  async check(): Promise<string> {
    try {
      await this.synthesizer();
    } catch (error) {
      throw new Error(
        `the speech synthesiser does not load: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return 'ok';
  }

  async dispose(): Promise<void> {
    const created = this.created;
    this.created = null;
    if (created !== null) (await created.catch(() => null))?.dispose();
  }
}
