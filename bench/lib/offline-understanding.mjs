// Development aid, not a benchmark: the understanding sets decoded offline (synthesised
// speech → the product's recogniser → a fresh local reply engine per line), much faster
// than the real-time socket benchmark. `node bench/lib/offline-understanding.mjs [voices]`
// (en-us en-gb f3 slt kal; build first). DENOISE=1 puts RNNoise in front, as calls do;
// SHOW_SOURCES=1 also lists right replies taken from a reading other than the recogniser's
// first; NO_VARIANTS=1 builds the language model from the assistant's own phrases only;
// NO_SOUND_OUT=1 leaves the words the dictionary lacks out of it instead of sounding them out.
// CALL_DENOISER=1 (with DENOISE=1) keeps one denoiser for each voice's call, hearing
// GAP_S seconds (default 1.5) of quiet between lines, as a live call's does; GATE=1 adds
// the call's quiet gate (only frames near speech are denoised).
// CARRY=1 uses pocketsphinx's own live adaptation instead of the product's per-call one.
// The speaker `text` skips speech altogether: each line's own words go to the reply engine,
// which shows what the matcher understands when nothing is misheard.
// RECOGNIZER=product hears as a call of the default transcriber does (pocketsphinx first,
// Moonshine's second opinion on what it doubts); otherwise Moonshine first, pocketsphinx
// following. GENERAL=on-doubt|parallel|at-finish|off sets when the general model runs.
// Tuning knobs: LW_DOMAIN and LW_GENERAL (language weights), MIN_CONFIDENCE (the domain
// answer's threshold); QUIET=1 prints only the totals; ONLY=demo or ONLY=dental decodes
// one business's lines.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from './paths.mjs';
import { demo, devLines, disposeSpeech, NOISE_DBFS, spoken, voice } from './speech.mjs';
const GAP_SAMPLES = Math.round(Number(process.env.GAP_S ?? 1.5) * 16000);

const fixture = (name) =>
  JSON.parse(fs.readFileSync(fromRoot('bench/fixtures/understanding', name), 'utf8'));
const para = fixture('dev-paraphrases.json');
const dental = fixture('dental-practice.json');

