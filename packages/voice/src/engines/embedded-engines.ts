import { Lexicon } from '../language/lexicon.js';
import { EngineRegistry } from './engine-registry.js';
import { EspeakVoice } from './espeak-voice.js';
import { MoonshineTranscriber } from './moonshine-transcriber.js';
import { PocketsphinxTranscriber } from './pocketsphinx-transcriber.js';

export interface EmbeddedEnginesOptions {
  /** Where built language models are cached. */
  modelCacheDir: string;
  /** How long a recogniser's decoder pool idles before shrinking to its spare. */
  idleTrimMs?: number;
}

/**
 * The offline engines every Talkbooth process has: Moonshine hears (pocketsphinx following
 * along for live captions), the local reply
 * engine answers (or a hosted model, when an assistant has one and its key), eSpeak NG
 * speaks. A deployment adds engines to the registry this returns.
 */
export function embeddedEngines(options: EmbeddedEnginesOptions): EngineRegistry {
  // The reply engine's lexicon (~100 ms to load): now, not in the middle of a call.
  Lexicon.default();
  const pocketsphinx = new PocketsphinxTranscriber(options);
  // Moonshine hears; pocketsphinx alone stays available by name (`transcriber.provider`).
  return new EngineRegistry({
    transcriber: new MoonshineTranscriber(pocketsphinx),
    voice: new EspeakVoice(),
  }).addTranscriber(pocketsphinx);
}
