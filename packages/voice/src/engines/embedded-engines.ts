import { Lexicon } from '../language/lexicon.js';
import { sentenceEncoder } from '../reply/local/semantic/sentence-encoder.js';
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
 * The offline engines every Talkbooth process has: pocketsphinx hears (or Moonshine, with
 * pocketsphinx following along, for an assistant that names it), the local reply
 * engine answers (or a hosted model, when an assistant has one and its key), eSpeak NG
 * speaks. A deployment adds engines to the registry this returns.
 */
export function embeddedEngines(options: EmbeddedEnginesOptions): EngineRegistry {
  // The reply engine's lexicon (~100 ms to load): now, not in the middle of a call.
  Lexicon.default();
  // And its sentence encoder (about 0.5–1.2 s), in the background: the first caller's first
  // reply must not wait for it. A failure here is retried by the first call that needs it.
  void sentenceEncoder()
    .encode(['hello'])
    .catch(() => undefined);
  const pocketsphinx = new PocketsphinxTranscriber(options);
  // Moonshine runs for assistants that name it (`transcriber.provider: 'moonshine'`). It is
  // not the default yet: on the live-call test of the demo's own questions it missed an
  // emergency line that pocketsphinx alone hears (see the README).
  return new EngineRegistry({
    transcriber: pocketsphinx,
    voice: new EspeakVoice(),
  }).addTranscriber(new MoonshineTranscriber(pocketsphinx));
}
