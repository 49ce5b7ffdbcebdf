import { Lexicon } from '../language/lexicon.js';
import { EngineRegistry } from './engine-registry.js';
import { EspeakVoice } from './espeak-voice.js';
import { PocketsphinxTranscriber } from './pocketsphinx-transcriber.js';

export interface EmbeddedEnginesOptions {
  /** Where built language models are cached. */
  modelCacheDir: string;
  /** How long a recogniser's decoder pool idles before shrinking to its spare. */
  idleTrimMs?: number;
}

/**
 * The offline engines every Talkbooth process has: pocketsphinx hears, the local reply
 * engine answers (or a hosted model, when an assistant has one and its key), eSpeak NG
 * speaks. A deployment adds engines to the registry this returns.
 */
export function embeddedEngines(options: EmbeddedEnginesOptions): EngineRegistry {
  // The reply engine's lexicon (~100 ms to load): now, not in the middle of a call.
  Lexicon.default();
  return new EngineRegistry({
    transcriber: new PocketsphinxTranscriber(options),
    voice: new EspeakVoice(),
  });
}
