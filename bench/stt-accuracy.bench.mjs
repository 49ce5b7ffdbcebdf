// Speech recognition accuracy and cost, on eSpeak speech (several voices and rates,
// resampled to 16 kHz by sox, -55 dBFS noise floor, 20 ms frames).
//
//   npx tsc -b packages/voice && node bench/stt-accuracy.bench.mjs
//
// For each voice/rate: WER of the domain model alone, the general model alone and the
// product's combination (domain first, general fallback 'on-doubt'), on the product's dev
// lines, intake answers and off-topic lines; per-frame push cost, finish() latency, real-time
// factor, model build and decoder load times, memory per decoder. Writes
// bench/results/stt-accuracy.json and prints Markdown tables.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'packages/voice/dist/stt');
const {
  PocketsphinxRecognizer,
  buildDomainModel,
  corpusWordErrorRate,
  pocketsphinxAvailable,
  modelFiles,
} = await import(join(dist, 'index.js'));
const { pocketsphinx } = await import(join(dist, 'pocketsphinx/native.js'));
const { spokenFramesAll, speechToolsAvailable } = await import(join(dist, 'testing/speech.js'));

if (!pocketsphinxAvailable() || !speechToolsAvailable()) {
  console.error('needs libpocketsphinx3, pocketsphinx-en-us, espeak-ng and sox');
  process.exit(1);
}

const DEV = [
  'what are your opening hours',
  'when are you open',
  'where are you located',
  'is there parking near the clinic',
  'do you accept my insurance',
  'how much does a consultation cost',
  'where is the pharmacy',
  'i would like to book an appointment',
  'i need to cancel my appointment',
  'how do i get my test results',
  'do you offer flu shots',
  'i need a prescription refill',
  'i have chest pain',
  'i would like to give a brief',
  'goodbye',
];
const INTAKE = [
  'i have a bad cough and a sore throat',
  'about three days',
  'no i am not taking anything',
  'i am allergic to penicillin',
];
const OFF = [
  'the weather is lovely in spring',
  'my cat likes to sleep on the sofa',
  'can you recommend a good restaurant',
  'the football match was exciting yesterday',
  'please tell me a joke about computers',
];
const VOICES = [
  { voice: 'en-us', rate: 140 },
  { voice: 'en-us', rate: 170 },
  { voice: 'en-gb', rate: 140 },
  { voice: 'en-gb', rate: 170 },
  { voice: 'en-us+f3', rate: 140 },
  { voice: 'en-us+f3', rate: 170 },
];

const seed = JSON.parse(
  readFileSync(join(root, 'apps/server/src/db/seed/demo-clinic.json'), 'utf8'),
);
const vocabulary = {
  sentences: [...seed.knowledgeBase.flatMap((e) => e.questions), ...seed.intake.trigger],
  keywords: [],
  assistantQuestions: seed.intake.questions.map((q) => q.ask),
};

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { n: s.length, mean, p50: q(0.5), p95: q(0.95), max: s.at(-1) ?? 0 };
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const rss = () => process.memoryUsage().rss / 1e6;

const cacheDir = mkdtempSync(join(tmpdir(), 'stt-bench-'));
const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavgAtStart: loadavg() },
  date: new Date().toISOString(),
};

// Model build: cold, then from the cache.
const files = modelFiles();
let t = performance.now();
const cold = buildDomainModel({
  vocabulary,
  cacheDir,
  dictionaryPath: files.dictionary,
  version: 'bench',
});
const coldMs = performance.now() - t;
const warm = buildDomainModel({
  vocabulary,
  cacheDir,
  dictionaryPath: files.dictionary,
  version: 'bench',
});
results.modelBuild = {
  coldMs: round(coldMs, 1),
  cachedMs: round(warm.buildMs, 2),
  words: cold.wordCount,
  sentences: cold.sentenceCount,
  ngrams: cold.ngramCounts,
  droppedWords: cold.droppedWords,
};

