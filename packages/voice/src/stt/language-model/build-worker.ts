/**
 * Runs one domain-model build on a worker thread (see `buildDomainModelOffThread`), so a
 * cold build (about a second, with eSpeak loaded to sound out unknown words) never stalls
 * the event loop that paces live calls' audio.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildDomainModel, type BuildWorkerData } from './build.js';
import { loadEspeakGuesser } from './sound-out.js';

const { withLexicon, soundOut, ...options } = workerData as BuildWorkerData;
try {
  const guesser = soundOut ? await loadEspeakGuesser() : undefined;
  const model = buildDomainModel({
    ...options,
    ...(withLexicon ? {} : { lexicon: null }),
    ...(guesser ? { guesser } : {}),
  });
  parentPort?.postMessage({ ok: true, model });
} catch (error) {
  parentPort?.postMessage({
    ok: false,
    message: error instanceof Error ? error.message : String(error),
  });
}
