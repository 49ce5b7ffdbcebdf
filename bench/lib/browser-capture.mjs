// Development aid, not a benchmark: what the browser's capture processing does to
// recognition. Our own callers' paraphrased questions (packages/voice/src/reply/testing/
// own-lines.json, never the benchmark's) are played by Debian Chromium's fake microphone
// into getUserMedia with each set of constraints, captured at 48 kHz as the page gets them,
// brought to 16 kHz, and read offline through the product's default recogniser path
// (pocketsphinx, with Moonshine's second opinion) and answered by a fresh local reply
// engine; the same audio sent straight ("socket") is the reference.
//
//   node bench/lib/browser-capture.mjs [voice]          (en-us or slt; build first)
//   CONSTRAINTS='{"name":{…MediaTrackConstraints…},…}' node bench/lib/browser-capture.mjs
//
// Prints, per constraint set: paraphrases answered right, pocketsphinx's word error rate,
// the word error rate of Moonshine's reading where it read the line (else pocketsphinx's),
// and the level of each set's first line. A set takes about two minutes per business.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, microphoneArgs } from './chromium.mjs';
import { fromRoot } from './paths.mjs';
import { disposeSpeech, NOISE_DBFS, spoken, voice, wordErrorRate } from './speech.mjs';

const RATE = 16_000;
const CAPTURE_RATE = 48_000;
/** Quiet before the first line, and between lines. */
const LEAD_SECONDS = 1;
const GAP_SECONDS = 2.5;
/** Around each line, as a turn's pre-roll and its ending silence keep. */
const BEFORE_SECONDS = 0.2;
const AFTER_SECONDS = 0.5;
/** A 20 ms frame this loud starts the first line. */
const ONSET_DBFS = -35;

const SPEAKERS = {
  'en-us': { voice: 'en-us', rate: 165 },
  slt: { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', label: 'slt' },
};
const DEFAULT_CONSTRAINTS = {
  product: (await import(fromRoot('packages/web-call/dist/index.js'))).MICROPHONE_CONSTRAINTS.audio,
  'all off': {
    echoCancellation: false,
    noiseSuppression: false,
    autoGainControl: false,
    channelCount: 1,
  },
  'suppression on': {
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
    channelCount: 1,
  },
};

const own = JSON.parse(
  fs.readFileSync(fromRoot('packages/voice/src/reply/testing/own-lines.json'), 'utf8'),
);
const demo = JSON.parse(
  fs.readFileSync(fromRoot('apps/server/src/db/seed/demo-clinic.json'), 'utf8'),
);
const SETS = {
  demo: { knowledge: demo.knowledgeBase, intake: demo.intake, lines: own.demo.lines },
  vet: { knowledge: own.vet.knowledgeBase, intake: own.vet.intake, lines: own.vet.lines },
};

/** The lines one after another, over a quiet noise floor, and where each one is. */
async function microphoneFile(lines, speaker) {
  const parts = [new Int16Array(LEAD_SECONDS * RATE)];
  const spans = [];
  let at = parts[0].length;
  for (const line of lines) {
    const samples = await spoken(line.text, speaker);
    spans.push([at, at + samples.length]);
    parts.push(samples, new Int16Array(GAP_SECONDS * RATE));
    at += samples.length + GAP_SECONDS * RATE;
  }
  const all = voice.addNoiseFloor(voice.concatInt16(parts), NOISE_DBFS, 11);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-capture-')), 'mic.wav');
  fs.writeFileSync(file, voice.encodeWav({ samples: all, sampleRate: RATE }));
  return { file, spans, all, seconds: all.length / RATE };
}

/** Runs in the page: the microphone as the page hears it, as 16-bit PCM in base64. */
async function captureInPage({ constraints, seconds, rate }) {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: constraints });
  const context = new window.AudioContext({ sampleRate: rate });
  const source = context.createMediaStreamSource(stream);
  const recorder = context.createScriptProcessor(4096, 1, 1);
  const chunks = [];
  recorder.onaudioprocess = (event) =>
    chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
  source.connect(recorder);
  recorder.connect(context.destination);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const samples = new Int16Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let o = 0;
  for (const chunk of chunks)
    for (const x of chunk) samples[o++] = Math.max(-32768, Math.min(32767, Math.round(x * 32767)));
  const bytes = new Uint8Array(samples.buffer);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function capture(origin, microphone, constraints) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...microphoneArgs(microphone.file)],
  });
  try {
    const context = await browser.newContext();
    await context.grantPermissions(['microphone'], { origin });
    const page = await context.newPage();
    await page.goto(origin);
    const base64 = await page.evaluate(captureInPage, {
      constraints,
      seconds: microphone.seconds + 1.5,
      rate: CAPTURE_RATE,
    });
    const bytes = Buffer.from(base64, 'base64');
    const captured = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
    return await voice.resample(captured, CAPTURE_RATE, RATE);
  } finally {
    await browser.close();
  }
}

