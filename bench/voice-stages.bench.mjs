// Cost of the voice engine's embedded stages on this machine: WebRTC VAD and RNNoise per
// 20 ms frame, Speex resampler throughput, eSpeak NG time to first chunk and real-time
// factor. Writes bench/results/voice-stages.json and prints a Markdown table.
//
// Run after building: npx tsc -b packages/voice && node bench/voice-stages.bench.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path) => new URL(`../packages/voice/dist/${path}`, import.meta.url).href;

const { CALLER_SAMPLE_RATE, FRAME_SAMPLES, FrameSplitter, Resampler, resample, mix, whiteNoise } =
  await import(dist('audio/index.js'));
const { WebRtcVad } = await import(dist('vad/index.js'));
const { RnnoiseSuppressor } = await import(dist('denoise/index.js'));
const { EspeakSynthesizer, collectSpeech } = await import(dist('tts/index.js'));

const FRAME_MS = (FRAME_SAMPLES * 1000) / CALLER_SAMPLE_RATE;
const SENTENCES = [
  'Hello.',
  'The quick brown fox jumps over the lazy dog.',
  'Thank you for calling the Riverside Clinic. Our opening hours are eight in the morning ' +
    'until six in the evening, Monday to Friday, and you can book, move or cancel an ' +
    'appointment with me at any time of the day.',
];

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return { mean, p50: at(0.5), p95: at(0.95), max: sorted.at(-1), n: values.length };
}

const round = (value, digits = 2) => Number(value.toFixed(digits));
const nowUs = () => Number(process.hrtime.bigint()) / 1000;

/** Times `fn(frame)` per frame (µs), after a warm-up pass. */
function timeFrames(frames, fn, warmup = 200) {
  for (let i = 0; i < warmup; i++) fn(frames[i % frames.length]);
  const times = [];
  for (const frame of frames) {
    const start = nowUs();
    fn(frame);
    times.push(nowUs() - start);
  }
  return stats(times);
}

// Test material: eSpeak speech at 16 kHz with a -50 dBFS noise floor, repeated to
// FRAME_COUNT frames, so the engines see realistic content (speech and pauses).
const FRAME_COUNT = 3000;
const loadStart = performance.now();
const synth = await EspeakSynthesizer.create();
const espeakLoadMs = performance.now() - loadStart;
const spoken = await collectSpeech(synth, SENTENCES[2], { voice: 'en-us' });
const speech16k = await resample(spoken.samples, spoken.sampleRate, CALLER_SAMPLE_RATE);
const material = mix(speech16k, whiteNoise(speech16k.length, -50, 1));
const splitter = new FrameSplitter(FRAME_SAMPLES);
const frames = [];
while (frames.length < FRAME_COUNT) frames.push(...splitter.push(material));
frames.length = FRAME_COUNT;

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  frameMs: FRAME_MS,
  stages: {},
};

// WebRTC VAD.
const vad = await WebRtcVad.create();
const vadStats = timeFrames(frames, (frame) => vad.isSpeech(frame));
vad.dispose();
results.stages.webrtcVad = { unit: 'µs per 20 ms frame', mode: vad.mode, ...vadStats };

// RNNoise (with its 16↔48 kHz resampling).
const suppressor = await RnnoiseSuppressor.create();
const rnnoiseStats = timeFrames(frames, (frame) => suppressor.process(frame));
results.stages.rnnoise = {
  unit: 'µs per 20 ms frame (incl. 16↔48 kHz resampling)',
  latencyMs: suppressor.latencyMs,
  ...rnnoiseStats,
};
suppressor.dispose();

