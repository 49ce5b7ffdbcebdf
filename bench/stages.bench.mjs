// Each voice-engine stage alone, on this machine: how much of real time it costs, next to
// a reference measured in the same run (word error rate for recognition, Debian's native
// espeak-ng for synthesis, the 20 ms frame budget for the per-frame stages).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { table } from './lib/markdown.mjs';
import { importBuilt } from './lib/paths.mjs';
import { quantile } from './lib/stats.mjs';
import { devLines, disposeSpeech, VOICES, voice } from './lib/speech.mjs';
import {
  callerUtterances,
  FRAME_MS,
  timeRnnoise,
  timeTtsResampler,
  timeVad,
} from './lib/stages-audio.mjs';
import { timeReplies } from './lib/stages-reply.mjs';
import {
  createRecognizers,
  decodeAll,
  disposeRecognizers,
  generalShare,
  recognitionCost,
  SYSTEM_NAMES,
  timeModelBuild,
  werPercent,
} from './lib/stages-stt.mjs';
import { compareSynthesis, loadSynthesizer } from './lib/stages-tts.mjs';
import { BOOTH_OVERRIDES } from './lib/talk-server.mjs';

const { demoAssistantDefinition } = await importBuilt('apps/server/dist/db/seed/demo-assistant.js');

export const title = 'Voice engine stages';
export const about =
  'Each stage of the embedded voice engine alone, as a real-time factor (RTF = compute ÷ ' +
  'audio duration on one core; 0.05 means a second of audio costs 50 ms, which is also the ' +
  'mean share of each 20 ms frame). Caller audio: the dev lines, intake answers and ' +
  'off-topic lines in several eSpeak voices at 16 kHz over a −55 dBFS noise floor, ' +
  'synthesized once and fed in 20 ms frames as a call does, each as the first utterance ' +
  'of a call (intake answers after their question). References from the same run: ' +
  'the 95th-percentile frame against the 20 ms budget; for recognition, each model’s word ' +
  'error rate on the same audio (the domain model is fast and accurate in-domain but turns ' +
  'off-topic speech into word salad, hence the product’s fallback to the general model; ' +
  'eSpeak is not a person, so absolute WER on human callers will differ); for synthesis, ' +
  'Debian’s native `espeak-ng` speaking the same sentences (the greeting and every answer), ' +
  'one process per sentence, with its process start shown apart. Then the latencies a ' +
  'caller feels, and one-off costs.';

/** Off-topic lines: what callers also say, outside the assistant's domain. */
const OFF_TOPIC = [
  'the weather is lovely in spring',
  'my cat likes to sleep on the sofa',
  'can you recommend a good restaurant',
  'the football match was exciting yesterday',
  'please tell me a joke about computers',
];
const SETS = ['dev', 'intake', 'off'];
const FULL = {
  voices: VOICES,
  perSet: Infinity,
  sentences: Infinity,
  ttsRounds: 3,
  replyRepeats: 20,
};
const QUICK = {
  voices: VOICES.slice(0, 1),
  perSet: 2,
  sentences: 3,
  ttsRounds: 1,
  replyRepeats: 2,
};

export async function run({ quick, log }) {
  const plan = quick ? QUICK : FULL;
  const { assistant, variableValues } = voice.effectiveAssistant(
    demoAssistantDefinition(),
    BOOTH_OVERRIDES,
  );
  const utterances = await callerAudio(plan.perSet, plan.voices);
  const frames = utterances.flatMap((utterance) => utterance.frames);
  const seconds = (frames.length * FRAME_MS) / 1000;
  log(`${utterances.length} utterances, ${seconds.toFixed(0)} s of caller audio`);

  const rnnoise = await timeRnnoise(frames);
  const vad = await timeVad(frames);
  log('RNNoise and VAD done');
  const { modelBuild, recognition } = await measureRecognition(assistant, utterances, plan.voices);
  log('recognition done');
  const { synthesis, resampler } = await measureSynthesis(assistant, variableValues, plan);
  log('synthesis done');
  const replies = await timeReplies(
    () => new voice.LocalReplyEngine({ assistant, variableValues }),
    knowledgeLines(),
    plan.replyRepeats,
  );

  return report({
    audio: { utterances: utterances.length, seconds, voices: plan.voices },
    rnnoise,
    vad,
    recognition,
    modelBuild,
    synthesis,
    resampler,
    replies,
    loadAverage: os.loadavg(),
  });
}

