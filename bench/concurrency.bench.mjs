// Concurrent calls: ramps the number of simultaneous calls on one real server until the
// 95th-percentile voice-to-voice latency passes 800 ms or a turn fails. Each step's callers
// run in a child process (bench/lib/concurrency-callers.mjs), so process.cpuUsage() here
// is the server's alone and the callers' is measured in their own process.
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { table } from './lib/markdown.mjs';
import {
  callerScripts,
  paraphraseScriptLines,
  runCallerStep,
  scriptLines,
  stepVerdict,
} from './lib/caller-steps.mjs';
import { RECOGNITION_PARTS, serverTurnStages, SERVER_STAGES } from './lib/server-turn-stages.mjs';
import { voice } from './lib/speech.mjs';
import { ratio } from './lib/stats.mjs';
import { BOOTH_OVERRIDES, startTalkServer } from './lib/talk-server.mjs';

const { DEFAULT_IDLE_TRIM_MS, DEFAULT_GENERAL_DECODERS_PER_THREAD, GENERAL_OVERFLOW_PER_THREAD } =
  voice;

export const title = 'Concurrent calls';
export const about =
  'How many calls one server carries at once. After one unmeasured warm-up call (the ' +
  'server loads its engines on first use), each step starts N web calls on the real ' +
  'server; each caller (a Node client in a separate process, on the same 2 cores) hears ' +
  'the greeting, then speaks in real time in rotating eSpeak voices, pausing 1–2 s after ' +
  'each answer, lines a caller says in their own words: the dev paraphrases of the ' +
  'knowledge base (not its wording), urgent lines and off-topic ones, in a seeded order ' +
  '(bench/fixtures/understanding/dev-paraphrases.json). The ramp (1, 2, 4, 8, 12, …, 48) ' +
  'passes while a ' +
  'step’s p95 voice-to-voice (measured at the client, from the last speech frame sent ' +
  'to the first reply audio received) is at most 800 ms and no turn failed (no ' +
  'transcript, no reply); the largest sustained count is the last step before the first ' +
  'that missed. The ramp goes on past it (for the curve, memory and loop stalls at higher ' +
  'counts) until a turn fails or a step’s p95 passes 4 s; the knowledge-base ramp after ' +
  'it stops at its first miss. ' +
  'Reference: the same run with one call; "p95 ÷ 1 call" is each step against it. CPU is ' +
  "the server process's own (a share of one core per call, over the whole step including " +
  'greetings and pauses), measured apart from the callers; memory is the growth of the ' +
  "server's RSS. A wrong reply (not the expected entry's answer: misheard, answered from " +
  'another entry, or asked back as an either/or; for an off-topic line, any fact told) is ' +
  'counted but does not end the ramp: one call alone gets some; the figure to compare is ' +
  "its share of the step's turns against one call's. Recognition decodes, and RNNoise " +
  'cleans the callers’ audio, on worker threads (one pool of each, one thread per core), ' +
  'so the loop stall is what is left on the event loop.';

const P95_LIMIT_MS = 800;
/** The ramp goes on past the limit until a step's p95 passes this, or a turn fails. */
const GIVE_UP_P95_MS = 4000;

/** Why the ramp ends at this step, or null to go on. */
function giveUpReason(step) {
  if (step.error || step.failed > 0) return step.stoppedBy;
  const p95 = step.voiceToVoiceMs?.p95 ?? Infinity;
  return p95 > GIVE_UP_P95_MS ? `its p95 (${p95} ms) passed ${GIVE_UP_P95_MS} ms` : null;
}
/**
 * The callers of a step of the staggered ramp arrive over this long (seeded, uniformly):
 * about one turn of a call (a line, the answer and the pause after it), so their turns fall
 * at any moment of one another's, as the turns of calls that started at different times do.
 */
const ARRIVAL_SPREAD_MS = 10_000;

