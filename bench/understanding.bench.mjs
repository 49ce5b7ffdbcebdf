// Understanding: does the assistant answer what a caller means when the caller does not use
// the knowledge base's own words? Lines from bench/fixtures/understanding (paraphrases, urgent
// and off-topic lines for the demo clinic; a dental practice created through the platform
// API with its own lines and brief), spoken in eSpeak NG and festival voices over a quiet
// noise floor, in real time through the call socket; a few through the booth in Chromium.
// These lines are measurement only: nothing in the product is built from them.
import fs from 'node:fs';
import { Caller } from './lib/caller.mjs';
import { boothTurns } from './lib/browser-call.mjs';
import { table } from './lib/markdown.mjs';
import { fromRoot } from './lib/paths.mjs';
import {
  demo,
  devLines,
  disposeSpeech,
  FESTIVAL_VOICES,
  festivalProblem,
  speakerLabel,
  spoken,
  voice,
  wordErrorRate,
} from './lib/speech.mjs';
import { quantile } from './lib/stats.mjs';
import { BOOTH_OVERRIDES, startTalkServer } from './lib/talk-server.mjs';

export const title = 'Understanding callers in their own words';
export const about =
  'Answer accuracy on lines that are not the knowledge base’s own wording: the demo clinic’s ' +
  'paraphrases, urgent and off-topic lines (bench/fixtures/understanding/dev-paraphrases.json) ' +
  'and a second business, a dental practice created through the platform API with its own ' +
  'knowledge base, brief and lines (dental-practice.json). Each set is one call per voice; ' +
  'every line is synthesised at run time (eSpeak NG voices and Debian’s festival voices) over ' +
  'a −55 dBFS noise floor and sent through the real call socket in real time; the demo ' +
  'clinic’s own questions are the reference row. A reply is right when it holds the expected ' +
  'entry’s answer; a clarifying question is counted apart, not as right. After one, the caller ' +
  'answers as a caller would (“yes” when the topic offered is what they asked, “the first one” ' +
  'or “the second one” between two, otherwise “no”), spoken in the same voice, and “right ' +
  'after asking” counts the paraphrases whose answer then came. “Off-topic given a fact” ' +
  'counts off-topic lines answered with any knowledge-base answer; “false alarms” counts ' +
  'ordinary lines answered with the urgent entry. “Missed, heard word for word” counts the ' +
  'paraphrases not answered right at once although the recognised words were the ones said: ' +
  'those misses are the matcher’s, the others mostly the recogniser’s. The booth rows send the same paraphrases ' +
  'through Chromium’s fake microphone, its capture processing and the page’s worklet. The ' +
  'voices of a set talk at once (one call each), so latencies are under that load; the ' +
  'latency benchmark has the single-call figures. Read a row with its spread: two runs at ' +
  'c6a93ae moved a voice’s accuracy by up to three lines (11 points; the booth path up to ' +
  'six), two at eaa1819 by up to two lines (7 points for the demo clinic, 12.5 for the ' +
  'dental practice; the booth path two), though the recogniser gives the same words for ' +
  'the same audio: the same line reaches it differently. Until 2feb2aa one eSpeak instance ' +
  'spoke every line and its pitch flutter ran on from line to line, so a line was spoken a ' +
  'little differently in each run; each line now has a fresh synthesizer (the en-us+f3 ' +
  'voice’s breath noise is still random). Between lines the caller’s ' +
  'microphone sends noise for as long as the reply takes, which differs from run to run, ' +
  'and the call’s denoiser, noise floor and channel estimate carry it.';

const pct = (value) => (value === null ? '–' : `${(value * 100).toFixed(1)} %`);

const ESPEAK_VOICES = [
  { voice: 'en-us', rate: 165 },
  { voice: 'en-gb', rate: 150 },
  { voice: 'en-us+f3', rate: 185 },
];

function fixture(name) {
  return JSON.parse(fs.readFileSync(fromRoot('bench/fixtures/understanding', name), 'utf8'));
}

const paraphrases = fixture('dev-paraphrases.json');
const dental = fixture('dental-practice.json');
const briefRequests = fixture('brief-requests.json');

