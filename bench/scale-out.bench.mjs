// Scale-out: the same 2 cores as one ROLE=all process, then as an API process and two voice
// workers, on one PostgreSQL database and one Redis; the relay hop; and a capacity model for
// 1 000 and 10 000 calls built from what was measured. Every server is a process of its own,
// so each role's CPU and memory are read from /proc.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  callerScripts,
  ramp,
  runCallerStep,
  scriptLines,
  stepVerdict,
  turnsOf,
} from './lib/caller-steps.mjs';
import { table } from './lib/markdown.mjs';
import { freePort, meterProcesses, startServerProcess } from './lib/server-processes.mjs';
import { openSharedServices, serviceCeilings } from './lib/shared-services.mjs';
import { ratio, summarise } from './lib/stats.mjs';
import { BOOTH_OVERRIDES } from './lib/talk-server.mjs';

export const title = 'Scale-out: one process, or an API process and two voice workers';
export const about =
  'The same ramp as "Concurrent calls" (1, 2, 4, 6, … calls, each caller in real time in ' +
  'rotating eSpeak voices, 4 turns; stop at the first step whose p95 voice-to-voice passes ' +
  '800 ms or where a turn fails), run twice in one run on the same 2 cores, one PostgreSQL ' +
  'database and one Redis: first one `ROLE=all` process, then `ROLE=api` + two `ROLE=voice` ' +
  "workers, the browser sockets relayed by the API process. CPU is each process's own " +
  '(from /proc), as a share of one core per call over the whole step. Then the relay hop: ' +
  'one API and one worker, the same calls connected through the API (relayed) and straight ' +
  'to the worker (direct), alternately. Database write transactions (transaction ids ' +
  "taken), WAL bytes and Redis commands are read from PostgreSQL's and Redis's own " +
  "counters, less the idle deployment's own rate. The capacity model multiplies the split " +
  "deployment's per-call figures out to 1 000 and 10 000 calls, against what PostgreSQL and " +
  'Redis on this machine take (measured in the same run).';

const P95_LIMIT_MS = 800;
const MAX_CALLS = 24;
const FULL = { steps: ramp(MAX_CALLS), turns: 4, hop: { calls: [1, 4], rounds: 3, turns: 3 } };
// The smoke test: one and two calls of one turn, one hop round of one call; the same code path.
const QUICK = { steps: [1, 2], turns: 1, lines: 4, hop: { calls: [1], rounds: 1, turns: 1 } };
/** Cores kept free in the capacity model: plan machines to run at most this busy. */
const TARGET_UTILISATION = 0.7;

