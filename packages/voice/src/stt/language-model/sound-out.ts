/**
 * Sounds out words the pronunciation dictionary lacks with eSpeak NG's letter-to-sound
 * rules (the same in-process eSpeak the assistant speaks with), so an assistant's own
 * words ("toothache", "instalments", its name) can be heard instead of being left out of
 * its language model.
 *
 * eSpeak is loaded once per thread that asks (about 100 ms); the domain-model build runs
 * on a worker thread, so the main thread does not load it. After loading, sounding out is
 * synchronous, as the build is.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ipaToPhones } from './ipa-phones.js';

/** Turns a word into CMUdict phones, or undefined when it cannot. */
export interface PronunciationGuesser {
  /** Part of language-model cache keys: a new guesser builds new models. */
  readonly version: string;
  guess(word: string): string | undefined;
}

/** The version of {@link loadEspeakGuesser}'s rules and their mapping to phones. */
export const ESPEAK_GUESSER_VERSION = 'espeak-ng-en-us/1';

/** Words longer than this are not sounded out (no real word is; a run of letters may be). */
const MAX_LETTERS = 24;

/** The part of the emscripten module this uses. */
interface EspeakModule {
  eSpeakNGWorker: new () => {
    set_voice(name: string): unknown;
    synthesize_ipa(text: string): { ipa: string };
  };
}

let loading: Promise<PronunciationGuesser> | undefined;

/** eSpeak NG's en-us letter-to-sound rules as a {@link PronunciationGuesser} (loaded once). */
export function loadEspeakGuesser(): Promise<PronunciationGuesser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<PronunciationGuesser> {
  const require = createRequire(import.meta.url);
  const url = pathToFileURL(require.resolve('@echogarden/espeak-ng-emscripten')).href;
  const imported = (await import(url)) as { default: () => Promise<EspeakModule> };
  const module = await imported.default();
  const engine = new module.eSpeakNGWorker();
  engine.set_voice('en-us');
  return {
    version: ESPEAK_GUESSER_VERSION,
    guess(word: string): string | undefined {
      if (!/^[a-z][a-z']*$/.test(word) || word.length > MAX_LETTERS) return undefined;
      return ipaToPhones(engine.synthesize_ipa(word).ipa, word);
    },
  };
}