// Decoder load time and memory (RSS growth per extra decoder, 4 of each).
const ps = pocketsphinx();
function decoderCost(lm, dict, flags) {
  const made = [];
  const before = rss();
  const times = [];
  for (let i = 0; i < 4; i++) {
    const start = performance.now();
    const config = ps.parseConfig([
      '-hmm',
      files.acousticModel,
      '-lm',
      lm,
      '-dict',
      dict,
      '-logfn',
      '/dev/null',
      ...flags,
    ]);
    made.push([ps.init(config), config]);
    times.push(performance.now() - start);
  }
  const perDecoderMb = (rss() - before) / 4;
  for (const [d, c] of made) {
    ps.free(d);
    ps.freeConfig(c);
  }
  return { initMs: round(stats(times).mean, 1), rssMbPerDecoder: round(perDecoderMb, 1) };
}
results.decoders = {
  domain: decoderCost(cold.lmPath, cold.dictPath, ['-fwdflat', 'no', '-bestpath', 'no']),
  general: decoderCost(files.generalLm, files.dictionary, [
    '-fwdflat',
    'no',
    '-bestpath',
    'yes',
    '-maxhmmpf',
    '3000',
    '-maxwpf',
    '10',
  ]),
};

// Audio.
const items = [];
for (const voice of VOICES) {
  for (const text of DEV) items.push({ text, voice, set: 'dev' });
  for (const text of INTAKE) items.push({ text, voice, set: 'intake' });
  for (const text of OFF) items.push({ text, voice, set: 'off' });
}
t = performance.now();
const audio = await spokenFramesAll(items);
results.synthesisMs = round(performance.now() - t, 0);

// Recognisers: domain only, general only, and the product's combination.
t = performance.now();
const systems = {
  domain: await PocketsphinxRecognizer.create({
    vocabulary,
    cacheDir,
    vocabularyVersion: 'bench',
    generalFallback: 'off',
  }),
  general: await PocketsphinxRecognizer.create({ cacheDir }),
  combined: await PocketsphinxRecognizer.create({
    vocabulary,
    cacheDir,
    vocabularyVersion: 'bench',
  }),
  parallel: await PocketsphinxRecognizer.create({
    vocabulary,
    cacheDir,
    vocabularyVersion: 'bench',
    generalFallback: 'parallel',
  }),
};
results.createMs = round(performance.now() - t, 0);

const runs = {};
for (const [name, rec] of Object.entries(systems)) {
  const rows = [];
  for (let i = 0; i < items.length; i++) {
    const frames = audio[i];
    const s = rec.open();
    const push = [];
    for (const f of frames) {
      const a = performance.now();
      s.push(f);
      push.push(performance.now() - a);
    }
    const r = s.finish();
    rows.push({
      ...items[i],
      hyp: r.text,
      model: r.model,
      confidence: r.confidence,
      finishMs: r.finishMs,
      push,
      audioMs: frames.length * 20,
    });
  }
  runs[name] = rows;
}

const voiceKey = (v) => `${v.voice}@${v.rate}`;
const table = [];
for (const voice of VOICES) {
  for (const set of ['dev', 'intake', 'off']) {
    const row = { voice: voiceKey(voice), set };
    for (const name of Object.keys(systems)) {
      const rows = runs[name].filter((r) => r.voice === voice && r.set === set);
      row[name] = round(corpusWordErrorRate(rows.map((r) => [r.text, r.hyp])) * 100, 1);
    }
    row.combinedUsedGeneral = runs.combined.filter(
      (r) => r.voice === voice && r.set === set && r.model === 'general',
    ).length;
    row.lines = runs.combined.filter((r) => r.voice === voice && r.set === set).length;
    table.push(row);
  }
}
results.wer = table;
results.werOverall = {};
for (const set of ['dev', 'intake', 'off']) {
  results.werOverall[set] = {};
  for (const name of Object.keys(systems)) {
    const rows = runs[name].filter((r) => r.set === set);
    results.werOverall[set][name] = round(
      corpusWordErrorRate(rows.map((r) => [r.text, r.hyp])) * 100,
      1,
    );
  }
}

