// Speech recognition for the stages benchmark: pocketsphinx's domain model alone, the
// general model alone, and the product's recogniser (domain first, general fallback when
// the domain answer looks off-topic), on the same utterances: cost and word error rate.
import { voice } from './speech.mjs';
import { frameCost } from './stages-audio.mjs';
import { quantile } from './stats.mjs';

const hrtimeUs = () => Number(process.hrtime.bigint()) / 1000;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

/** The three systems, each as PocketsphinxRecognizer.create() makes it. */
const SYSTEMS = {
  domain: (vocabulary, cacheDir) => ({ vocabulary, cacheDir, generalFallback: 'off' }),
  general: (_vocabulary, cacheDir) => ({ cacheDir }),
  // What the server makes for a call (apps/server/src/calls/voice-engines.ts).
  product: (vocabulary, cacheDir) => ({ vocabulary, cacheDir }),
};
export const SYSTEM_NAMES = Object.keys(SYSTEMS);

/**
 * Domain model build: cold (an empty cache folder), then found in the cache. With eSpeak's
 * guesser for unknown words, as the recogniser builds it (eSpeak's loading not counted).
 */
export async function timeModelBuild(vocabulary, cacheDir) {
  const guesser = await voice.loadEspeakGuesser();
  const options = { vocabulary, cacheDir, dictionaryPath: voice.modelFiles().dictionary, guesser };
  const started = performance.now();
  const cold = voice.buildDomainModel(options);
  const coldMs = performance.now() - started;
  const cached = voice.buildDomainModel(options);
  if (!cached.cached) throw new Error('the domain model was not found in its cache');
  return {
    coldMs,
    cachedMs: cached.buildMs,
    words: cold.wordCount,
    sentences: cold.sentenceCount,
    ngrams: cold.ngramCounts,
  };
}

/** The three recognisers, with their decoder load time and RSS growth (one decoder pair each). */
export async function createRecognizers(vocabulary, cacheDir) {
  const recognizers = {};
  try {
    for (const [name, options] of Object.entries(SYSTEMS)) {
      const before = rssMb();
      const recognizer = await voice.PocketsphinxRecognizer.create(options(vocabulary, cacheDir));
      recognizers[name] = {
        recognizer,
        decoderInitMs: recognizer.decoderInitMs,
        rssMb: rssMb() - before,
      };
    }
    return recognizers;
  } catch (error) {
    disposeRecognizers(recognizers);
    throw error;
  }
}

export function disposeRecognizers(recognizers) {
  for (const { recognizer } of Object.values(recognizers)) recognizer.dispose();
}

/**
 * Decodes every utterance with every system. Systems take turns utterance by utterance,
 * so a burst of load from the machine's other users spreads over all three alike.
 */
export function decodeAll(recognizers, utterances) {
  const runs = Object.fromEntries(SYSTEM_NAMES.map((name) => [name, []]));
  for (const utterance of utterances) {
    for (const name of SYSTEM_NAMES)
      runs[name].push(decode(recognizers[name].recognizer, utterance));
  }
  return runs;
}

/** One utterance, pushed frame by frame as the session does, then finish(). */
function decode(recognizer, utterance) {
  const stream = recognizer.open(utterance.question ? { question: utterance.question } : {});
  const pushUs = utterance.frames.map((frame) => {
    const started = hrtimeUs();
    stream.push(frame);
    return hrtimeUs() - started;
  });
  const result = stream.finish();
  return { utterance, hyp: result.text, model: result.model, pushUs, finishMs: result.finishMs };
}

/** Real-time factor (push and finish() together), per-frame cost, finish() latency. */
export function recognitionCost(rows) {
  const push = frameCost(rows.flatMap((row) => row.pushUs));
  const finishMs = rows.reduce((sum, row) => sum + row.finishMs, 0);
  return {
    ...push,
    computeMs: push.computeMs + finishMs,
    rtf: (push.computeMs + finishMs) / (push.audioSeconds * 1000),
    finishMs: finishLatency(rows),
    finishMsWhenDomain: finishLatency(rows.filter((row) => row.model === 'domain')),
    finishMsWhenGeneral: finishLatency(rows.filter((row) => row.model === 'general')),
  };
}

function finishLatency(rows) {
  if (rows.length === 0) return null;
  const ms = rows.map((row) => row.finishMs);
  return {
    count: ms.length,
    p50: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
    max: Math.max(...ms),
  };
}

/** Word error rate, %, of `rows` (reference text against hypothesis). */
export function werPercent(rows) {
  if (rows.length === 0) return null;
  return 100 * voice.corpusWordErrorRate(rows.map((row) => [row.utterance.text, row.hyp]));
}

/** How often the product's recogniser took the general model's answer. */
export function generalShare(rows) {
  return `${rows.filter((row) => row.model === 'general').length}/${rows.length}`;
}