/** The dental practice in the platform's assistant fields, as a business would create it. */
function dentalAssistant() {
  return {
    name: dental.assistant.name,
    firstMessage: dental.assistant.firstMessage,
    endCallMessage: dental.assistant.endCallMessage,
    endCallPhrases: dental.assistant.endCallPhrases,
    transcriber: { provider: 'pocketsphinx', model: 'en-us', language: 'en' },
    model: {
      provider: 'local',
      model: 'knowledge-base',
      knowledge: dental.knowledgeBase,
      intake: dental.intake,
    },
    voice: { provider: 'espeak', voiceId: 'en-us' },
  };
}

/** What each line is, and the answer opening that proves the expected entry answered. */
function setOf(name, knowledge, items) {
  const opening = (id) =>
    knowledge
      .find((e) => e.id === id)
      .answer.toLowerCase()
      .split(' ')
      .slice(0, 5)
      .join(' ');
  const urgentId = knowledge.find((e) => e.urgent)?.id;
  return {
    name,
    openings: knowledge.map((e) => ({ id: e.id, opening: opening(e.id) })),
    // How the assistant names each entry when it asks "Do you mean …?".
    topics: knowledge.map((e) => ({ id: e.id, topic: voice.topicOf(e).toLowerCase() })),
    urgentOpening: urgentId === undefined ? null : opening(urgentId),
    lines: items,
  };
}

function sets({ quick }) {
  const demoKb = demo.knowledgeBase;
  const para = [
    ...paraphrases.lines.map((l) => ({ text: l.text, kind: 'paraphrase', expect: l.expect })),
    ...paraphrases.urgent.map((l) => ({ text: l.text, kind: 'urgent', expect: l.expect })),
    ...paraphrases.offTopic.map((text) => ({ text, kind: 'off-topic', expect: null })),
  ];
  const kindOf = (knowledge, id) =>
    knowledge.find((e) => e.id === id)?.urgent ? 'urgent' : 'paraphrase';
  const reference = devLines.lines
    .filter((l) => demoKb.some((e) => e.id === l.expect))
    .map((l) => ({ text: l.text, kind: kindOf(demoKb, l.expect), expect: l.expect }));
  const dentalLines = [
    ...dental.lines.map((l) => ({
      text: l.text,
      kind: kindOf(dental.knowledgeBase, l.expect),
      expect: l.expect,
    })),
    ...dental.offTopic.map((text) => ({ text, kind: 'off-topic', expect: null })),
  ];
  const pick = (lines) =>
    quick
      ? ['paraphrase', 'urgent', 'off-topic'].map((k) => lines.find((l) => l.kind === k))
      : lines;
  return [
    { ...setOf('demo clinic, paraphrases', demoKb, pick(para)), assistant: 'demo' },
    ...(quick
      ? []
      : [
          {
            ...setOf('demo clinic, own questions (reference)', demoKb, reference),
            assistant: 'demo',
          },
        ]),
    {
      ...setOf(
        'dental practice (platform API)',
        dental.knowledgeBase,
        pick(dentalLines).filter(Boolean),
      ),
      assistant: 'dental',
    },
  ];
}

function judge(set, line, reply) {
  const r = reply.toLowerCase();
  const answered = set.openings.filter((o) => r.includes(o.opening)).map((o) => o.id);
  return {
    correct: line.expect !== null && answered.includes(line.expect),
    answered,
    urgentAnswered: set.urgentOpening !== null && r.includes(set.urgentOpening),
    clarified: /\bdo you mean\b|\bor do you\b|\bwhich (?:one|of)\b/.test(r),
  };
}

/** What a caller answers to a clarifying question, said in their voice (see `followUpOf`). */
const FOLLOW_UPS = { yes: 'yes', first: 'the first one', second: 'the second one', no: 'no' };

/**
 * A caller's answer to the assistant's clarifying question about a line: "yes" when the one
 * topic offered is the one they asked about, "the first one" or "the second one" when it is
 * one of two, otherwise "no"; null when the reply asked nothing (or the line is urgent: an
 * emergency is never asked about).
 */