/** The caller utterances, synthesized once up front. */
async function callerAudio(perSet, voices) {
  try {
    return await callerUtterances(callerLines(perSet), voices);
  } finally {
    await disposeSpeech();
  }
}

/** Model build, then the three recognisers on every utterance, in a throw-away model cache. */
async function measureRecognition(assistant, utterances, voices) {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-stages-'));
  let recognizers = null;
  try {
    const vocabulary = voice.vocabularyFor(assistant);
    const modelBuild = await timeModelBuild(vocabulary, cacheDir);
    recognizers = await createRecognizers(vocabulary, cacheDir);
    const runs = decodeAll(recognizers, utterances);
    return { modelBuild, recognition: recognitionResults(runs, recognizers, voices) };
  } finally {
    if (recognizers !== null) disposeRecognizers(recognizers);
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** eSpeak in-process against the CLI, then the resampler on what eSpeak produced. */
async function measureSynthesis(assistant, variableValues, plan) {
  const { synthesizer, loadMs } = await loadSynthesizer();
  try {
    const sentences = spokenSentences(assistant, variableValues).slice(0, plan.sentences);
    const { product, cli, samples } = await compareSynthesis(
      synthesizer,
      sentences,
      plan.ttsRounds,
    );
    return {
      synthesis: { loadMs, sentences: sentences.length, product, cli },
      resampler: await timeTtsResampler(samples),
    };
  } finally {
    synthesizer.dispose();
  }
}

/** The lines callers say, by set; `perSet` of each (quick mode takes a few). */
function callerLines(perSet) {
  const questions = demoAssistantDefinition().model.intake.questions.map((q) => q.ask);
  const sets = {
    dev: devLines.lines.map(({ text }) => ({ text })),
    // Each intake answer after the question it answers, as in a call.
    intake: devLines.intakeAnswers.map((text, i) => ({ text, question: questions[i] })),
    off: OFF_TOPIC.map((text) => ({ text })),
  };
  return SETS.flatMap((set) => sets[set].slice(0, perSet).map((line) => ({ ...line, set })));
}

/** Lines answered from the knowledge base (no intake, no goodbye, which change the call). */
function knowledgeLines() {
  return devLines.lines.filter((line) => line.expect !== 'intake' && line.expect !== 'end-call');
}

/** What the assistant says, sentence by sentence as the session speaks it: the greeting and every answer. */
function spokenSentences(assistant, variableValues) {
  const texts = [
    voice.greetingOf(assistant.firstMessage, variableValues),
    ...assistant.model.knowledge.map((entry) => entry.answer),
  ];
  return texts.flatMap((text) => voice.splitSentences(text));
}

function recognitionResults(runs, recognizers, voices) {
  const systems = Object.fromEntries(
    SYSTEM_NAMES.map((name) => [
      name,
      {
        cost: recognitionCost(runs[name]),
        decoderInitMs: recognizers[name].decoderInitMs,
        rssGrowthMb: recognizers[name].rssMb,
        werBySet: Object.fromEntries(
          SETS.map((set) => [
            set,
            werPercent(runs[name].filter((row) => row.utterance.set === set)),
          ]),
        ),
      },
    ]),
  );
  const errors = runs.product
    .filter((row) => voice.wordErrors(row.utterance.text, row.hyp).errors > 0)
    .map((row) => ({
      voice: voiceLabel(row.utterance.voice),
      said: row.utterance.text,
      heard: row.hyp,
      model: row.model,
    }));
  return { systems, wer: werRows(runs, voices), productErrors: errors };
}

/** WER by voice and set, then of all voices together by set (when there are several). */
function werRows(runs, voices) {
  const groups = voices.map((speaker) => ({
    label: voiceLabel(speaker),
    match: (utterance) => utterance.voice === speaker,
  }));
  if (voices.length > 1) groups.push({ label: 'all voices', match: () => true });
  return groups.flatMap(({ label, match }) =>
    SETS.map((set) => {
      const pick = (rows) =>
        rows.filter((row) => row.utterance.set === set && match(row.utterance));
      return {
        voice: label,
        set,
        lines: pick(runs.product).length,
        ...Object.fromEntries(SYSTEM_NAMES.map((name) => [name, werPercent(pick(runs[name]))])),
        productUsedGeneral: generalShare(pick(runs.product)),
      };
    }),
  );
}

const voiceLabel = (speaker) => `${speaker.voice} @ ${speaker.rate} wpm`;

function report(results) {
  const { recognition: rec, synthesis } = results;
  const markdown = [
    table(
      [
        'Stage',
        'Audio (s)',
        'Compute (ms)',
        'RTF',
        '× real time',
        'µs per 20 ms of audio',
        'p95 frame (% of 20 ms)',
        'Reference (same run)',
      ],
      stageRows(results),
    ),
    '',
    '**Word error rate, %** (same audio; "product" is the recogniser a call uses):',
    '',
    table(
      ['Voice', 'Set', 'Lines', 'Domain model', 'General model', 'Product', 'Product took general'],
      rec.wer.map((row) => [
        row.voice,
        row.set,
        row.lines,
        pct(row.domain),
        pct(row.general),
        pct(row.product),
        row.productUsedGeneral,
      ]),
    ),
    '',
    '**Latencies a caller feels, and per-reply cost:**',
    '',
    table(['Measure', 'p50', 'p95', 'Max', 'Count'], latencyRows(results)),
    '',
    `One-off costs: domain model build ${fixed(results.modelBuild.coldMs)} ms cold, ${fixed(results.modelBuild.cachedMs, 2)} ms from the cache ` +
      `(${results.modelBuild.words} words, ${results.modelBuild.sentences} sentences, n-grams ${results.modelBuild.ngrams.join(' / ')}); ` +
      `decoder load: general model ${fixed(rec.systems.general.decoderInitMs)} ms, the product's domain + general pair ${fixed(rec.systems.product.decoderInitMs)} ms ` +
      `(+${fixed(rec.systems.product.rssGrowthMb)} MB RSS, one pair per live call); eSpeak engine load ${fixed(synthesis.loadMs)} ms; ` +
      `espeak-ng CLI process start (empty text) ${fixed(synthesis.cli.processStartMs)} ms.`,
  ].join('\n');
  return { summary: summaryOf(results), markdown, details: results };
}

/**
 * One row per stage. RTF is also the mean share of the 20 ms frame budget; the per-frame
 * stages add their 95th-percentile frame, since one slow frame delays all behind it.
 */
function stageRows({ rnnoise, vad, recognition, synthesis, resampler }) {
  const row = (name, cost, p95Us, reference) => [
    name,
    fixed(cost.audioSeconds),
    fixed(cost.computeMs),
    sig(cost.rtf),
    Math.round(1 / cost.rtf),
    Math.round(cost.rtf * FRAME_MS * 1000),
    p95Us === null ? null : `${Math.round(p95Us)} µs (${sig((100 * p95Us) / (FRAME_MS * 1000))} %)`,
    reference,
  ];
  const wer = (name) => {
    const bySet = recognition.systems[name].werBySet;
    return `WER ${SETS.map((set) => `${set} ${pct(bySet[set])} %`).join(', ')}`;
  };
  const recogniser = (name, label) => {
    const { cost } = recognition.systems[name];
    return row(label, cost, cost.p95Us, wer(name));
  };
  const { product, cli } = synthesis;
  const cliNetRtf =
    (cli.computeMs - cli.processStartMs * synthesis.sentences) / 1000 / cli.audioSeconds;
  return [
    row(
      `RNNoise, incl. 16↔48 kHz resampling (${rnnoise.latencyMs} ms delay)`,
      rnnoise,
      rnnoise.p95Us,
      '–',
    ),
    row(`WebRTC VAD (mode ${vad.mode})`, vad, vad.p95Us, '–'),
    recogniser('domain', 'pocketsphinx, domain model alone'),
    recogniser('general', 'pocketsphinx, general model alone'),
    recogniser('product', 'Recogniser (domain, general fallback)'),
    row(
      'eSpeak NG in-process (WASM, worker thread)',
      product,
      null,
      `espeak-ng CLI: RTF ${sig(cli.rtf)}, ${sig(cliNetRtf)} without its process starts`,
    ),
    row(
      `Speex resampler 22.05 → 16 kHz, q${resampler.quality}, 100 ms chunks`,
      resampler,
      null,
      '–',
    ),
  ];
}

function latencyRows({ recognition, synthesis, replies }) {
  const firstChunk = synthesis.product.firstChunkMs;
  const cost = recognition.systems.product.cost;
  const finishRow = (name, latency) =>
    latency === null
      ? [name, null, null, null, 0]
      : [name, fixed(latency.p50, 2), fixed(latency.p95, 2), fixed(latency.max, 2), latency.count];
  return [
    [
      'eSpeak time to first chunk of a sentence (ms)',
      fixed(quantile(firstChunk, 0.5), 2),
      fixed(quantile(firstChunk, 0.95), 2),
      fixed(quantile(firstChunk, 1), 2),
      firstChunk.length,
    ],
    finishRow('Recogniser finish() at the end of a turn (ms)', cost.finishMs),
    finishRow('… when the domain answer is taken (ms)', cost.finishMsWhenDomain),
    finishRow('… when it falls back to the general model (ms)', cost.finishMsWhenGeneral),
    [
      'Local reply engine, per reply, first turn (µs)',
      Math.round(replies.firstTurnUs.p50),
      Math.round(replies.firstTurnUs.p95),
      null,
      replies.firstTurnUs.count,
    ],
    [
      `Local reply engine, per reply after ${replies.afterHistoryUs.turnsBefore} turns of its call (µs)`,
      Math.round(replies.afterHistoryUs.p50),
      Math.round(replies.afterHistoryUs.p95),
      null,
      replies.afterHistoryUs.count,
    ],
    [
      `… replaying the ${replies.replayingHistoryUs.turnsBefore} turns first (another engine's call, µs)`,
      Math.round(replies.replayingHistoryUs.p50),
      Math.round(replies.replayingHistoryUs.p95),
      null,
      replies.replayingHistoryUs.count,
    ],
  ];
}

function summaryOf({ rnnoise, vad, recognition, synthesis, resampler, replies, modelBuild }) {
  const rtf = (cost) => sig(cost.rtf);
  return {
    rtf: {
      rnnoise: rtf(rnnoise),
      vad: rtf(vad),
      domain: rtf(recognition.systems.domain.cost),
      general: rtf(recognition.systems.general.cost),
      recogniser: rtf(recognition.systems.product.cost),
      espeak: rtf(synthesis.product),
      espeakCli: rtf(synthesis.cli),
      resampler: rtf(resampler),
    },
    werPercent: Object.fromEntries(
      SYSTEM_NAMES.map((name) => [name, recognition.systems[name].werBySet]),
    ),
    finishMsP95: recognition.systems.product.cost.finishMs.p95,
    replyUsP50: replies.firstTurnUs.p50,
    modelBuildMs: { cold: modelBuild.coldMs, cached: modelBuild.cachedMs },
  };
}

/** Two significant digits: RTFs span 0.0002 to 0.2. */
const sig = (value) =>
  value === null || !Number.isFinite(value) ? null : Number(value.toPrecision(2));
const fixed = (value, digits = 1) =>
  value === null || value === undefined ? null : Number(value.toFixed(digits));
const pct = (value) => fixed(value);
