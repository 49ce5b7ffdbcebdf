/** Engine registry: which recogniser, synthesiser and reply engine a call's stages run on. */
export type {
  CallStages,
  ModelEngine,
  ProviderChoice,
  StageProviders,
  TranscriberEngine,
  VoiceEngine,
} from './types.js';
export { EngineRegistry, type EngineRegistryOptions } from './engine-registry.js';
export { embeddedEngines, type EmbeddedEnginesOptions } from './embedded-engines.js';
export { EspeakVoice } from './espeak-voice.js';
export {
  DEFAULT_GENERAL_DECODERS_PER_THREAD,
  GENERAL_OVERFLOW_PER_THREAD,
  PocketsphinxTranscriber,
  type PocketsphinxTranscriberOptions,
} from './pocketsphinx-transcriber.js';
export { MoonshineTranscriber } from './moonshine-transcriber.js';