function followUpOf(set, line, reply) {
  if (line.kind === 'urgent' || !judge(set, line, reply).clarified) return null;
  const r = reply.toLowerCase();
  const offered = set.topics
    .map((t) => ({ id: t.id, at: r.indexOf(t.topic) }))
    .filter((t) => t.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((t) => t.id);
  const at = line.expect === null ? -1 : offered.indexOf(line.expect);
  if (at < 0) return 'no';
  if (offered.length === 1) return 'yes';
  return at === 0 ? 'first' : 'second';
}

/** WER of what was heard against what was said, over turns; null without words. */
const turnWer = (turns) => wordErrorRate(turns.map((t) => ({ said: t.text, heard: t.heard })));

/**
 * Every line in every voice, spoken before any call starts: synthesis blocks the event loop
 * this process's callers and server share (about 0.5 s a line), which mid-call would hold
 * back the callers' audio and then deliver it in a burst.
 */
async function spokenAll(speakers, lines) {
  const audio = [];
  for (const speaker of speakers) {
    const mine = [];
    for (const line of lines) mine.push(await spoken(line.text, speaker));
    audio.push(mine);
  }
  return audio;
}

/**
 * One call saying the lines in order. With `followUps` (the set and the speaker's audio of
 * each of {@link FOLLOW_UPS}), a clarifying question is answered before the next line, and
 * the turn keeps what the caller said to it and the reply that came.
 */
async function talk(server, assistantId, lines, audio, followUps) {
  const call = await server.platform('POST', '/call/web', {
    assistantId,
    assistantOverrides: BOOTH_OVERRIDES,
  });
  const caller = await Caller.connect(call.webCallUrl);
  const turns = [];
  try {
    await caller.untilAssistantStops(0);
    for (const [i, line] of lines.entries()) {
      const result = await caller.turn(audio[i]);
      const said = followUps && followUpOf(followUps.set, line, result.reply);
      const after = said ? await caller.turn(followUps.audio[said]) : null;
      turns.push({
        ...line,
        ...result,
        followUp: said ?? null,
        afterHeard: after?.heard ?? null,
        afterReply: after?.reply ?? null,
      });
    }
  } finally {
    await caller.hangUp();
  }
  return { turns, callId: call.id };
}

function score(set, speaker, path, turns) {
  const answersQuestions = turns.some((t) => 'followUp' in t);
  const judged = turns.map((t) => ({ ...t, ...judge(set, t, t.reply) }));
  const of = (kind) => judged.filter((t) => t.kind === kind);
  const share = (items, test) =>
    items.length === 0 ? null : items.filter(test).length / items.length;
  const ordinary = judged.filter((t) => t.kind !== 'urgent');
  const latencies = judged.map((t) => t.voiceToVoiceMs).filter((v) => v !== null);
  return {
    set: set.name,
    speaker: speakerLabel(speaker),
    path,
    lines: judged.length,
    accuracy: share(of('paraphrase'), (t) => t.correct),
    urgentRecall: share(of('urgent'), (t) => t.urgentAnswered),
    falseAlarms: ordinary.filter((t) => t.urgentAnswered).length,
    ordinaryLines: ordinary.length,
    offTopicWithFact: of('off-topic').filter((t) => t.answered.length > 0).length,
    offTopicLines: of('off-topic').length,
    clarifying: judged.filter((t) => t.clarified).length,
    // Paraphrases asked about, and of those, answered right once the caller replied (null
    // where the caller could not reply: the booth's microphone plays one file).
    askedParaphrases: answersQuestions ? of('paraphrase').filter((t) => t.followUp).length : null,
    rightAfterAsking: of('paraphrase').filter(
      (t) => t.afterReply && judge(set, t, t.afterReply).correct,
    ).length,
    // What limits the accuracy: questions missed although the recogniser heard them word
    // for word (the matcher's), against those it misheard (the recogniser's, mostly).
    missedHeardRight: of('paraphrase').filter(
      (t) => !t.correct && voice.wordErrors(t.text, t.heard).errors === 0,
    ).length,
    missed: of('paraphrase').filter((t) => !t.correct).length,
    wer: turnWer(judged),
    p50: latencies.length === 0 ? null : quantile(latencies, 0.5),
    p95: latencies.length === 0 ? null : quantile(latencies, 0.95),
    misses: judged
      .filter((t) =>
        t.kind === 'paraphrase'
          ? !t.correct
          : t.kind === 'urgent'
            ? !t.urgentAnswered
            : t.answered.length > 0,
      )
      .map((t) => ({
        said: t.text,
        heard: t.heard,
        reply: t.reply.slice(0, 90),
        ...(t.followUp
          ? {
              followUp: FOLLOW_UPS[t.followUp],
              followUpHeard: t.afterHeard,
              after: (t.afterReply ?? '').slice(0, 60),
            }
          : {}),
      })),
  };
}

/**
 * The brief asked for in other words, then its answers and "yes": whether it started, how
 * many answers reached the call record, whether it was confirmed, and the answers' WER.
 */
async function briefRun(server, name, assistantId, lines, audio, speaker) {
  const { turns, callId } = await talk(server, assistantId, lines, audio);
  let record;
  for (let i = 0; i < 50; i++) {
    record = await server.platform('GET', `/call/${callId}`);
    if (record.status === 'ended' && record.analysis) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const brief = record?.analysis?.structuredData?.brief ?? {};
  return {
    set: name,
    speaker: speakerLabel(speaker),
    started: /\?$/.test(turns[0]?.reply ?? '') && !/do you mean/i.test(turns[0]?.reply ?? ''),
    recorded: Object.values(brief).filter((v) => typeof v === 'string' && v !== '').length,
    questions: Object.keys(brief).length,
    confirmed: record?.analysis?.structuredData?.confirmed === true,
    // The answers: every line between the request and the closing "yes".
    answerWer: turnWer(turns.slice(1, -1)),
    heard: turns.map((t) => t.heard),
  };
}

/** The booth: the paraphrases through Chromium, read back from the call record. */
async function boothRun(server, set, speaker, log) {
  const lines = set.lines.map((l) => l.text);
  const timed = await boothTurns(server, lines, { speaker, pauseSeconds: 11 });
  const calls = await server.platform('GET', '/call?limit=1');
  const record = await server.platform('GET', `/call/${calls[0].id}`);
  const messages = (record.messages ?? []).filter((m) => m.role === 'user' || m.role === 'bot');
  // Pair each line with the user message heard in its time window, in order.
  const turns = set.lines.map((line, i) => {
    const user = messages.filter((m) => m.role === 'user')[i];
    const at = messages.indexOf(user);
    const next = at < 0 ? undefined : messages.slice(at + 1).find((m) => m.role === 'bot');
    return {
      ...line,
      heard: user?.message ?? '',
      reply: next?.message ?? '',
      voiceToVoiceMs: timed[i]?.voiceToVoiceMs ?? null,
    };
  });
  log(
    `booth ${speakerLabel(speaker)}: ${turns.filter((t) => t.heard !== '').length}/${turns.length} heard`,
  );
  return score(set, speaker, 'booth (Chromium)', turns);
}

export async function run({ quick, log }) {
  // GENERAL_MODEL=off measures the capacity setting (README, "Capacity") against the default.
  const server = await startTalkServer({
    RATE_LIMIT_EXEMPT_IPS: '127.0.0.1',
    ...(process.env.GENERAL_MODEL === undefined
      ? {}
      : { GENERAL_MODEL: process.env.GENERAL_MODEL }),
  });
  const skipped = [];
  const festival = [];
  for (const speaker of FESTIVAL_VOICES) {
    const problem = await festivalProblem(speaker);
    if (problem === null) festival.push(speaker);
    else skipped.push(problem);
  }
  for (const reason of skipped) log(`skipped: ${reason}`);
  const speakers = quick
    ? [ESPEAK_VOICES[0], ...festival.slice(0, 1)]
    : [...ESPEAK_VOICES, ...festival];
  try {
    const dentalId = (await server.platform('POST', '/assistant', dentalAssistant())).id;
    const rows = [];
    for (const set of sets({ quick })) {
      const assistantId = set.assistant === 'demo' ? server.assistantId : dentalId;
      // One call per voice, all at once: a set takes one caller's time, not one per voice.
      const audio = await spokenAll(speakers, set.lines);
      const followUps = Object.entries(FOLLOW_UPS);
      const followUpAudio = await spokenAll(
        speakers,
        followUps.map(([, text]) => ({ text })),
      );
      const calls = await Promise.all(
        speakers.map((_, i) =>
          talk(server, assistantId, set.lines, audio[i] ?? [], {
            set,
            audio: Object.fromEntries(followUps.map(([key], j) => [key, followUpAudio[i]?.[j]])),
          }),
        ),
      );
      calls.forEach(({ turns }, i) => {
        const row = score(set, speakers[i], 'socket', turns);
        log(
          `${set.name}, ${row.speaker}: accuracy ${pct(row.accuracy)}, urgent ${pct(row.urgentRecall)}`,
        );
        rows.push(row);
      });
    }
    const briefs = [];
    if (!quick) {
      const runs = [
        ['demo clinic', server.assistantId, briefRequests.demo, devLines.intakeAnswers],
        ['dental practice', dentalId, briefRequests.dental, dental.intakeAnswers],
      ];
      for (const [name, id, request, answers] of runs) {
        const lines = [request, ...answers, 'yes'].map((text) => ({ text }));
        const audio = await spokenAll(speakers, lines);
        const done = await Promise.all(
          speakers.map((speaker, i) => briefRun(server, name, id, lines, audio[i] ?? [], speaker)),
        );
        for (const b of done) {
          log(`brief, ${name}, ${b.speaker}: started ${b.started}, ${b.recorded}/${b.questions}`);
          briefs.push(b);
        }
      }
      const para = sets({ quick })[0];
      for (const speaker of [ESPEAK_VOICES[0], ...festival.slice(0, 1)]) {
        rows.push(await boothRun(server, para, speaker, log));
      }
    }
    return {
      summary: {
        rows: rows.map(({ misses: _misses, ...row }) => row),
        briefs: briefs.map(({ heard: _heard, ...b }) => b),
      },
      markdown: markdown(rows, briefs, skipped),
      details: { rows, briefs },
    };
  } finally {
    await server.close();
    await disposeSpeech();
  }
}

function markdown(rows, briefs, skipped) {
  const ms = (v) => (v === null ? '–' : v.toFixed(0));
  const parts = [
    table(
      [
        'set',
        'voice',
        'path',
        'lines',
        'answer accuracy',
        'urgent recall',
        'false alarms',
        'off-topic given a fact',
        'clarifying questions',
        'right after asking',
        'missed, heard word for word',
        'WER',
        'voice-to-voice p50 / p95 (ms)',
      ],
      rows.map((r) => [
        r.set,
        r.speaker,
        r.path,
        r.lines,
        pct(r.accuracy),
        pct(r.urgentRecall),
        `${r.falseAlarms} of ${r.ordinaryLines}`,
        `${r.offTopicWithFact} of ${r.offTopicLines}`,
        r.clarifying,
        r.askedParaphrases === null ? '–' : `${r.rightAfterAsking} of ${r.askedParaphrases}`,
        `${r.missedHeardRight} of ${r.missed}`,
        pct(r.wer),
        `${ms(r.p50)} / ${ms(r.p95)}`,
      ]),
    ),
  ];
  if (briefs.length > 0) {
    parts.push(
      'The brief, asked for in other words (bench/fixtures/understanding/brief-requests.json), then its answers and “yes”:',
      table(
        ['business', 'voice', 'brief started', 'answers in the record', 'confirmed', 'answers WER'],
        briefs.map((b) => [
          b.set,
          b.speaker,
          b.started ? 'yes' : 'no',
          `${b.recorded} of ${b.questions}`,
          b.confirmed ? 'yes' : 'no',
          pct(b.answerWer),
        ]),
      ),
    );
  }
  if (skipped.length > 0) parts.push(skipped.map((s) => `Skipped: ${s}.`).join('\n'));
  const misses = rows.flatMap((r) =>
    r.misses.map(
      (m) =>
        `- ${r.set}, ${r.speaker}, ${r.path}: said “${m.said}”, heard “${m.heard}”, answered “${m.reply}…”` +
        (m.followUp
          ? `; the caller said “${m.followUp}” (heard “${m.followUpHeard}”): “${m.after}…”`
          : ''),
    ),
  );
  parts.push(
    misses.length === 0 ? 'Every line got its expected answer.' : `Misses:\n\n${misses.join('\n')}`,
  );
  return parts.join('\n\n');
}
