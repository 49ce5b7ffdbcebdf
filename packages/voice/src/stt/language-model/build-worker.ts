/**
 * Runs one domain-model build on a worker thread (see `buildDomainModelOffThread`), so a
 * cold build (about a second) never stalls the event loop that paces live calls' audio.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildDomainModel, type DomainModelOptions } from './build.js';

const options = workerData as Omit<DomainModelOptions, 'lexicon'> & { withLexicon: boolean };
try {
  const { withLexicon, ...rest } = options;
  const model = buildDomainModel({ ...rest, ...(withLexicon ? {} : { lexicon: null }) });
  parentPort?.postMessage({ ok: true, model });
} catch (error) {
  parentPort?.postMessage({
    ok: false,
    message: error instanceof Error ? error.message : String(error),
  });
}