// Speex resampler throughput, streaming in realistic chunk sizes.
const resamplerCases = [
  { from: 22_050, to: 16_000, chunk: 2205, label: 'TTS 22.05 → 16 kHz (100 ms chunks)' },
  { from: 16_000, to: 48_000, chunk: 320, label: 'caller 16 → 48 kHz (20 ms frames)' },
  { from: 48_000, to: 16_000, chunk: 960, label: '48 → 16 kHz (20 ms frames)' },
];
results.stages.resampler = [];
for (const { from, to, chunk, label } of resamplerCases) {
  const seconds = 20;
  const input = whiteNoise(from * seconds, -20, 2);
  const resampler = await Resampler.create(from, to);
  resampler.process(input.subarray(0, from)); // warm-up
  resampler.reset();
  const start = performance.now();
  for (let offset = 0; offset < input.length; offset += chunk) {
    resampler.process(input.subarray(offset, offset + chunk));
  }
  const elapsedMs = performance.now() - start;
  resampler.dispose();
  results.stages.resampler.push({
    label,
    quality: resampler.quality,
    inputSamplesPerSecond: Math.round(input.length / (elapsedMs / 1000)),
    timesRealTime: round((seconds * 1000) / elapsedMs, 0),
    usPerChunk: round((elapsedMs * 1000) / Math.ceil(input.length / chunk)),
  });
}

// eSpeak: time to first chunk and real-time factor, as a caller sees them.
const RUNS = 10;
results.stages.espeak = { loadMs: round(espeakLoadMs, 1), voice: 'en-us', sentences: [] };
for (const text of SENTENCES) await collectSpeech(synth, text, { voice: 'en-us' }); // warm-up
for (const text of SENTENCES) {
  const firsts = [];
  const factors = [];
  let audioSeconds = 0;
  let chunkCount = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    let first = -1;
    let samples = 0;
    chunkCount = 0;
    for await (const chunk of synth.synthesize(text, { voice: 'en-us' })) {
      if (first < 0) first = performance.now() - start;
      samples += chunk.length;
      chunkCount++;
    }
    const total = performance.now() - start;
    audioSeconds = samples / synth.sampleRate;
    firsts.push(first);
    factors.push(total / 1000 / audioSeconds);
  }
  results.stages.espeak.sentences.push({
    words: text.split(/\s+/).length,
    audioSeconds: round(audioSeconds),
    chunks: chunkCount,
    firstChunkMs: stats(firsts),
    realTimeFactor: stats(factors),
  });
}
synth.dispose();

mkdirSync(join(root, 'bench/results'), { recursive: true });
const outFile = join(root, 'bench/results/voice-stages.json');
writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);

const f = (v, d = 1) => round(v, d).toString();
const lines = [
  `Voice stages on ${results.cpu} (${results.cores} cores), Node ${results.node}`,
  '',
  '| Stage | Measure | Mean | p50 | p95 | Cost vs real time |',
  '| --- | --- | ---: | ---: | ---: | ---: |',
  `| WebRTC VAD (mode ${results.stages.webrtcVad.mode}) | µs per 20 ms frame (${vadStats.n} frames) | ${f(vadStats.mean, 2)} | ${f(vadStats.p50, 2)} | ${f(vadStats.p95, 2)} | ${f((vadStats.mean / 1000 / FRAME_MS) * 100, 3)} % |`,
  `| RNNoise + 16↔48 kHz (latency ${results.stages.rnnoise.latencyMs} ms) | µs per 20 ms frame (${rnnoiseStats.n} frames) | ${f(rnnoiseStats.mean)} | ${f(rnnoiseStats.p50)} | ${f(rnnoiseStats.p95)} | ${f((rnnoiseStats.mean / 1000 / FRAME_MS) * 100, 2)} % |`,
  ...results.stages.resampler.map(
    (r) =>
      `| Speex resampler q${r.quality}: ${r.label} | µs per chunk (${(r.inputSamplesPerSecond / 1e6).toFixed(1)} M input samples/s) | ${f(r.usPerChunk)} | – | – | ${f(100 / r.timesRealTime, 3)} % (${r.timesRealTime}× real time) |`,
  ),
  ...results.stages.espeak.sentences.map(
    (s) =>
      `| eSpeak NG, ${s.words} words (${s.audioSeconds} s audio, ${s.chunks} chunks) | ms to first chunk (${RUNS} runs) | ${f(s.firstChunkMs.mean, 2)} | ${f(s.firstChunkMs.p50, 2)} | ${f(s.firstChunkMs.p95, 2)} | RTF ${f(s.realTimeFactor.p50, 3)} (${f(1 / s.realTimeFactor.p50, 0)}× real time) |`,
  ),
  '',
  `eSpeak engine load (worker start, WASM, warm-up): ${f(espeakLoadMs)} ms. Results: ${outFile}`,
];
console.log(lines.join('\n'));