/** The ramp; it gives up at its end even if every step passed (about a minute per step). */
const FULL = {
  steps: [1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48],
  turns: 4,
  warmUpTurns: 1,
  lines: 'paraphrases',
};
// The smoke test: two short steps of one turn each. A short greeting, the shortest answers and a warm-up call
// that only hears the greeting keep it well under a minute; the code path is the same.
const QUICK = {
  steps: [1, 2],
  turns: 1,
  warmUpTurns: 0,
  lines: 4,
  firstMessage: 'Hello {{name}}, how can I help?',
};

/**
 * `CONCURRENCY_STEPS=1,12` runs only those steps (no staggered or knowledge-base ramp, no
 * wait for the memory after the calls), for a profile of one load (bench/cpu-profile.bench.mjs,
 * bench/lib/cpu-profile-summary.mjs); `CONCURRENCY_LINES=
 * knowledge-base` speaks the knowledge base's own wording instead; `CONCURRENCY_ARRIVALS_S=10`
 * spreads the callers' arrivals over that many seconds; `RECOGNITION_THREADS`,
 * `DENOISE_THREADS` (0: that work on the event loop), `MOONSHINE_THREADS`,
 * `GENERAL_DECODERS_PER_THREAD` and `GENERAL_MODEL` are passed to the server.
 */
function chosenSteps() {
  const steps = process.env.CONCURRENCY_STEPS;
  if (steps === undefined || steps === '') return null;
  return steps.split(',').map((n) => {
    const calls = Number(n);
    if (!Number.isInteger(calls) || calls < 1)
      throw new Error(`CONCURRENCY_STEPS: not a call count: ${n}`);
    return calls;
  });
}

function arrivalSpreadMs() {
  const seconds = Number(process.env.CONCURRENCY_ARRIVALS_S ?? 0);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(
      `CONCURRENCY_ARRIVALS_S: not a number of seconds: ${process.env.CONCURRENCY_ARRIVALS_S}`,
    );
  return Math.round(seconds * 1000);
}