export async function run({ quick, log }) {
  const plan = quick ? QUICK : FULL;
  const services = await openSharedServices();
  if (services.skipped) {
    if (process.env.CI) throw new Error(`CI must run the scale-out benchmark: ${services.skipped}`);
    log(`SKIPPED: ${services.skipped}`);
    return {
      summary: { skipped: services.skipped },
      markdown: `Not measured in this run: ${services.skipped}.`,
      details: {},
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-bench-scale-'));
  const processes = [];
  const start = async (env) => {
    const port = await freePort();
    const server = await startServerProcess(
      {
        DATABASE_URL: services.databaseUrl,
        REDIS_URL: services.redisUrl,
        REDIS_KEY_PREFIX: services.prefix,
        DEMO_UNICODE: 'bench-demo',
        RATE_LIMIT_EXEMPT_IPS: '127.0.0.1',
        // The ramp looks for where the machine runs out, not the configured cap.
        MAX_LIVE_CALLS: '1000',
        ...(env.ROLE === 'voice' ? { WORKER_URL: `http://127.0.0.1:${port}` } : {}),
        ...env,
      },
      { dataDir, port },
    );
    processes.push(server);
    return server;
  };
  const stopAll = async () => {
    for (const server of processes.splice(0).reverse()) await server.stop();
  };
  try {
    const lines = scriptLines(plan.lines);
    const overrides = quick
      ? { ...BOOTH_OVERRIDES, firstMessage: 'Hello {{name}}, how can I help?' }
      : BOOTH_OVERRIDES;

    log('one ROLE=all process');
    const all = await start({ ROLE: 'all' });
    const access = await accessTo(all);
    const job = (calls, turns) => ({
      ...access,
      overrides,
      callers: callerScripts(calls, turns, lines),
    });
    const single = await rampOn([all], all, job, plan, services, log);
    await stopAll();

    log('one ROLE=api process and two ROLE=voice workers');
    const api = await start({ ROLE: 'api' });
    const workers = [await start({ ROLE: 'voice' }), await start({ ROLE: 'voice' })];
    await untilWorkers(api, 2);
    const split = await rampOn([api, ...workers], api, job, plan, services, log);

    log('the relay hop: one API process, one voice worker');
    await workers[1].stop();
    await untilWorkers(api, 1);
    const hop = await relayHop(api, workers[0], job, plan.hop, log);
    await stopAll();

    const ceilings = await serviceCeilings(services, quick ? 1 : 5);
    log(
      `this machine's PostgreSQL: ${ceilings.postgresWritesPerSecond} call-record updates/s; Redis: ${ceilings.redisCommandsPerSecond} commands/s`,
    );
    return report({ single, split, hop, ceilings });
  } finally {
    await stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await services.close();
  }
}

/** The demo assistant and the private key (shown in the banner of the first start). */
async function accessTo(server) {
  const response = await fetch(`${server.baseUrl}/platform/assistant`, {
    headers: { authorization: `Bearer ${server.privateKey}` },
  });
  if (!response.ok) throw new Error(`GET /assistant: ${response.status}`);
  const [demo] = await response.json();
  return { baseUrl: server.baseUrl, privateKey: server.privateKey, assistantId: demo.id };
}

/** Waits until the API process's readiness names `count` voice workers. */
async function untilWorkers(api, count) {
  const deadline = Date.now() + 20_000;
  const wanted = new RegExp(`^${count} voice workers?,`);
  for (;;) {
    const ready = await (await fetch(`${api.baseUrl}/readyz`)).json();
    if (wanted.test(ready.checks?.calls ?? '')) return;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} voice workers: ${JSON.stringify(ready)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The ramp on one deployment; `entry` is where calls are made, the others are measured too. */
async function rampOn(deployment, entry, job, plan, services, log) {
  const base = { ...job(1, 0), baseUrl: entry.baseUrl };
  // One call first, not counted: each process loads its engines on first use.
  const warmUpTurns = plan === QUICK ? 0 : 1;
  await runCallerStep(
    { ...base, callers: job(deployment.length, warmUpTurns).callers },
    () => async () => null,
  );
  // What the deployment writes and asks with no call at all (heartbeats, leases, sweeps):
  // a fixed cost per process, taken out of the per-call figures.
  const idleSeconds = plan === QUICK ? 10 : 30;
  const stopIdle = await services.usage();
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const idleUsage = await stopIdle();
  const idle = {
    databaseWritesPerMinute: round((60 * idleUsage.databaseWrites) / idleSeconds),
    walKbPerMinute: round((60 * idleUsage.walBytes) / 1024 / idleSeconds),
    redisCommandsPerMinute: round((60 * idleUsage.redisCommands) / idleSeconds),
  };
  log(
    `idle: ${idle.databaseWritesPerMinute} DB write transactions, ${idle.walKbPerMinute} KB of WAL and ${idle.redisCommandsPerMinute} Redis commands a minute`,
  );
  const steps = [];
  for (const calls of plan.steps) {
    const step = await measureStep(
      deployment,
      { ...base, callers: job(calls, plan.turns).callers },
      services,
      idle,
    );
    steps.push(step);
    log(describe(step, steps[0]));
    if (step.error && (calls === 1 || plan === QUICK)) throw new Error(step.error);
    if (!step.passed && plan !== QUICK) break;
  }
  return { idle, steps };
}

async function measureStep(deployment, job, services, idle) {
  const calls = job.callers.length;
  const loadAverage = os.loadavg()[0];
  const { outcome, measured } = await runCallerStep(job, () => {
    const stopMeter = meterProcesses(deployment.map((server) => server.child.pid));
    const usagePromise = services.usage();
    return async () => {
      const processes = stopMeter();
      const usage = await (await usagePromise)();
      return { processes, usage };
    };
  });
  if (outcome.error) {
    return {
      calls,
      passed: false,
      stoppedBy: `error: ${outcome.error.message.split('\n')[0]}`,
      error: outcome.error.message,
      loadAverage,
    };
  }
  const { failures, summary } = stepVerdict(outcome, P95_LIMIT_MS);
  const { wallSeconds, byPid } = measured.processes;
  const share = (pids) =>
    round(
      (100 * pids.reduce((sum, pid) => sum + byPid.get(pid).cpuSeconds, 0)) / wallSeconds / calls,
    );
  const peak = (pids) => round(pids.reduce((sum, pid) => sum + byPid.get(pid).peakRssMb, 0));
  const growth = (pids) =>
    round(pids.reduce((sum, pid) => sum + byPid.get(pid).peakRssMb - byPid.get(pid).startRssMb, 0));
  const byRole = (role) => deployment.filter((s) => s.role === role).map((s) => s.child.pid);
  const callMinutes = (calls * wallSeconds) / 60;
  // Per call: what the step added to the deployment's idle rate.
  const perCallMinute = (total, idlePerMinute) =>
    round(Math.max(0, total - (idlePerMinute * wallSeconds) / 60) / callMinutes);
  return {
    calls,
    ...summary,
    cpuPerCallPct: {
      all: byRole('all').length > 0 ? share(byRole('all')) : null,
      api: byRole('api').length > 0 ? share(byRole('api')) : null,
      voice: byRole('voice').length > 0 ? share(byRole('voice')) : null,
    },
    // Peak RSS of the processes that run calls, absolute: a step starts with the decoders
    // the previous one left (they idle 30 s before the pool shrinks), so growth within a
    // step undercounts. The slope of this over the steps is the memory a call needs.
    callProcessesPeakRssMb: peak([...byRole('all'), ...byRole('voice')]),
    rssGrowthMb: {
      callProcesses: growth([...byRole('all'), ...byRole('voice')]),
      api: byRole('api').length > 0 ? growth(byRole('api')) : null,
    },
    databaseWritesPerCallMinute: perCallMinute(
      measured.usage.databaseWrites,
      idle.databaseWritesPerMinute,
    ),
    walKbPerCallMinute: perCallMinute(measured.usage.walBytes / 1024, idle.walKbPerMinute),
    redisCommandsPerCallMinute: perCallMinute(
      measured.usage.redisCommands,
      idle.redisCommandsPerMinute,
    ),
    wallSeconds: round(wallSeconds),
    loadAverageAtStart: round(loadAverage, 2),
    failures,
  };
}

/** The same calls relayed through the API and straight to the worker, alternately. */
async function relayHop(api, worker, job, plan, log) {
  const workerOrigin = worker.baseUrl.replace(/^http/, 'ws');
  const samples = { relayed: [], direct: [] };
  for (let round = 0; round < plan.rounds; round += 1) {
    for (const calls of plan.calls) {
      for (const way of ['relayed', 'direct']) {
        const base = { ...job(calls, plan.turns), baseUrl: api.baseUrl };
        const step = { ...base, ...(way === 'direct' ? { socketOrigin: workerOrigin } : {}) };
        const { outcome } = await runCallerStep(step, () => async () => null);
        if (outcome.error) throw outcome.error;
        for (const turn of turnsOf(outcome))
          samples[way].push({
            calls,
            voiceToVoiceMs: turn.voiceToVoiceMs,
            failed: turn.outcome === 'failed',
          });
      }
    }
  }
  const rows = plan.calls.map((calls) => {
    const of = (way) =>
      summarise(samples[way].filter((s) => s.calls === calls).map((s) => s.voiceToVoiceMs));
    const relayed = of('relayed');
    const direct = of('direct');
    return {
      calls,
      relayed,
      direct,
      hopP50Ms:
        relayed.p50 === null || direct.p50 === null ? null : round(relayed.p50 - direct.p50),
      failed: [...samples.relayed, ...samples.direct].filter((s) => s.calls === calls && s.failed)
        .length,
    };
  });
  for (const row of rows)
    log(
      `relay hop at ${row.calls} call(s): p50 relayed ${row.relayed.p50} ms, direct ${row.direct.p50} ms (${row.hopP50Ms} ms)`,
    );
  return rows;
}

function describe(step, first) {
  if (step.error) return `${step.calls} call(s): ${step.stoppedBy}`;
  const cpu = Object.entries(step.cpuPerCallPct)
    .filter(([, value]) => value !== null)
    .map(([role, value]) => `${role} ${value} %`)
    .join(', ');
  return `${step.calls} call(s): p50 ${step.voiceToVoiceMs.p50} ms, p95 ${step.voiceToVoiceMs.p95} ms (${ratio(step.voiceToVoiceMs.p95, first.voiceToVoiceMs?.p95)}× one call), ${step.failed} failed; CPU/call ${cpu}; DB writes/call-min ${step.databaseWritesPerCallMinute}, WAL ${step.walKbPerCallMinute} KB/call-min, Redis cmds/call-min ${step.redisCommandsPerCallMinute}${step.passed ? '' : ` — stop: ${step.stoppedBy}`}`;
}

const sustained = (steps) => steps.filter((step) => step.passed).at(-1)?.calls ?? 0;

function report({ single, split, hop, ceilings }) {
  const rampRows = (name, steps) =>
    steps.map((step) => [
      name,
      step.calls,
      step.voiceToVoiceMs?.p50 ?? null,
      step.voiceToVoiceMs?.p95 ?? null,
      step.failed ?? null,
      step.cpuPerCallPct?.all ?? null,
      step.cpuPerCallPct?.api ?? null,
      step.cpuPerCallPct?.voice ?? null,
      step.databaseWritesPerCallMinute ?? null,
      step.walKbPerCallMinute ?? null,
      step.redisCommandsPerCallMinute ?? null,
      step.passed ? 'pass' : step.stoppedBy,
    ]);
  const model = capacityModel(split, ceilings);
  const hopRows = hop.map((row) => [
    row.calls,
    row.relayed.p50,
    row.relayed.p95,
    row.direct.p50,
    row.direct.p95,
    row.hopP50Ms,
    row.failed,
  ]);
  const markdown = [
    table(
      [
        'Deployment',
        'Calls',
        'p50 ms',
        'p95 ms',
        'Failed',
        'CPU/call all (% core)',
        'CPU/call API',
        'CPU/call voice',
        'DB writes / call-min',
        'WAL KB / call-min',
        'Redis cmds / call-min',
        'Verdict',
      ],
      [...rampRows('ROLE=all', single.steps), ...rampRows('API + 2 workers', split.steps)],
    ),
    '',
    `Calls sustained (p95 ≤ ${P95_LIMIT_MS} ms): **${sustained(single.steps)}** as one ROLE=all process, **${sustained(split.steps)}** as an API process and two voice workers, on the same ${os.cpus().length} cores.`,
    '',
    'The relay hop (voice-to-voice, ms; "hop" is relayed p50 − direct p50):',
    '',
    table(
      [
        'Calls',
        'Relayed p50',
        'Relayed p95',
        'Direct p50',
        'Direct p95',
        'Hop (p50)',
        'Failed turns',
      ],
      hopRows,
    ),
    '',
    model.markdown,
  ].join('\n');
  return {
    summary: {
      sustainedAll: sustained(single.steps),
      sustainedSplit: sustained(split.steps),
      idle: { all: single.idle, split: split.idle },
      relayHopP50Ms: hop.map((row) => ({ calls: row.calls, ms: row.hopP50Ms })),
      ceilings,
      model: model.figures,
    },
    markdown,
    details: { single, split, hop },
  };
}

/**
 * From the split deployment's largest passing step (or its first, when none passed): per
 * call, the cores of each role, worker memory, database rows and Redis commands; then
 * what 1 000 and 10 000 calls need, and where PostgreSQL and Redis as measured here run out.
 */
function capacityModel({ idle, steps: split }, ceilings) {
  const cores = os.cpus().length;
  const basis = split.filter((step) => step.passed).at(-1) ?? split[0];
  if (basis === undefined || basis.error)
    return { figures: null, markdown: 'No capacity model: the split deployment measured no step.' };
  const memoryPerCall = slope(
    split.filter((s) => !s.error).map((s) => [s.calls, s.callProcessesPeakRssMb]),
  );
  const perCall = {
    // What the calls themselves used, on average over a step: the optimistic figure.
    voiceCores: basis.cpuPerCallPct.voice / 100,
    // What the whole machine carried: the calls held p95 ≤ 800 ms up to this many per core,
    // with their bursts (a turn's recognition and synthesis come at once), the API process,
    // PostgreSQL, Redis and the callers all on the same cores: the figure to plan with.
    coresBySustained: basis.passed ? cores / basis.calls : null,
    apiCores: basis.cpuPerCallPct.api / 100,
    workerMemoryMb: memoryPerCall,
    databaseWritesPerMinute: basis.databaseWritesPerCallMinute,
    walKbPerMinute: basis.walKbPerCallMinute,
    redisCommandsPerMinute: basis.redisCommandsPerCallMinute,
  };
  const at = (calls) => ({
    calls,
    voiceCores:
      perCall.coresBySustained === null ? null : Math.ceil(calls * perCall.coresBySustained),
    voiceCoresAverage: Math.ceil((calls * perCall.voiceCores) / TARGET_UTILISATION),
    apiCores: Math.ceil((calls * perCall.apiCores) / TARGET_UTILISATION),
    workerMemoryGb:
      perCall.workerMemoryMb === null ? null : round((calls * perCall.workerMemoryMb) / 1024),
    databaseWritesPerSecond: Math.round((calls * perCall.databaseWritesPerMinute) / 60),
    walMbPerSecond: round((calls * perCall.walKbPerMinute) / 60 / 1024),
    redisCommandsPerSecond: Math.round((calls * perCall.redisCommandsPerMinute) / 60),
  });
  const targets = [at(1000), at(10000)];
  const saturates = {
    postgres: Math.floor((ceilings.postgresWritesPerSecond * 60) / perCall.databaseWritesPerMinute),
    redis: Math.floor((ceilings.redisCommandsPerSecond * 60) / perCall.redisCommandsPerMinute),
  };
  const first = saturates.postgres <= saturates.redis ? 'PostgreSQL' : 'Redis';
  const rows = targets.map((t) => [
    t.calls.toLocaleString('en'),
    t.voiceCores,
    t.voiceCores === null ? null : Math.ceil(t.voiceCores / 16),
    t.voiceCoresAverage,
    t.apiCores,
    t.workerMemoryGb,
    t.databaseWritesPerSecond,
    t.walMbPerSecond,
    t.redisCommandsPerSecond,
  ]);
  const markdown = [
    `Capacity model, from the split deployment at ${basis.calls} calls (its largest passing step): ${cores} cores carried ${basis.calls} calls with everything else on them, ${perCall.coresBySustained === null ? '–' : round(perCall.coresBySustained, 3)} cores a call, the figure to plan with. On average over the step a call used ${round(perCall.voiceCores, 3)} voice-worker cores and ${round(perCall.apiCores, 3)} API cores: the gap is the headroom a turn's burst of recognition and synthesis needs. Per call also ${perCall.workerMemoryMb ?? '–'} MB of worker memory, ${perCall.databaseWritesPerMinute} database write transactions (${perCall.walKbPerMinute} KB of WAL) and ${perCall.redisCommandsPerMinute} Redis commands a minute. The average-CPU column plans cores at ${TARGET_UTILISATION * 100} % busy.`,
    '',
    table(
      [
        'Concurrent calls',
        'Cores for the calls (as measured here)',
        '16-core machines',
        'Voice-worker cores (average CPU, 70 % busy)',
        'API cores',
        'Worker memory (GB)',
        'DB writes/s',
        'WAL MB/s',
        'Redis cmds/s',
      ],
      rows,
    ),
    '',
    `Besides the calls, the idle split deployment (one API process, two workers: heartbeats, lease renewals, sweeps) made ${idle.databaseWritesPerMinute} database write transactions and sent ${idle.redisCommandsPerMinute} Redis commands a minute; that grows with processes, not calls, and is left out above.`,
    '',
    `Measured here (a shared 2-core machine, so a floor for a dedicated server): PostgreSQL took ${ceilings.postgresWritesPerSecond} call-record updates a second (lock, update, commit; 16 clients), Redis ${ceilings.redisCommandsPerSecond} commands a second (16 clients). At the per-call rates above PostgreSQL as measured here runs out at about **${saturates.postgres.toLocaleString('en')}** concurrent calls and Redis at about **${saturates.redis.toLocaleString('en')}**, so **${first}** saturates first among the shared parts; the voice workers and API processes scale out by adding machines. The calls' cores are by far the largest cost: they are what 1 000 and 10 000 calls buy.`,
  ].join('\n');
  return {
    figures: {
      basisCalls: basis.calls,
      perCall,
      targets,
      saturatesAtCalls: saturates,
      firstToSaturate: first,
    },
    markdown,
  };
}

/** Least-squares slope of y over x; null with fewer than two points. */
function slope(points) {
  if (points.length < 2) return null;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return variance === 0 ? null : round(covariance / variance);
}

function round(value, digits = 1) {
  return Number(value.toFixed(digits));
}