const SPEAKERS = {
  'en-us': { voice: 'en-us', rate: 165 },
  'en-gb': { voice: 'en-gb', rate: 150 },
  f3: { voice: 'en-us+f3', rate: 185 },
  slt: { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', label: 'slt' },
  kal: { engine: 'festival', voice: 'kal_diphone', label: 'kal' },
};

async function evaluate(name, knowledge, intake, lines, intakeAnswers, speakers) {
  const assistant = { model: { provider: 'local', model: 'kb', knowledge, intake } };
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-offline-'));
  const pocketsphinx = await voice.PocketsphinxRecognizer.create({
    vocabulary: voice.vocabularyFor(assistant),
    cacheDir,
    ...(process.env.NO_VARIANTS ? { lexicon: null } : {}),
    ...(process.env.NO_SOUND_OUT ? { soundOut: false } : {}),
    ...(process.env.CARRY ? { adaptation: 'carry' } : {}),
    ...(process.env.GENERAL ? { generalFallback: process.env.GENERAL } : {}),
    ...(process.env.MIN_CONFIDENCE
      ? { minDomainConfidence: Number(process.env.MIN_CONFIDENCE) }
      : {}),
    languageWeight: {
      ...(process.env.LW_DOMAIN ? { domain: Number(process.env.LW_DOMAIN) } : {}),
      ...(process.env.LW_GENERAL ? { general: Number(process.env.LW_GENERAL) } : {}),
    },
  });
  // NEURAL=0 hears with pocketsphinx alone, as before Moonshine.
  const moonshine = process.env.NEURAL === '0' ? null : await voice.MoonshineModel.load();
  const bias = voice.biasTexts(voice.vocabularyFor(assistant));
  // RECOGNIZER=product: pocketsphinx with Moonshine's second opinion on what it doubts, as
  // a call of the default transcriber hears; otherwise Moonshine first (the `moonshine`
  // transcriber), pocketsphinx following.
  const recognizer = !moonshine
    ? pocketsphinx
    : process.env.RECOGNIZER === 'product'
      ? new voice.SecondOpinionRecognizer({
          primary: pocketsphinx,
          model: () => Promise.resolve(moonshine),
          bias,
        })
      : new voice.MoonshineRecognizer({ model: moonshine, follower: pocketsphinx, bias });
  const urgentAnswer = knowledge.find((k) => k.urgent)?.answer.slice(0, 30);
  for (const key of speakers) {
    const tally = { paraphrase: [0, 0], urgent: [0, 0], 'off-topic': [0, 0] };
    // Which reading each reply came from: right and wrong replies per source.
    const sources = {};
    let right = 0;
    let falseAlarms = 0;
    let offTopicFacts = 0;
    let errors = 0;
    let words = 0;
    // Recognition time (with the denoiser, when there is one) against the audio's length.
    let decodeMs = 0;
    let audioMs = 0;
    // One call per voice: each line hands the recogniser's channel estimate to the next.
    let channel;
    // CALL_DENOISER=1: one denoiser for the whole call, hearing GAP_S seconds of quiet
    // between lines, as a live call's does (else a fresh one per line).
    const callDenoiser =
      process.env.DENOISE && process.env.CALL_DENOISER
        ? await voice.RnnoiseSuppressor.create()
        : null;
    let gapSeed = 100;
    const callGate = callDenoiser && process.env.GATE ? new voice.QuietGate() : null;
    const callFloor = new voice.NoiseFloor();
    const heardLine = async (text) => {
      const samples = await spoken(text, SPEAKERS[key]);
      const stream = recognizer.open(channel ? { channel } : {});
      const denoiser =
        callDenoiser ?? (process.env.DENOISE ? await voice.RnnoiseSuppressor.create() : null);
      // GATE=1: the call's quiet gate decides which frames the denoiser sees. The line
      // counts as a turn from its third frame clear of the noise floor, as the turn detector
      // starts one; all its frames are heard (a call hears only 10 before a turn starts).
      let loudRun = 0;
      let inTurn = false;
      const inCall = (frame) => {
        const level = voice.rmsDbfs(frame);
        const floor = callFloor.floor();
        loudRun = callFloor.loudEnough(level) ? loudRun + 1 : 0;
        const gate = callGate?.next(frame, level, floor, inTurn);
        if (loudRun >= 3) inTurn = true;
        if (gate && !gate.denoise) return gate.frame;
        for (const quiet of gate?.prime ?? []) denoiser.process(quiet);
        return denoiser.process(frame);
      };
      if (callDenoiser) {
        // The call's quiet between lines goes through the denoiser too, as in a call.
        const gap = voice.addNoiseFloor(new Int16Array(GAP_SAMPLES), NOISE_DBFS, (gapSeed += 1));
        for (let o = 0; o + voice.FRAME_SAMPLES <= gap.length; o += voice.FRAME_SAMPLES)
          inCall(gap.subarray(o, o + voice.FRAME_SAMPLES));
      }
      const started = performance.now();
      for (let o = 0; o + voice.FRAME_SAMPLES <= samples.length; o += voice.FRAME_SAMPLES) {
        const frame = samples.subarray(o, o + voice.FRAME_SAMPLES);
        stream.push(!denoiser ? frame : callDenoiser ? inCall(frame) : denoiser.process(frame));
      }
      if (!callDenoiser) denoiser?.dispose?.();
      const heard = await stream.finish();
      decodeMs += performance.now() - started;
      audioMs += (samples.length / 16000) * 1000;
      channel = heard.channel ?? channel;
      return heard;
    };
    for (const line of lines) {
      const result =
        key === 'text' ? { text: line.text, model: 'text' } : await heardLine(line.text);
      const engine = new voice.LocalReplyEngine({ assistant });
      const heard = await voice.chosenReading(result, engine, []);
      const source =
        heard === result.text.trim()
          ? result.model
          : (result.alternatives ?? []).map((a) => a.trim()).includes(heard)
            ? 'alternative'
            : 'n-best';
      const w = voice.wordErrors(line.text, heard);
      errors += w.errors;
      words += w.words;
      let reply = '';
      for await (const e of engine.reply(
        [{ role: 'user', content: heard }],
        new AbortController().signal,
      )) {
        if (e.type === 'text') reply += e.text;
      }
      const expected =
        line.expect && knowledge.find((k) => k.id === line.expect).answer.slice(0, 30);
      const facts = knowledge.filter((k) => reply.includes(k.answer.slice(0, 30)));
      const ok = expected ? reply.includes(expected) : facts.length === 0;
      const kind = !line.expect
        ? 'off-topic'
        : knowledge.find((k) => k.id === line.expect).urgent
          ? 'urgent'
          : 'paraphrase';
      tally[kind][1] += 1;
      if (ok) tally[kind][0] += 1;
      if (ok) right += 1;
      const answered = facts.length > 0;
      if (kind !== 'urgent' && urgentAnswer !== undefined && reply.includes(urgentAnswer))
        falseAlarms += 1;
      if (kind === 'off-topic' && answered) offTopicFacts += 1;
      sources[source] ??= { right: 0, wrong: 0, unanswered: 0 };
      sources[source][ok ? 'right' : answered ? 'wrong' : 'unanswered'] += 1;
      if (process.env.QUIET) continue;
      if (!ok || (process.env.SHOW_SOURCES && source !== result.model))
        console.log(
          `  ${key}${ok ? ' ok' : ''}: "${line.text}" heard "${heard}" (${source}; first "${result.text}") → ${reply.slice(0, 60)}`,
        );
    }
    // The intake answers, each after its question (the call's channel carried on), heard
    // with the question's own model and, for comparison, with the assistant's domain model.
    const intakeWer = { question: [0, 0], domain: [0, 0] };
    for (const [i, answer] of key === 'text' ? [] : intakeAnswers.entries()) {
      const question = intake.questions[i]?.ask;
      const samples = await spoken(answer, SPEAKERS[key]);
      for (const mode of ['question', 'domain']) {
        const stream = recognizer.open({
          ...(channel ? { channel } : {}),
          ...(mode === 'question' ? { question } : {}),
        });
        for (let o = 0; o + voice.FRAME_SAMPLES <= samples.length; o += voice.FRAME_SAMPLES)
          stream.push(samples.subarray(o, o + voice.FRAME_SAMPLES));
        const result = await stream.finish();
        const w = voice.wordErrors(answer, result.text);
        intakeWer[mode][0] += w.errors;
        intakeWer[mode][1] += w.words;
        if (w.errors > 0 && !process.env.QUIET)
          console.log(`  ${key} intake (${mode}): "${answer}" heard "${result.text}"`);
      }
    }
    const pct = ([e, n]) => `${((e / n) * 100).toFixed(1)} %`;
    console.log(
      `${name} ${key}: intake WER with the question's model ${pct(intakeWer.question)}, with the domain model ${pct(intakeWer.domain)}`,
    );
    const t = Object.entries(tally)
      .map(([k, [a, b]]) => `${k} ${a}/${b}`)
      .join(', ');
    console.log(
      `${name} ${key}: ${right}/${lines.length} right (${t}), false alarms ${falseAlarms}, off-topic facts ${offTopicFacts}, WER ${((errors / words) * 100).toFixed(1)} %`,
    );
    console.log(`${name} ${key}: by reading ${JSON.stringify(sources)}`);
    console.log(
      `${name} ${key}: recognition ${(decodeMs / 1000).toFixed(1)} s for ${(audioMs / 1000).toFixed(1)} s of speech (real-time factor ${(decodeMs / audioMs).toFixed(3)})`,
    );
  }
  pocketsphinx.dispose();
  await moonshine?.dispose();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}

const speakers = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SPEAKERS);
for (const key of speakers)
  if (key !== 'text' && !SPEAKERS[key]) throw new Error(`unknown speaker ${key}`);
const only = process.env.ONLY;
if (only !== undefined && only !== 'demo' && only !== 'dental')
  throw new Error(`ONLY is demo or dental, not ${only}`);
if (only !== 'dental')
  await evaluate(
    'demo',
    demo.knowledgeBase,
    demo.intake,
    [...para.lines, ...para.urgent, ...para.offTopic.map((text) => ({ text }))],
    devLines.intakeAnswers,
    speakers,
  );
if (only !== 'demo')
  await evaluate(
    'dental',
    dental.knowledgeBase,
    dental.intake,
    [...dental.lines, ...dental.offTopic.map((text) => ({ text }))],
    dental.intakeAnswers,
    speakers,
  );
await disposeSpeech();