export async function run({ quick, log }) {
  const chosen = chosenSteps();
  const plan = quick
    ? QUICK
    : chosen === null
      ? FULL
      : {
          ...FULL,
          steps: chosen,
          only: true,
          arrivalSpreadMs: arrivalSpreadMs(),
          ...(process.env.CONCURRENCY_LINES === 'knowledge-base' ? { lines: undefined } : {}),
        };
  const lines = plan.lines === 'paraphrases' ? paraphraseScriptLines() : scriptLines(plan.lines);
  // The knowledge base's own wording, ramped after, for comparison with earlier runs (the
  // recogniser's fast path: the domain model is sure, no fallback, no second opinion).
  const reference = plan.lines === 'paraphrases' && !plan.only ? scriptLines() : null;
  const overrides = plan.firstMessage
    ? { ...BOOTH_OVERRIDES, firstMessage: plan.firstMessage }
    : BOOTH_OVERRIDES;
  // The public-key limit on new web calls is per address; every caller here is 127.0.0.1.
  // The cap on live calls (MAX_LIVE_CALLS, whose default comes from this very benchmark) is
  // lifted: the ramp looks for where the machine itself runs out.
  const server = await startTalkServer({
    RATE_LIMIT_EXEMPT_IPS: '127.0.0.1',
    MAX_LIVE_CALLS: '1000',
    ...Object.fromEntries(
      [
        'RECOGNITION_THREADS',
        'DENOISE_THREADS',
        'MOONSHINE_THREADS',
        'GENERAL_DECODERS_PER_THREAD',
        'GENERAL_MODEL',
      ]
        .filter((name) => process.env[name] !== undefined)
        .map((name) => [name, process.env[name]]),
    ),
  });
  try {
    const job = (calls, turns, spoken = lines, spreadMs = plan.arrivalSpreadMs ?? 0) => ({
      ...serverAccess(server),
      overrides,
      callers: callerScripts(calls, turns, spoken, { arrivalSpreadMs: spreadMs }),
    });
    // One call first, not counted: the server loads eSpeak, builds the recogniser and its
    // first decoders on first use, which is not a per-call cost.
    await measureStep(server, job(1, plan.warmUpTurns), rssMb());
    const startRssMb = rssMb();
    const ramp = async (spoken, { pastLimit, spreadMs }) => {
      const steps = [];
      for (const calls of plan.steps) {
        const step = await measureStep(
          server,
          job(calls, plan.turns, spoken, spreadMs),
          startRssMb,
        );
        steps.push(step);
        log(describe(step, steps[0]));
        // One call alone must work: otherwise there is no baseline, and it is a bug, not a
        // limit. In the smoke test any error is one too.
        if (calls === 1 && step.failed > 0)
          throw new Error(`one call alone failed: ${JSON.stringify(step.failures)}`);
        if (step.error && (calls === 1 || quick)) throw new Error(step.error);
        // Past the first step over the limit the callers' own words go on, for the curve and
        // for memory and loop stalls at higher counts, until turns fail or the wait is
        // hopeless; the knowledge base's wording, only a comparison, stops there. Quick
        // mode runs both of its steps whatever the latency, so the smoke test covers both.
        if (!quick && (pastLimit ? giveUpReason(step) !== null : !step.passed)) break;
      }
      return steps;
    };
    const steps = await ramp(lines, { pastLimit: true });
    // Memory given back: the decoder pools shrink to their spares once idle (not in the
    // smoke test, which would spend a minute waiting).
    const afterIdle = quick || plan.only ? null : await rssAfterIdle(startRssMb, log);
    // The same callers arriving over a turn's time instead of all at once: their first
    // lines no longer all end in the same second. It too goes on past its first miss, for
    // the memory and CPU per call at the higher counts the all-at-once ramp cannot reach.
    const staggered = !quick && !plan.only;
    if (staggered) log(`the same ramp, the calls arriving over ${ARRIVAL_SPREAD_MS / 1000} s`);
    const staggeredSteps = staggered
      ? await ramp(lines, { pastLimit: true, spreadMs: ARRIVAL_SPREAD_MS })
      : null;
    // The staggered ramp's last, largest step leaves decoders its pools trim only once idle;
    // without the wait they would count as the knowledge-base ramp's own memory.
    if (reference !== null && staggeredSteps !== null) await rssAfterIdle(startRssMb, log);
    if (reference !== null) log('the same ramp with the knowledge base’s own wording');
    const referenceSteps = reference === null ? null : await ramp(reference, { pastLimit: false });
    return report(steps, afterIdle, referenceSteps, staggeredSteps);
  } finally {
    await server.close();
  }
}

function serverAccess(server) {
  return {
    baseUrl: server.baseUrl,
    privateKey: server.privateKey,
    assistantId: server.assistantId,
  };
}

/** One step: the callers run in a child process; this process (the server) is measured meanwhile. */
async function measureStep(server, job, startRssMb) {
  const calls = job.callers.length;
  const loadAverage = os.loadavg()[0];
  // The record's createdAt is the server's clock, as is this one (same process); a
  // millisecond back, so a call created in the same millisecond still counts.
  const since = new Date(Date.now() - 1).toISOString();
  const { outcome, measured } = await runCallerStep(job, () => {
    const meter = startServerMeter();
    return async () => meter.stop();
  });
  if (outcome.error) return failedStep(calls, outcome.error, loadAverage);
  const stages = await serverTurnStages(server.platform, since);
  return {
    ...summariseStep(calls, outcome, measured, startRssMb, loadAverage),
    serverStages: stages,
  };
}

/** This process's CPU time, peak RSS (sampled every 250 ms) and event-loop delay, from now on. */
function startServerMeter() {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const startedUs = monotonicUs();
  let peakRss = rssMb();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 250);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  return {
    stop() {
      clearInterval(sampler);
      loopDelay.disable();
      const cpu = process.cpuUsage(cpuBefore);
      return {
        cpuMs: (cpu.user + cpu.system) / 1000,
        wallMs: performance.now() - started,
        peakRssMb: Math.max(peakRss, rssMb()),
        loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
        loopDelayMaxMs: loopDelay.max / 1e6,
        window: { startedUs, endedUs: monotonicUs() },
      };
    },
  };
}