results.cost = {};
for (const name of Object.keys(systems)) {
  const rows = runs[name];
  const push = stats(rows.flatMap((r) => r.push).map((x) => x * 1000));
  const finish = stats(rows.map((r) => r.finishMs));
  const cpu = rows.reduce((a, r) => a + r.push.reduce((x, y) => x + y, 0) + r.finishMs, 0);
  const audioMs = rows.reduce((a, r) => a + r.audioMs, 0);
  results.cost[name] = {
    pushUs: { mean: round(push.mean, 0), p95: round(push.p95, 0), max: round(push.max, 0) },
    finishMs: { mean: round(finish.mean, 2), p95: round(finish.p95, 2), max: round(finish.max, 2) },
    rtf: round(cpu / audioMs, 3),
  };
  if (name === 'combined' || name === 'parallel') {
    for (const model of ['domain', 'general']) {
      const f = stats(rows.filter((r) => r.model === model).map((r) => r.finishMs));
      results.cost[name][`finishMsWhen_${model}`] = {
        n: f.n,
        mean: round(f.mean, 2),
        p95: round(f.p95, 2),
        max: round(f.max, 2),
      };
    }
  }
}
// finish() for utterances of about 3 s (2.5–3.5 s of audio), the product's combination.
const threeSec = runs.combined.filter((r) => r.audioMs >= 2500 && r.audioMs <= 3500);
results.cost.combined.finishMsFor3sUtterances = {
  n: threeSec.length,
  ...Object.fromEntries(
    Object.entries(stats(threeSec.map((r) => r.finishMs))).map(([k, v]) => [k, round(v, 2)]),
  ),
};
results.slowFinishes = runs.combined
  .filter((r) => r.finishMs > 50)
  .map((r) => ({
    voice: voiceKey(r.voice),
    ref: r.text,
    model: r.model,
    audioMs: r.audioMs,
    finishMs: round(r.finishMs, 1),
  }));
results.loadavgAtEnd = loadavg();
results.errors = runs.combined
  .filter((r) => r.hyp !== r.text)
  .map((r) => ({
    voice: voiceKey(r.voice),
    ref: r.text,
    hyp: r.hyp,
    model: r.model,
    confidence: round(r.confidence, 2),
  }));

for (const rec of Object.values(systems)) rec.dispose();
rmSync(cacheDir, { recursive: true, force: true });

mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, 'bench/results/stt-accuracy.json'),
  JSON.stringify(results, null, 2) + '\n',
);

const md = [];
md.push('### WER % (domain only / general only / combined = product / parallel fallback)', '');
md.push(
  '| voice | set | domain | general | combined | parallel | combined used general |',
  '|---|---|---|---|---|---|---|',
);
for (const r of table)
  md.push(
    `| ${r.voice} | ${r.set} | ${r.domain} | ${r.general} | ${r.combined} | ${r.parallel} | ${r.combinedUsedGeneral}/${r.lines} |`,
  );
for (const [set, w] of Object.entries(results.werOverall))
  md.push(`| **all** | ${set} | ${w.domain} | ${w.general} | ${w.combined} | ${w.parallel} | |`);
md.push('', '### Cost', '');
md.push(
  '| system | push µs mean | push µs p95 | push µs max | finish ms mean | finish ms p95 | finish ms max | RTF |',
  '|---|---|---|---|---|---|---|---|',
);
for (const [name, c] of Object.entries(results.cost)) {
  md.push(
    `| ${name} | ${c.pushUs.mean} | ${c.pushUs.p95} | ${c.pushUs.max} | ${c.finishMs.mean} | ${c.finishMs.p95} | ${c.finishMs.max} | ${c.rtf} |`,
  );
}
const c3 = results.cost.combined.finishMsFor3sUtterances;
md.push(
  '',
  `finish() on ~3 s utterances (combined, n=${c3.n}): mean ${c3.mean} ms, p95 ${c3.p95} ms, max ${c3.max} ms`,
);
for (const m of ['domain', 'general']) {
  const f = results.cost.combined[`finishMsWhen_${m}`];
  md.push(
    `finish() when the ${m} answer is taken (combined, n=${f.n}): mean ${f.mean} ms, p95 ${f.p95} ms, max ${f.max} ms`,
  );
}
md.push('', '### Models', '');
md.push(
  `domain model build: ${results.modelBuild.coldMs} ms cold, ${results.modelBuild.cachedMs} ms cached (${results.modelBuild.words} words, ${results.modelBuild.sentences} sentences, n-grams ${results.modelBuild.ngrams.join('/')})`,
);
md.push(
  `decoder load: domain ${results.decoders.domain.initMs} ms, ${results.decoders.domain.rssMbPerDecoder} MB; general ${results.decoders.general.initMs} ms, ${results.decoders.general.rssMbPerDecoder} MB (RSS growth per decoder)`,
);
md.push(
  `machine: ${results.machine.cpus} cores, load average ${results.machine.loadavgAtStart.map((x) => x.toFixed(2)).join(' ')} at start (shared machine: timings are noisy)`,
);
console.log(md.join('\n'));
