// Development aid, not a benchmark: our own callers' lines (packages/voice/src/reply/testing/
// own-lines.json, never the benchmark's), spoken in a few voices and read offline through
// the product's default recogniser path (pocketsphinx, with Moonshine's second opinion on
// what it doubts), then answered by a fresh local reply engine. Safe to tune on.
//
//   node bench/lib/offline-own-lines.mjs [voices…]   (en-us en-gb f3 m3 slt kal text; build first)
//     records every line's readings in READINGS (default /tmp/own-lines-readings.json),
//     then judges them (ONLY=brief,answer records only those kinds of line);
//   node bench/lib/offline-own-lines.mjs --judge [file]
//     judges recorded readings again with the current build of the reply engine, in
//     seconds: how a change to the reading choice or the matcher does, on the same audio.
//     IN_CALL=1 says each business's lines in one call per voice (see `IN_CALL`).
//     BENCH_LINES=1 records and judges the benchmark's lines instead (see `benchSets`).
//     RNNoise is in front of both recognisers, as in a call; DENOISE=primary puts it in front
//     of pocketsphinx only (Moonshine hears the line as sent), DENOISE=none nowhere.
//     Moonshine favours the assistant's words, as in a call; BIAS=0 records without it.
//
// Per set, voice and kind of line: right, asked ("Do you mean …?"; of those, "right after
// asking" when the caller's "yes", "the first one" or "the second one" then got the
// answer), none ("I do not know"), wrong (another entry's answer, or an emergency answer
// to an ordinary line), and for off-topic lines ok, asked ("Do you mean …?": the caller
// must say no) or FACT (told an entry's answer); for requests for the brief in other words (the demo clinic's), right
// when the brief starts (its first question is asked) and wrong on an emergency answer
// (any other line that starts the brief is counted as "brief started"); for answers to the
// brief's questions (heard with the question's model, and chosen in a call whose brief has
// reached that question), the word error rate of the reading taken; false alarms (an
// emergency answer to a line that is not urgent) are counted apart too, and the "all" rows
// sum every voice and set.
// SHOW=1 lists every line not right (and every off-topic line not ok).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from './paths.mjs';
import { disposeSpeech, spoken, voice } from './speech.mjs';

const own = JSON.parse(
  fs.readFileSync(fromRoot('packages/voice/src/reply/testing/own-lines.json'), 'utf8'),
);
const demo = JSON.parse(
  fs.readFileSync(fromRoot('apps/server/src/db/seed/demo-clinic.json'), 'utf8'),
);
/** What a request for the brief expects (not an entry). */
const BRIEF = '@brief';
/** What an answer to the brief's question expects: `@answer:` and the question's id. */
const ANSWER = '@answer:';
const kindOf = (knowledge, expect) => {
  if (expect === null) return 'off-topic';
  if (expect === BRIEF) return 'brief';
  if (expect.startsWith(ANSWER)) return 'answer';
  return knowledge.find((k) => k.id === expect)?.urgent ? 'urgent' : 'paraphrase';
};
const OWN_SETS = {
  demo: {
    knowledge: demo.knowledgeBase,
    intake: demo.intake,
    lines: [
      ...own.demo.lines,
      ...own.demo.urgent,
      ...own.demo.offTopic.map((text) => ({ text })),
      ...own.demo.briefRequests.map((text) => ({ text, expect: BRIEF })),
      ...Object.entries(own.demo.briefAnswers).flatMap(([id, texts]) =>
        texts.map((text) => ({ text, expect: `${ANSWER}${id}` })),
      ),
    ],
  },
  // Every other business of our own lines: its knowledge base, paraphrases, urgent and
  // off-topic lines, and answers to its intake's questions where it has one.
  ...Object.fromEntries(
    Object.entries(own)
      .filter(([name, business]) => name !== 'demo' && business?.knowledgeBase !== undefined)
      .map(([name, business]) => [
        name,
        {
          knowledge: business.knowledgeBase,
          intake: business.intake,
          lines: [
            ...business.lines,
            ...business.urgent,
            ...business.offTopic.map((text) => ({ text })),
            ...Object.entries(business.briefAnswers ?? {}).flatMap(([id, texts]) =>
              texts.map((text) => ({ text, expect: `${ANSWER}${id}` })),
            ),
          ],
        },
      ]),
  ),
};

/**
 * BENCH_LINES=1: the understanding benchmark's lines instead (bench/fixtures/understanding:
 * the demo clinic's paraphrases, urgent and off-topic lines, and the dental practice's), to
 * see what a change does to them on recorded audio. Measure on them; never tune on them.
 */
const benchFixture = (name) =>
  JSON.parse(fs.readFileSync(fromRoot('bench/fixtures/understanding', name), 'utf8'));