/** When the first line starts, in seconds. */
function onset(samples) {
  const frame = voice.FRAME_SAMPLES;
  for (let i = 0; i + frame <= samples.length; i += frame)
    if (voice.rmsDbfs(samples.subarray(i, i + frame)) > ONSET_DBFS) return i / RATE;
  throw new Error('No speech was captured.');
}

const speakerKey = process.argv[2] ?? 'en-us';
const speaker = SPEAKERS[speakerKey];
if (!speaker) throw new Error(`unknown voice ${speakerKey} (en-us or slt)`);
const constraintSets = process.env.CONSTRAINTS
  ? JSON.parse(process.env.CONSTRAINTS)
  : DEFAULT_CONSTRAINTS;

// A secure origin for getUserMedia: an empty page on localhost.
const server = http.createServer((_, res) => res.end('<!doctype html><title>capture</title>'));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const results = {};
try {
  for (const [setName, set] of Object.entries(SETS)) {
    const microphone = await microphoneFile(set.lines, speaker);
    const assistant = {
      model: { provider: 'local', model: 'kb', knowledge: set.knowledge, intake: set.intake },
    };
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-capture-lm-'));
    const primary = await voice.PocketsphinxRecognizer.create({
      vocabulary: voice.vocabularyFor(assistant),
      cacheDir,
    });
    const model = voice.MoonshineModel.load();
    const recognizer = new voice.SecondOpinionRecognizer({
      primary,
      model: () => model,
      bias: voice.biasTexts(voice.vocabularyFor(assistant)),
    });
    const sources = { socket: microphone.all };
    for (const [name, constraints] of Object.entries(constraintSets))
      sources[name] = await capture(origin, microphone, constraints);
    const reference = onset(microphone.all);
    for (const [name, samples] of Object.entries(sources)) {
      const shift = Math.round((onset(samples) - reference) * RATE);
      const tally = (results[name] ??= { right: 0, lines: 0, pocketsphinx: [], moonshine: [] });
      // One call per source: each line hands the recogniser's channel estimate to the next.
      let channel;
      for (const [i, line] of set.lines.entries()) {
        const [start, end] = microphone.spans[i];
        const audio = samples.slice(
          Math.max(0, start + shift - BEFORE_SECONDS * RATE),
          Math.min(samples.length, end + shift + AFTER_SECONDS * RATE),
        );
        const stream = recognizer.open(channel ? { channel } : {});
        for (let o = 0; o + voice.FRAME_SAMPLES <= audio.length; o += voice.FRAME_SAMPLES)
          stream.push(audio.subarray(o, o + voice.FRAME_SAMPLES));
        const result = await stream.finish();
        channel = result.channel ?? channel;
        const engine = new voice.LocalReplyEngine({ assistant });
        const heard = await voice.chosenReading(result, engine, []);
        let reply = '';
        for await (const event of engine.reply(
          [{ role: 'user', content: heard }],
          new AbortController().signal,
        ))
          if (event.type === 'text') reply += event.text;
        const entry = set.knowledge.find((k) => k.id === line.expect);
        tally.lines += 1;
        if (entry !== undefined && reply.includes(entry.answer.slice(0, 30))) tally.right += 1;
        tally.pocketsphinx.push({ said: line.text, heard: result.text });
        tally.moonshine.push({ said: line.text, heard: result.secondOpinion?.[0] ?? result.text });
      }
      const [start, end] = microphone.spans[0];
      const level = voice.rmsDbfs(samples.subarray(start + shift, end + shift));
      console.log(`${setName} ${name}: first line at ${level.toFixed(1)} dBFS`);
    }
    primary.dispose();
    await (await model).dispose();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(microphone.file), { recursive: true, force: true });
  }
} finally {
  server.close();
  await disposeSpeech();
}
const percent = (pairs) => `${(100 * wordErrorRate(pairs)).toFixed(1)} %`;
for (const [name, tally] of Object.entries(results))
  console.log(
    `${name}: right ${tally.right} of ${tally.lines}, pocketsphinx WER ${percent(tally.pocketsphinx)}, Moonshine (where it read) WER ${percent(tally.moonshine)}`,
  );
