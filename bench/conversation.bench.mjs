// End to end over the web-call socket: the dev lines spoken by eSpeak voices (with a
// noise floor, in real time) to the demo clinic on a real server. Measures word error
// rate of what the server heard, answer accuracy (did the reply come from the expected
// knowledge-base entry or act), and the per-turn latencies the server recorded.
// Writes bench/results/conversation.json and prints Markdown tables.
//
// Run after building: npm run build && node bench/conversation.bench.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { buildApp } = await import(path.join(root, 'apps/server/dist/app.js'));
const { loadConfig } = await import(path.join(root, 'apps/server/dist/config.js'));
const voice = await import(path.join(root, 'packages/voice/dist/index.js'));
const demo = JSON.parse(
  fs.readFileSync(path.join(root, 'apps/server/dist/db/seed/demo-clinic.json'), 'utf8'),
);
const { lines, intakeAnswers } = JSON.parse(
  fs.readFileSync(path.join(root, 'bench/fixtures/dev-utterances.json'), 'utf8'),
);

const VOICES = [
  { voice: 'en-us', rate: 165 },
  { voice: 'en-gb', rate: 150 },
  { voice: 'en-us+f3', rate: 185 },
];
const NOISE_DBFS = -55;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-bench-'));
const { app, createdKeys } = await buildApp(
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_UNICODE: 'bench-demo' }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${app.server.address().port}`;
const key = createdKeys.find((k) => k.record.kind === 'private').key;
const api = async (method, pathname, body) => {
  const response = await fetch(`${base}/platform${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
};
const [assistant] = await api('GET', '/assistant');
const synthesizer = await voice.EspeakSynthesizer.create();

async function spoken(text, { voice: name, rate }) {
  const speech = await voice.collectSpeech(synthesizer, text, { voice: name, rate });
  const samples = await voice.resample(speech.samples, speech.sampleRate, voice.CALLER_SAMPLE_RATE);
  return voice.addNoiseFloor(samples, NOISE_DBFS, text.length);
}

/** A caller: streams a microphone in real time and collects what the assistant sends. */
async function connect(url) {
  const socket = new WebSocket(url);
  const messages = [];
  const queue = [];
  let seed = 1;
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const text = data.toString();
    try {
      messages.push(JSON.parse(text));
    } catch {
      messages.push(text);
    }
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  await waitFor(() => messages.includes('listening'));
  socket.send(JSON.stringify({ type: 'playable' }));
  let next = performance.now();
  const tick = () => {
    if (socket.readyState !== WebSocket.OPEN) return;
    const frame = queue.shift() ?? voice.whiteNoise(voice.FRAME_SAMPLES, NOISE_DBFS, (seed += 1));
    socket.send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
    next += 20;
    setTimeout(tick, Math.max(0, next - performance.now()));
  };
  tick();
  const speak = async (samples) => {
    for (let offset = 0; offset < samples.length; offset += voice.FRAME_SAMPLES) {
      const frame = new Int16Array(voice.FRAME_SAMPLES);
      frame.set(samples.subarray(offset, offset + voice.FRAME_SAMPLES));
      queue.push(frame);
    }
    await waitFor(() => queue.length === 0, 30_000);
  };
  return { socket, messages, speak };
}