/** The monotonic clock in µs, as V8's CPU profiles time their samples (CLOCK_MONOTONIC). */
function monotonicUs() {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The server's RSS growth a minute after every call ended (the decoder pool idles 30 s first). */
async function rssAfterIdle(startRssMb, log) {
  const waitMs = Math.max(60_000, DEFAULT_IDLE_TRIM_MS + 5000);
  log(`waiting ${waitMs / 1000} s for the idle decoder pool to shrink`);
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  return { waitSeconds: waitMs / 1000, rssGrowthMb: round(rssMb() - startRssMb) };
}

function rssMb() {
  return process.memoryUsage().rss / 2 ** 20;
}

function summariseStep(calls, callers, server, startRssMb, loadAverage) {
  const { turns, failures, summary } = stepVerdict(callers, P95_LIMIT_MS);
  // A share of one core per call: CPU time over wall time, divided among the calls.
  const perCallCore = (cpuMs, wallMs) => round((100 * cpuMs) / wallMs / calls);
  return {
    calls,
    ...summary,
    serverCpuPerCallPct: perCallCore(server.cpuMs, server.wallMs),
    callersCpuPerCallPct: perCallCore(callers.cpuMs, callers.wallMs),
    serverRssGrowthMb: round(server.peakRssMb - startRssMb),
    serverLoopDelayP99Ms: round(server.loopDelayP99Ms),
    serverLoopDelayMaxMs: round(server.loopDelayMaxMs),
    callersLoopDelayP99Ms: round(callers.loopDelayP99Ms),
    loadAverageAtStart: round(loadAverage, 2),
    wallSeconds: round(server.wallMs / 1000),
    // When the step ran, on the clock CPU profiles use (bench/cpu-profile.bench.mjs).
    monotonicWindowUs: server.window,
    failures,
    wrongReplies: turns
      .filter((turn) => turn.outcome === 'mismatch')
      .map(({ text, heard, reply }) => ({ text, heard, reply: reply.slice(0, 80) })),
  };
}

/** A step that could not run to the end (a call refused, the callers' process failed). */
function failedStep(calls, error, loadAverage) {
  return {
    calls,
    passed: false,
    stoppedBy: `error: ${error.message.split('\n')[0]}`,
    error: error.message,
    failed: null,
    loadAverageAtStart: round(loadAverage, 2),
  };
}

function describe(step, single) {
  if (step.error) return `${step.calls} call(s): ${step.stoppedBy}`;
  const { p50, p95 } = step.voiceToVoiceMs;
  return `${step.calls} call(s): p50 ${p50} ms, p95 ${p95} ms (${ratio(p95, single.voiceToVoiceMs?.p95)}× one call), ${step.failed} failed, ${step.mismatched} wrong replies, server ${step.serverCpuPerCallPct} % of a core per call${step.passed ? '' : ` — stop: ${step.stoppedBy}`}`;
}

/** A ramp's table and verdict. */
function rampTable(steps) {
  const single = steps[0];
  // Sustained: the last step before the first that missed (a later step that passes again
  // is noise, not capacity).
  const missed = steps.findIndex((step) => !step.passed);
  const stop = missed === -1 ? undefined : steps[missed];
  const sustained = (missed === -1 ? steps : steps.slice(0, missed)).at(-1)?.calls ?? 0;
  const rows = steps.map((step) => [
    step.calls,
    step.turns ?? null,
    step.voiceToVoiceMs?.p50 ?? null,
    step.voiceToVoiceMs?.p95 ?? null,
    step.error ? null : ratio(step.voiceToVoiceMs.p95, single.voiceToVoiceMs.p95),
    step.failed,
    step.mismatched ?? null,
    step.turns ? round((100 * (step.mismatched ?? 0)) / step.turns) : null,
    step.serverCpuPerCallPct ?? null,
    step.callersCpuPerCallPct ?? null,
    step.serverRssGrowthMb ?? null,
    step.serverLoopDelayMaxMs ?? null,
    step.passed ? 'pass' : step.stoppedBy,
  ]);
  const headers = [
    'Calls',
    'Turns',
    'p50 ms',
    'p95 ms',
    'p95 ÷ 1 call',
    'Failed',
    'Wrong reply',
    'Wrong (% of turns)',
    'Server CPU / call (% core)',
    "Callers' CPU / call (% core)",
    'Server RSS growth (MB)',
    'Server loop stall, max (ms)',
    'Verdict',
  ];
  const verdict = stop
    ? `Largest sustained count: **${sustained}** (at ${stop.calls}: ${stop.stoppedBy}${steps.at(-1) === stop ? '' : `; the ramp went on to ${steps.at(-1).calls} calls${giveUpReason(steps.at(-1)) === null ? '' : `, where ${giveUpReason(steps.at(-1))}`}`}).`
    : `Largest sustained count: **at least ${sustained}** (every step passed; the ramp stops at ${steps.at(-1).calls}).`;
  return { markdown: [table(headers, rows), '', verdict].join('\n'), sustained, stop, single };
}

/** Where each step's waits went, as the server measured them (the call records' latency). */
function stagesTable(steps, { staggered = false } = {}) {
  const measured = steps.filter((step) => step.serverStages?.turns > 0);
  if (measured.length === 0) return 'Server-side stages: no turns recorded.';
  const models = ['domain', 'general', 'neural'];
  const rows = measured.map(({ calls, serverStages: stages }) => [
    calls,
    stages.turns,
    models.map((model) => stages.byModel[model] ?? 0).join(' / '),
    ...SERVER_STAGES.map(([stage]) => `${stages[stage].p50 ?? '–'} / ${stages[stage].p95 ?? '–'}`),
    `${stages.recognitionMsFirstTurn.p95 ?? '–'} / ${stages.recognitionMsLaterTurns.p95 ?? '–'}`,
    // Runs before these parts were measured have none.
    RECOGNITION_PARTS.map(([part]) => stages[part]?.p95 ?? '–').join(' / '),
  ]);
  const headers = [
    'Calls',
    'Turns',
    'Heard by domain / general / neural',
    ...SERVER_STAGES.map(([stage]) => `${stage} p50 / p95`),
    'recognitionMs p95, first turns / later',
    'recognitionMs parts p95: queued / decoding / second opinion',
  ];
  return [
    'Where the wait goes, as the server measured each turn (call records’ `latency.turns`): ' +
      SERVER_STAGES.map(([stage, what]) => `\`${stage}\` is the ${what}`).join('; ') +
      `. A call’s first turn has nothing earlier to learn from (its channel, whether the caller needs the general model) ${staggered ? '' : 'and a step’s calls all start at once, '}so its recognition is also shown apart from the later turns’. Of \`recognitionMs\`, ` +
      RECOGNITION_PARTS.map(([part, what]) => `\`${part}\` is ${what}`).join('; ') +
      ' (each p95 over the turns that had that part; the parts’ p95s come from different turns, so they need not add up). The callers’ figures above add the network and their own timers.',
    '',
    table(headers, rows),
  ].join('\n');
}

function report(steps, afterIdle, referenceSteps = null, staggeredSteps = null) {
  const { markdown: main, sustained, stop, single } = rampTable(steps);
  const reference = referenceSteps === null ? null : rampTable(referenceSteps);
  const staggered = staggeredSteps === null ? null : rampTable(staggeredSteps);
  const staggeredMemory = staggeredSteps === null ? null : memoryPerCall(staggeredSteps);
  const memory = memoryPerCall(steps);
  const markdown = [
    main,
    '',
    stagesTable(steps),
    '',
    `Memory: about ${memory ?? '–'} MB of server RSS per extra call (slope of peak RSS over the steps). Each live call holds its assistant's domain decoder (about 7 MB, made while its greeting plays, on one of the recognition threads); an utterance the domain model doubts (or that follows one only the general model heard) borrows a general decoder (about 49 MB, beside the general language model its thread's decoders share) from its thread's pool, which keeps one spare and at most ${process.env.GENERAL_DECODERS_PER_THREAD ?? DEFAULT_GENERAL_DECODERS_PER_THREAD} (a turn that has waited 1.5 s for one to finish gets one made past that, ${GENERAL_OVERFLOW_PER_THREAD} at most; after that it waits for one given back), and shrinks to it once it has idled ${DEFAULT_IDLE_TRIM_MS / 1000} s; while the greetings play, it makes one ahead for each call likely to need one (how often the assistant's last 20 utterances did).`,
    afterIdle === null
      ? 'Memory after the calls: not measured in this run (the quick one, or only some steps).'
      : `Memory after the calls: ${afterIdle.waitSeconds} s after the last step ended (the decoder pools idle ${DEFAULT_IDLE_TRIM_MS / 1000} s, then shrink to their spares), the server's RSS was ${Math.abs(afterIdle.rssGrowthMb)} MB ${afterIdle.rssGrowthMb < 0 ? 'below' : 'above'} what it was after the warm-up call (at the peak: ${Math.max(...steps.map((step) => step.serverRssGrowthMb ?? 0))} MB above).`,
    ...(staggered === null
      ? []
      : [
          '',
          `The same ramp with the callers arriving over ${ARRIVAL_SPREAD_MS / 1000} s (seeded, uniformly; about one turn of a call) instead of all at once, so that their first lines do not all end in the same second, as the turns of calls that started at different times do not (like the first, it goes on past its first miss until a turn fails or a step's p95 passes ${GIVE_UP_P95_MS} ms); about ${staggeredMemory ?? '–'} MB of server RSS per extra call (slope of peak RSS over its steps):`,
          '',
          staggered.markdown,
          '',
          stagesTable(staggeredSteps, { staggered: true }),
          '',
        ]),
    ...(reference === null
      ? []
      : [
          '',
          "The same ramp with the knowledge base's own questions (the dev lines of earlier runs: the domain model is sure of them, so no fallback and no second opinion), after the memory was measured:",
          '',
          reference.markdown,
          '',
        ]),
    `Caveat: the callers (WebSocket, a 20 ms real-time timer each, speech synthesized before each step) run on the same ${os.cpus().length} cores as the server, so at high counts they compete with it; their own CPU is the "callers'" column. The machine is shared, so latencies are noisy: the load average at each step's start is in the JSON.`,
  ]
    .join('\n')
    // One blank line between blocks, whichever of them this run has.
    .replace(/\n{3,}/g, '\n\n');
  return {
    summary: {
      sustainedCalls: sustained,
      stoppedAt: stop ? { calls: stop.calls, reason: stop.stoppedBy } : null,
      singleCall: single.voiceToVoiceMs ?? null,
      p95LimitMs: P95_LIMIT_MS,
      serverCpuPerCallPct:
        steps.find((step) => step.calls === sustained)?.serverCpuPerCallPct ?? null,
      serverRssMbPerCall: memory,
      serverRssGrowthAfterIdleMb: afterIdle?.rssGrowthMb ?? null,
      staggeredArrivalsSustainedCalls: staggered?.sustained ?? null,
      staggeredArrivalsServerRssMbPerCall: staggeredMemory,
      arrivalSpreadSeconds: staggered === null ? null : ARRIVAL_SPREAD_MS / 1000,
      knowledgeBaseWordingSustainedCalls: reference?.sustained ?? null,
    },
    markdown,
    details: {
      steps,
      staggeredArrivalSteps: staggeredSteps,
      knowledgeBaseWordingSteps: referenceSteps,
    },
  };
}

/** Least-squares slope of the server's peak RSS growth against the number of calls. */
function memoryPerCall(steps) {
  const points = steps
    .filter((step) => step.serverRssGrowthMb !== undefined)
    .map((step) => [step.calls, step.serverRssGrowthMb]);
  if (points.length < 2) return null;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return round(covariance / variance);
}

function round(value, digits = 1) {
  return Number(value.toFixed(digits));
}