const benchSets = () => {
  const para = benchFixture('dev-paraphrases.json');
  const dental = benchFixture('dental-practice.json');
  const linesOf = (set) => [
    ...set.lines,
    ...(set.urgent ?? []),
    ...set.offTopic.map((text) => ({ text })),
  ];
  return {
    demo: { knowledge: demo.knowledgeBase, intake: demo.intake, lines: linesOf(para) },
    dental: { knowledge: dental.knowledgeBase, intake: dental.intake, lines: linesOf(dental) },
  };
};
const SETS = process.env.BENCH_LINES === '1' ? benchSets() : OWN_SETS;
const SPEAKERS = {
  'en-us': { voice: 'en-us', rate: 165 },
  'en-gb': { voice: 'en-gb', rate: 150 },
  f3: { voice: 'en-us+f3', rate: 185 },
  m3: { voice: 'en-us+m3', rate: 170 },
  slt: { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', label: 'slt' },
  kal: { engine: 'festival', voice: 'kal_diphone', label: 'kal' },
  /** No speech: each line's own words, as if heard perfectly (judges the matcher alone). */
  text: null,
};
/** Quiet before and after each line, as a turn's pre-roll and its ending silence keep. */
const LEAD_SAMPLES = 3_200;
const TAIL_SAMPLES = 8_000;
/** 100 ms: the quiet after which a call tells its recogniser the caller paused. */
const PAUSE_SAMPLES = 1_600;
/**
 * Where RNNoise goes: `all` (as a call has it), `primary` or `none` (see `record`). Measured
 * on our own lines in four voices: Moonshine hearing the line as sent does no better than
 * hearing it cleaned (paraphrases right 211 of 368 with RNNoise before pocketsphinx only,
 * 218 before both; brief answers' WER 17.3 % and 15.4 %).
 */
const DENOISE = process.env.DENOISE ?? 'all';
if (!['all', 'primary', 'none'].includes(DENOISE))
  throw new Error(`DENOISE=${DENOISE}: all, primary or none`);

const assistantOf = ({ knowledge, intake }) => ({
  model: { provider: 'local', model: 'kb', knowledge, intake },
});

async function record(speakers) {
  const rows = [];
  for (const [set, definition] of Object.entries(SETS)) {
    const assistant = assistantOf(definition);
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-own-lines-'));
    const primary = await voice.PocketsphinxRecognizer.create({
      vocabulary: voice.vocabularyFor(assistant),
      cacheDir,
    });
    const model = voice.MoonshineModel.load();
    // RNNoise in front of both recognisers (DENOISE=all, as a call has it) or of pocketsphinx
    // only (DENOISE=primary: Moonshine hears the line as sent). One denoiser per voice's
    // call, as in a call (the quiet between lines is not sent through it).
    let denoiser = null;
    const denoised = (stream) =>
      new Proxy(stream, {
        get: (target, key) =>
          key === 'push'
            ? (frame) => target.push(denoiser.process(frame))
            : typeof target[key] === 'function'
              ? target[key].bind(target)
              : target[key],
      });
    const front =
      DENOISE === 'primary'
        ? { provider: primary.provider, open: (o) => denoised(primary.open(o)), dispose() {} }
        : primary;
    // As a call has it: Moonshine favours the assistant's words (BIAS=0: it does not).
    const recognizer = new voice.SecondOpinionRecognizer({
      primary: front,
      model: () => model,
      ...(process.env.BIAS === '0'
        ? {}
        : { bias: voice.biasTexts(voice.vocabularyFor(assistant)) }),
    });
    const lines = definition.lines.filter(
      (line) =>
        ONLY.length === 0 || ONLY.includes(kindOf(definition.knowledge, line.expect ?? null)),
    );
    for (const key of speakers) {
      // One call per voice: each line hands the recogniser's channel estimate to the next.
      let channel;
      denoiser?.dispose?.();
      denoiser =
        DENOISE !== 'none' && key !== 'text' ? await voice.RnnoiseSuppressor.create() : null;
      for (const line of lines) {
        if (key === 'text') {
          rows.push({
            set,
            voice: key,
            text: line.text,
            expect: line.expect ?? null,
            result: { text: line.text },
          });
          continue;
        }
        const speech = await spoken(line.text, SPEAKERS[key]);
        const samples = new Int16Array(LEAD_SAMPLES + speech.length + TAIL_SAMPLES);
        samples.set(voice.addNoiseFloor(new Int16Array(LEAD_SAMPLES), -55, 7));
        samples.set(speech, LEAD_SAMPLES);
        samples.set(
          voice.addNoiseFloor(new Int16Array(TAIL_SAMPLES), -55, 9),
          LEAD_SAMPLES + speech.length,
        );
        // An answer to the brief is heard with its question's model, as in a call.
        const question = line.expect?.startsWith(ANSWER)
          ? `Okay. ${askOf(definition.intake, line.expect)}`
          : undefined;
        const stream = recognizer.open({
          ...(channel ? { channel } : {}),
          ...(question ? { question } : {}),
        });
        // As in a call: the caller's pause (100 ms of quiet after the words) is told to the
        // recogniser, which may begin reading there (Moonshine's second opinion).
        const pauseAt = LEAD_SAMPLES + speech.length + PAUSE_SAMPLES;
        for (let o = 0; o + voice.FRAME_SAMPLES <= samples.length; o += voice.FRAME_SAMPLES) {
          const frame = samples.subarray(o, o + voice.FRAME_SAMPLES);
          stream.push(DENOISE === 'all' ? denoiser.process(frame) : frame);
          if (o + voice.FRAME_SAMPLES >= pauseAt && o < pauseAt) stream.pause?.(100);
        }
        const { recheck, ...result } = await stream.finish();
        channel = result.channel ?? channel;
        // The whole turn's reading, for the emergency check after the turn was answered.
        const late = recheck ? await recheck : [];
        rows.push({
          set,
          voice: key,
          text: line.text,
          expect: line.expect ?? null,
          result: { ...result, channel: undefined, ...(late.length > 0 ? { late } : {}) },
        });
      }
    }
    denoiser?.dispose?.();
    denoiser = null;
    primary.dispose();
    await (await model).dispose();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  await disposeSpeech();
  return rows;
}

/** The brief's question an answer line answers. */
const askOf = (intake, expect) =>
  intake.questions.find((q) => q.id === expect.slice(ANSWER.length))?.ask ?? '';

/** Answers given to the brief's questions before the one an answer line answers. */
const EARLIER_ANSWERS = ['a bad cough', 'two days', 'no', 'no', 'no'];

/** A call that has asked for the brief and answered it up to the question `expect` names. */
async function briefUpTo(engine, intake, expect) {
  const history = [];
  const say = async (text) => {
    history.push({ role: 'user', content: text });
    let reply = '';
    for await (const event of engine.reply([...history], new AbortController().signal))
      if (event.type === 'text') reply += event.text;
    history.push({ role: 'assistant', content: reply });
  };
  await say('i would like to give a brief');
  const at = intake.questions.findIndex((q) => q.id === expect.slice(ANSWER.length));
  for (let i = 0; i < at; i++) await say(EARLIER_ANSWERS[i] ?? 'no');
  const asked = history.at(-1)?.content ?? '';
  if (!asked.endsWith(askOf(intake, expect))) throw new Error(`The brief did not ask: ${asked}`);
  return history;
}

/** The caller's plain replies to "Do you mean …?": to one topic offered, or to two. */
const REPLIES_TO_ASKING = ['yes', 'the first one', 'the second one'];

/**
 * Whether one of the caller's plain replies to the question just asked (the last message of
 * `history`) gets the entry's answer, on a copy of the call (the call goes on unchanged).
 */
async function answeredAfterAsking(engine, history, entry) {
  for (const said of REPLIES_TO_ASKING) {
    let reply = '';
    const tried = [...history, { role: 'user', content: said }];
    for await (const event of engine.reply(tried, new AbortController().signal))
      if (event.type === 'text') reply += event.text;
    if (reply.includes(entry.answer.slice(0, 30))) return true;
  }
  return false;
}

/**
 * With IN_CALL=1, the paraphrased, urgent and off-topic lines of each business and voice
 * are said one after another in one call, as the understanding benchmark says its lines:
 * what one line starts (a question of ours, the brief) meets the next. Otherwise every line
 * is a call of its own.
 */
const IN_CALL = process.env.IN_CALL === '1';

async function judge(rows) {
  const tally = {};
  /** Word errors of answers to the brief, per voice and in all. */
  const answerErrors = {};
  /** In a call (IN_CALL): each business and voice's engine and history so far. */
  const calls = new Map();
  for (const row of rows) {
    const { knowledge, intake } = SETS[row.set];
    const kind = kindOf(knowledge, row.expect);
    if (IN_CALL && (kind === 'brief' || kind === 'answer')) continue;
    const callKey = `${row.set} ${row.voice}`;
    if (IN_CALL && !calls.has(callKey)) {
      const assistant = assistantOf(SETS[row.set]);
      calls.set(callKey, { engine: new voice.LocalReplyEngine({ assistant }), history: [] });
    }
    const engine = IN_CALL
      ? calls.get(callKey).engine
      : new voice.LocalReplyEngine({ assistant: assistantOf(SETS[row.set]) });
    const history = IN_CALL ? calls.get(callKey).history : [];
    if (kind === 'answer') {
      const briefHistory = await briefUpTo(engine, intake, row.expect);
      const heard = await voice.chosenReading(row.result, engine, briefHistory);
      const { errors, words } = voice.wordErrors(row.text, heard);
      for (const key of [`${row.set} ${row.voice} answers`, 'all answers']) {
        answerErrors[key] ??= { errors: 0, words: 0 };
        answerErrors[key].errors += errors;
        answerErrors[key].words += words;
      }
      if (process.env.SHOW && errors > 0)
        console.log(
          `answer ${row.set}/${row.voice}: "${row.text}" taken as "${heard}" (pocketsphinx "${row.result.text}", Moonshine ${JSON.stringify(row.result.secondOpinion ?? [])})`,
        );
      continue;
    }
    const before = [...history];
    let heard = await voice.chosenReading(row.result, engine, history);
    // As in a call: an emergency heard only in the whole turn's later reading takes the
    // turn over (the caller's words corrected, the reply given again).
    const missed = engine.missedEmergency(heard, row.result.late ?? [], before);
    if (missed >= 0) heard = row.result.late[missed];
    history.push({ role: 'user', content: heard });
    let reply = '';
    for await (const event of engine.reply([...history], new AbortController().signal))
      if (event.type === 'text') reply += event.text;
    history.push({ role: 'assistant', content: reply });
    if (missed >= 0) {
      for (const key of [`${row.set} ${row.voice} ${kind}`, `all ${kind}`]) {
        tally[key] ??= {};
        tally[key]['taken over late'] = (tally[key]['taken over late'] ?? 0) + 1;
      }
    }
    const entry = knowledge.find((k) => k.id === row.expect);
    const told = knowledge.filter((k) => reply.includes(k.answer.slice(0, 30)));
    const alarm = entry?.urgent !== true && /emergency|in danger/i.test(reply);
    // A brief started on a line that did not ask for it takes the caller's next lines in
    // the call as its answers.
    const briefStarted = intake?.questions.some((q) => reply.includes(q.ask)) === true;
    const asked = /do you mean/i.test(reply);
    const verdict =
      kind === 'brief'
        ? briefStarted
          ? 'right'
          : alarm
            ? 'wrong'
            : 'none'
        : entry === undefined
          ? told.length > 0
            ? 'FACT'
            : asked
              ? 'asked'
              : 'ok'
          : reply.includes(entry.answer.slice(0, 30))
            ? 'right'
            : asked
              ? 'asked'
              : told.length > 0 || /emergency|in danger/i.test(reply)
                ? 'wrong'
                : 'none';
    // Asked about a paraphrase: whether the caller's plain reply to the question ("yes", or
    // which of two) then gets the answer, as the benchmark's caller answers.
    const rightAfterAsking =
      verdict === 'asked' &&
      entry !== undefined &&
      (await answeredAfterAsking(engine, history, entry));
    for (const key of [`${row.set} ${row.voice} ${kind}`, `all ${kind}`]) {
      tally[key] ??= {};
      tally[key][verdict] = (tally[key][verdict] ?? 0) + 1;
      if (rightAfterAsking)
        tally[key]['right after asking'] = (tally[key]['right after asking'] ?? 0) + 1;
      if (alarm) tally[key]['false alarm'] = (tally[key]['false alarm'] ?? 0) + 1;
      if (kind !== 'brief' && briefStarted) {
        tally[key]['brief started'] = (tally[key]['brief started'] ?? 0) + 1;
      }
    }
    if (process.env.SHOW && verdict !== 'right' && verdict !== 'ok')
      console.log(
        `${verdict} ${row.set}/${row.voice}: "${row.text}" answered "${heard}" (pocketsphinx "${row.result.text}", Moonshine ${JSON.stringify(row.result.secondOpinion ?? [])}) → ${reply.slice(0, 60)}`,
      );
  }
  for (const [key, counts] of Object.entries(tally)) console.log(key, JSON.stringify(counts));
  for (const [key, { errors, words }] of Object.entries(answerErrors))
    console.log(key, `WER ${((100 * errors) / words).toFixed(1)} % (${errors} of ${words} words)`);
}

/** The kinds of line to record (paraphrase, urgent, off-topic, brief, answer); none: every line. */
const ONLY = (process.env.ONLY ?? '').split(',').filter((kind) => kind !== '');
const args = process.argv.slice(2);
const file = process.env.READINGS ?? path.join(os.tmpdir(), 'own-lines-readings.json');
if (args[0] === '--judge') {
  await judge(JSON.parse(fs.readFileSync(args[1] ?? file, 'utf8')));
} else {
  const speakers = args.length > 0 ? args : ['en-us', 'en-gb', 'slt'];
  for (const key of speakers) if (!(key in SPEAKERS)) throw new Error(`unknown voice ${key}`);
  const rows = await record(speakers);
  fs.writeFileSync(file, JSON.stringify(rows));
  console.log(`${rows.length} readings in ${file}`);
  await judge(rows);
}
