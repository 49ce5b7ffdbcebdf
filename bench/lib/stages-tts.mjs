// Speech synthesis for the stages benchmark: the product's eSpeak NG (WASM in a worker
// thread, streaming ~100 ms chunks) against Debian's native `espeak-ng` binary speaking the
// same sentences, in alternating rounds so both see the same machine load.
import { spawn } from 'node:child_process';
import { voice } from './speech.mjs';

const VOICE = 'en-us';
/** A WAV file's header before the samples (espeak-ng writes the plain 44-byte one). */
const WAV_HEADER_BYTES = 44;

const hrtimeMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Loads the product's synthesiser and times it; answers it with the load time. */
export async function loadSynthesizer() {
  const started = hrtimeMs();
  const synthesizer = await voice.EspeakSynthesizer.create();
  return { synthesizer, loadMs: hrtimeMs() - started };
}

/**
 * `rounds` rounds of every sentence through the product's synthesiser, then the CLI.
 * Answers per engine the median round (compute, audio, real-time factor) and, for the
 * product, the time to each sentence's first chunk.
 */
export async function compareSynthesis(synthesizer, sentences, rounds) {
  // A full pass of each first, uncounted: WASM code tiers up over the first seconds of
  // use, and the binary's voice files come into the page cache.
  await synthesizeInProcess(synthesizer, sentences);
  await synthesizeWithCli(sentences);
  const product = [];
  const cli = [];
  for (let round = 0; round < rounds; round += 1) {
    product.push(await synthesizeInProcess(synthesizer, sentences));
    cli.push(await synthesizeWithCli(sentences));
  }
  return {
    product: { ...medianRound(product), firstChunkMs: product.flatMap((r) => r.firstChunkMs) },
    cli: { ...medianRound(cli), processStartMs: await cliStartMs(rounds) },
    samples: product[0].samples,
  };
}

async function synthesizeInProcess(synthesizer, sentences) {
  const firstChunkMs = [];
  const chunks = [];
  let computeMs = 0;
  for (const text of sentences) {
    const started = hrtimeMs();
    let first = null;
    for await (const chunk of synthesizer.synthesize(text, { voice: VOICE })) {
      first ??= hrtimeMs() - started;
      chunks.push(chunk);
    }
    computeMs += hrtimeMs() - started;
    firstChunkMs.push(first);
  }
  const samples = voice.concatInt16(chunks);
  return {
    computeMs,
    audioSeconds: samples.length / synthesizer.sampleRate,
    firstChunkMs,
    samples,
  };
}

/** `espeak-ng -v en-us --stdout "…"` once per sentence; the WAV is counted, not kept. */
async function synthesizeWithCli(sentences) {
  let computeMs = 0;
  let bytes = 0;
  for (const text of sentences) {
    const started = hrtimeMs();
    bytes += (await espeakCli(text)) - WAV_HEADER_BYTES;
    computeMs += hrtimeMs() - started;
  }
  return { computeMs, audioSeconds: bytes / 2 / voice.ESPEAK_SAMPLE_RATE };
}

/** What starting the binary costs: it loads the voice and speaks an empty text. */
async function cliStartMs(rounds) {
  const times = [];
  for (let round = 0; round < Math.max(3, rounds); round += 1) {
    const started = hrtimeMs();
    await espeakCli('');
    times.push(hrtimeMs() - started);
  }
  return median(times);
}

/** Runs the CLI; answers the number of bytes it wrote (a WAV file). */
function espeakCli(text) {
  return new Promise((resolve, reject) => {
    const child = spawn('espeak-ng', ['-v', VOICE, '--stdout', text], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let bytes = 0;
    let errors = '';
    child.stdout.on('data', (data) => (bytes += data.length));
    child.stderr.on('data', (data) => (errors += data));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(bytes) : reject(new Error(`espeak-ng exited ${code}: ${errors}`)),
    );
  });
}

function medianRound(rounds) {
  const sorted = [...rounds].sort((a, b) => a.computeMs - b.computeMs);
  const { computeMs, audioSeconds } = sorted[Math.floor((sorted.length - 1) / 2)];
  return {
    computeMs,
    audioSeconds,
    rtf: computeMs / 1000 / audioSeconds,
    rounds: rounds.map((r) => r.computeMs),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