async function waitFor(predicate, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = predicate();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const after = (messages, from, match) =>
  messages.slice(from).find((m) => typeof m === 'object' && match(m));
const opening = (text) => text.toLowerCase().split(' ').slice(0, 4).join(' ');
const expectedReply = (expect) => {
  if (expect === 'intake') return opening(demo.intake.questions[0].ask);
  if (expect === 'end-call') return opening(demo.assistant.endCallMessage);
  return opening(demo.knowledgeBase.find((entry) => entry.id === expect).answer);
};

const results = [];
for (const speaker of VOICES) {
  const call = await api('POST', '/call/web', {
    assistantId: assistant.id,
    assistantOverrides: {
      transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US' },
      variableValues: { name: 'Sam' },
    },
  });
  const caller = await connect(call.webCallUrl);
  await waitFor(
    () =>
      after(
        caller.messages,
        0,
        (m) => m.type === 'speech-update' && m.role === 'assistant' && m.status === 'stopped',
      ),
    30_000,
  );

  const turns = [];
  const script = [
    ...lines.filter((l) => l.expect !== 'intake' && l.expect !== 'end-call'),
    ...lines.filter((l) => l.expect === 'intake'),
  ];
  const say = async (text, expect) => {
    const from = caller.messages.length;
    await caller.speak(await spoken(text, speaker));
    const heard =
      (
        await waitFor(
          () =>
            after(
              caller.messages,
              from,
              (m) => m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final',
            ),
          10_000,
        )
      )?.transcript ?? '';
    const reply = await waitFor(
      () => after(caller.messages, from, (m) => m.type === 'transcript' && m.role === 'assistant'),
      15_000,
    );
    // Let the whole reply play, so the conversation stays what a patient caller would have.
    await waitFor(
      () =>
        after(
          caller.messages,
          from,
          (m) => m.type === 'speech-update' && m.role === 'assistant' && m.status === 'stopped',
        ),
      40_000,
    );
    const replyText = caller.messages
      .slice(from)
      .filter((m) => typeof m === 'object' && m.type === 'transcript' && m.role === 'assistant')
      .map((m) => m.transcript)
      .join(' ');
    turns.push({
      text,
      heard,
      errors: voice.wordErrors(text, heard),
      expect,
      reply: replyText,
      correct:
        expect === undefined ? null : replyText.toLowerCase().includes(expectedReply(expect)),
      replied: reply !== undefined,
    });
  };
  for (const line of script) await say(line.text, line.expect);
  for (const answer of intakeAnswers) await say(answer, undefined);
  await say('yes', undefined);
  const goodbye = lines.find((l) => l.expect === 'end-call');
  await say(goodbye.text, goodbye.expect);
  await waitFor(() => caller.socket.readyState === WebSocket.CLOSED, 15_000);
  const record = await api('GET', `/call/${call.id}`);
  results.push({
    ...speaker,
    turns,
    latency: record.latency?.turns ?? [],
    endedReason: record.endedReason,
    brief: record.analysis?.structuredData,
  });
  console.error(`${speaker.voice} @ ${speaker.rate} wpm: done`);
}
await app.close();
await synthesizer.dispose();

const sum = (values) => values.reduce((a, b) => a + b, 0);
const pct = (value) => `${(value * 100).toFixed(1)} %`;
const quantile = (values, q) => {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  return sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const werOf = (turns) => {
  const words = sum(turns.map((t) => t.errors.words));
  return words === 0 ? 0 : sum(turns.map((t) => t.errors.errors)) / words;
};

const summary = results.map((r) => {
  const graded = r.turns.filter((t) => t.correct !== null);
  const devTurns = r.turns.filter((t) => t.expect !== undefined);
  const intakeTurns = r.turns.filter((t) => t.expect === undefined && t.text !== 'yes');
  return {
    voice: r.voice,
    rate: r.rate,
    devLineWer: werOf(devTurns),
    intakeAnswerWer: werOf(intakeTurns),
    answerAccuracy: graded.filter((t) => t.correct).length / graded.length,
    wrongAnswers: graded
      .filter((t) => !t.correct)
      .map((t) => ({ said: t.text, heard: t.heard, reply: t.reply.slice(0, 80) })),
    endedReason: r.endedReason,
    briefConfirmed: r.brief?.confirmed ?? false,
  };
});
const allLatency = results.flatMap((r) => r.latency);
const stages = [
  'endOfSpeechDelayMs',
  'recognitionMs',
  'firstTextMs',
  'firstAudioMs',
  'voiceToVoiceMs',
];
const latency = Object.fromEntries(
  stages.map((stage) => {
    const values = allLatency.map((t) => t[stage]);
    return [
      stage,
      { median: quantile(values, 0.5), p95: quantile(values, 0.95), max: quantile(values, 1) },
    ];
  }),
);

const output = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
  noiseFloorDbfs: NOISE_DBFS,
  summary,
  latency,
  turns: results.length * (lines.length + intakeAnswers.length + 1),
  detail: results,
};
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'bench/results/conversation.json'),
  `${JSON.stringify(output, null, 2)}\n`,
);

console.log(
  '\n| voice | rate (wpm) | WER dev lines | WER intake answers | answer accuracy | brief confirmed | ended |',
);
console.log('| --- | ---: | ---: | ---: | ---: | --- | --- |');
for (const s of summary) {
  console.log(
    `| ${s.voice} | ${s.rate} | ${pct(s.devLineWer)} | ${pct(s.intakeAnswerWer)} | ${pct(s.answerAccuracy)} | ${s.briefConfirmed} | ${s.endedReason} |`,
  );
}
console.log('\n| stage (ms) | median | p95 | max |');
console.log('| --- | ---: | ---: | ---: |');
for (const [stage, v] of Object.entries(latency))
  console.log(`| ${stage} | ${v.median} | ${v.p95} | ${v.max} |`);
for (const s of summary)
  for (const w of s.wrongAnswers)
    console.log(`wrong (${s.voice}): said "${w.said}", heard "${w.heard}", reply "${w.reply}"`);
