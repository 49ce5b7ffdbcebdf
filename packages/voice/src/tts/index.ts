export type { SpeechSynthesizer } from './types.js';
export { collectSpeech, type ChunkedSynthesizer } from './collect.js';
export {
  EspeakSynthesizer,
  UnknownVoiceError,
  ESPEAK_SAMPLE_RATE,
  ESPEAK_DEFAULT_RATE,
  ESPEAK_MIN_RATE,
  ESPEAK_MAX_RATE,
  type EspeakSynthesisOptions,
  type EspeakSynthesizerOptions,
} from './espeak/espeak-synthesizer.js';
export {
  DEFAULT_ESPEAK_VOICE,
  resolveEspeakVoice,
  type EspeakVoiceInfo,
  type EspeakCatalog,
  type VoiceResolution,
} from './espeak/voices.js';
