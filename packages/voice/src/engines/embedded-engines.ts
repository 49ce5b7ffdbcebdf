import { Lexicon } from '../language/lexicon.js';
import { sentenceEncoder } from '../reply/local/semantic/sentence-encoder.js';
import { EngineRegistry } from './engine-registry.js';
import { EspeakVoice } from './espeak-voice.js';
import { MoonshineTranscriber } from './moonshine-transcriber.js';
import { PocketsphinxTranscriber } from './pocketsphinx-transcriber.js';
import { SharedMoonshineModel } from './shared-moonshine-model.js';

export interface EmbeddedEnginesOptions {
  /** Where built language models are cached. */
  modelCacheDir: string;
  /** How long a recogniser's decoder pool idles before shrinking to its spare. */
  idleTrimMs?: number;
  /** Recognition threads (see `PocketsphinxTranscriberOptions.threads`; 0: the event loop). */
  threads?: number;
  /** General decoders per recognition thread (see `PocketsphinxTranscriberOptions`). */
  generalDecodersPerThread?: number;
  /** When pocketsphinx's general model runs (see `PocketsphinxTranscriberOptions.generalModel`). */
  generalModel?: 'on-doubt' | 'off';
  /** Denoise threads (see `EngineRegistryOptions.denoiseThreads`; 0: the event loop). */
  denoiseThreads?: number;
  /** Threads Moonshine (the second opinion) reads on (see `MoonshineThreads`); default one per core. */
  moonshineThreads?: number;
  /** Told when a denoise thread dies or fails a frame (calls go on). */
  onDenoiseProblem?: (message: string) => void;
}

/**
 * The offline engines every Talkbooth process has: pocketsphinx hears, with Moonshine
 * listening for emergencies in what it doubts (or Moonshine hears, with pocketsphinx
 * following along, for an assistant that names it), the local reply
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
  // Moonshine, shared: the second opinion on what pocketsphinx doubts, and the recogniser
  // of assistants that name it. Without its model files, pocketsphinx hears alone.
  const moonshine = new SharedMoonshineModel(
    options.moonshineThreads === undefined ? {} : { threads: options.moonshineThreads },
  );
  const pocketsphinx = new PocketsphinxTranscriber({ ...options, secondOpinion: moonshine });
  // Moonshine hears on its own for assistants that name it (`transcriber.provider:
  // 'moonshine'`). It is not the default: it is slower on every turn, and on the live-call
  // test of the demo's own questions it missed an emergency line (see the README).
  return new EngineRegistry({
    transcriber: pocketsphinx,
    voice: new EspeakVoice(),
    ...(options.denoiseThreads === undefined ? {} : { denoiseThreads: options.denoiseThreads }),
    ...(options.onDenoiseProblem ? { onDenoiseProblem: options.onDenoiseProblem } : {}),
  }).addTranscriber(new MoonshineTranscriber(pocketsphinx, moonshine));
}
