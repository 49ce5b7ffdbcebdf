// Where the server's CPU goes: one step of the concurrency benchmark (8 callers who speak
// in their own words) on a server profiled with `node --cpu-prof`, every thread's samples
// within the step summed by what the thread is for.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { busyStretches, busyTime, largest, profilesOf, threadRole } from './lib/cpu-profiles.mjs';
import { table } from './lib/markdown.mjs';
import { fromRoot } from './lib/paths.mjs';

/** A load past what the machine sustains with paraphrasing callers, where the cores are busy. */
const CALLS = 8;
/** The longest the event loop may be held at once (issue #14's target for loop stalls), ms. */
const STALL_MS = 50;
/** Busy stretches of the event loop listed. */
const STRETCHES = 6;

export const title = "Where the server's CPU goes";
export const about =
  `One step of the concurrency benchmark (${CALLS} calls at once, callers speaking the dev ` +
  'paraphrases, urgent and off-topic lines in rotating eSpeak voices, as in "Concurrent ' +
  'calls"; the 2-call step of its quick plan in quick mode) on a server run under ' +
  '`node --cpu-prof`, which samples every thread about once a millisecond. Only the ' +
  "samples taken while the step's callers were talking count (not the server's start or " +
  'its warm-up call); the callers run in their own process, not profiled. Each thread is ' +
  'named for what it runs (its worker script), and threads of one pool are summed. A ' +
  'sample is busy when its thread is not waiting for work, whether or not a core was ' +
  'running it (with more busy threads than cores, some wait for one), so busy time is ' +
  'split by its shares over the CPU the server process really used in the step ' +
  '(`process.cpuUsage`): that is the "≈ CPU per call" column. `(program)` is native code ' +
  'the sampler could not place under a JavaScript function: on the recognition threads, ' +
  "pocketsphinx's decoding (called through koffi); `backend.js` is onnxruntime's, and " +
  "`wasm-function` RNNoise's, the sentence encoder's or eSpeak's WebAssembly. The " +
  "sampler's own cost makes the step slower than unprofiled, so its latencies and CPU are " +
  'not the ones to quote (those are in "Concurrent calls"); the shares are the finding. ' +
  "`node bench/lib/cpu-profile-summary.mjs <file>` shows one thread's profile in more detail. " +
  "The event loop's longest busy stretches (samples in a row that are not idle: one long " +
  'task, or several back to back, which the sampler cannot tell apart; a timer falling due ' +
  'in one waits for the task then running, and for the rest of its phase of the loop) are ' +
  'listed with the tasks they ran: a sample counts for the outermost ' +
  "of the project's own functions on its stack (the callback that was running), or, with " +
  "none, for the garbage collector or Node's and the packages' own work (sockets, message " +
  'ports). Under the profiler they run longer than without it.';

export async function run({ quick, log }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-cpu-profile-'));
  try {
    const out = path.join(dir, 'result.json');
    const pid = await runProfiled(dir, {
      PROFILE_OUT: out,
      PROFILE_QUICK: quick ? '1' : '',
      CONCURRENCY_STEPS: quick ? '' : String(CALLS),
    });
    const result = JSON.parse(fs.readFileSync(out, 'utf8'));
    const step = result.details.steps.at(-1);
    if (!step?.monotonicWindowUs) throw new Error('the profiled step did not run to its end');
    log(
      `${step.calls} call(s): p95 ${step.voiceToVoiceMs?.p95} ms under the profiler, ` +
        `${step.failed} failed`,
    );
    return report(step, profilesOf(dir, pid));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the step in a profiled process; resolves with its pid once it exited cleanly. */
function runProfiled(dir, env) {
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, fromRoot('bench/lib/profiled-concurrency-step.mjs')],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve(child.pid)
        : reject(new Error(`the profiled step exited (${code ?? signal})`)),
    );
  });
}

function report(step, profiles) {
  const window = step.monotonicWindowUs;
  const wallS = (window.endedUs - window.startedUs) / 1e6;
  const roles = new Map();
  for (const { thread, profile } of profiles) {
    const role = threadRole(profile, thread);
    const time = busyTime(profile, window);
    const r = roles.get(role) ?? { threads: 0, busyUs: 0, byFunction: new Map() };
    r.threads += 1;
    r.busyUs += time.busyUs;
    for (const [fn, us] of time.byFunction) r.byFunction.set(fn, (r.byFunction.get(fn) ?? 0) + us);
    roles.set(role, r);
  }
  const totalUs = [...roles.values()].reduce((sum, r) => sum + r.busyUs, 0);
  // The server's real CPU per call in the step, split by the threads' shares of busy time.
  const cpuPerCall = step.serverCpuPerCallPct;
  const rows = [...roles.entries()]
    .filter(([, r]) => r.busyUs > 0)
    .sort((a, b) => b[1].busyUs - a[1].busyUs)
    .map(([role, r]) => ({
      role,
      threads: r.threads,
      busySeconds: round(r.busyUs / 1e6, 2),
      sharePct: round((100 * r.busyUs) / totalUs),
      cpuPerCallPctCore: round((cpuPerCall * r.busyUs) / totalUs, 2),
      mostIn: largest(r.byFunction, 3).map(([fn, us]) => ({
        function: fn,
        sharePct: round((100 * us) / r.busyUs),
      })),
    }));
  const loop = eventLoopStretches(profiles, window);
  const cores = os.cpus().length;
  const fillsAt = Math.floor((100 * cores) / cpuPerCall);
  const markdown = [
    table(
      [
        'Thread(s)',
        'Threads',
        'Busy (s)',
        'Share of busy time (%)',
        '≈ CPU per call (% core)',
        'Most of it in',
      ],
      [
        ...rows.map((r) => [
          r.role,
          r.threads,
          r.busySeconds,
          r.sharePct,
          r.cpuPerCallPctCore,
          r.mostIn.map((m) => `\`${m.function}\` ${m.sharePct} %`).join(', '),
        ]),
        ['**all of the server**', profiles.length, round(totalUs / 1e6, 2), 100, cpuPerCall, ''],
      ],
    ),
    '',
    loop.markdown,
    '',
    `The step: ${step.calls} calls, ${step.turns} turns, ${round(wallS)} s; under the profiler p95 voice-to-voice ${step.voiceToVoiceMs?.p95 ?? '–'} ms, ${step.failed} failed, ${step.wrongReplies?.length ?? '–'} wrong replies, the server process ${cpuPerCall} % of a core per call. At that rate the server alone would fill the ${cores} cores at about ${fillsAt} such calls (its threads were busy ${round(totalUs / 1e6 / wallS, 2)} cores' worth of the step's wall time).`,
  ].join('\n');
  return {
    summary: {
      calls: step.calls,
      stepSeconds: round(wallS),
      serverCpuPerCallPct: cpuPerCall,
      largest: rows[0]?.role ?? null,
      largestSharePct: rows[0]?.sharePct ?? null,
      loopStretchesOverStallMs: loop.over,
      longestLoopStretchMs: loop.longestMs,
    },
    markdown,
    details: {
      step: { ...step, serverStages: undefined },
      threads: rows,
      eventLoopStretches: loop.stretches,
    },
  };
}

/**
 * The event loop's longest busy stretches in the step, with the tasks they ran, and what the
 * stretches over `STALL_MS` were made of together.
 */
function eventLoopStretches(profiles, window) {
  const main = profiles.find(({ thread }) => thread === 0);
  if (main === undefined)
    return {
      markdown: 'No profile of the event loop.',
      stretches: [],
      over: null,
      longestMs: null,
    };
  const all = busyStretches(main.profile, window);
  const long = all.filter((s) => s.us > STALL_MS * 1000);
  const together = new Map();
  for (const s of long)
    for (const [name, us] of s.byTask) together.set(name, (together.get(name) ?? 0) + us);
  const longUs = long.reduce((sum, s) => sum + s.us, 0);
  const made = (byTask, us, n) =>
    largest(byTask, n)
      .map(([name, t]) => `\`${name}\` ${round((100 * t) / us)} %`)
      .join(', ');
  const shown = all.slice(0, STRETCHES).map((s) => ({
    ms: round(s.us / 1000),
    atSeconds: round((s.startUs - window.startedUs) / 1e6, 2),
    tasks: largest(s.byTask, 3).map(([name, us]) => ({ task: name, ms: round(us / 1000) })),
    madeOf: made(s.byTask, s.us, 3),
  }));
  const stretches = shown.map(({ madeOf: _madeOf, ...s }) => s);
  const markdown = [
    `The event loop's longest busy stretches in the step (${long.length} of ${all.length} over ${STALL_MS} ms under the profiler${long.length === 0 ? '' : `; together, ${made(together, longUs, 4)}`}):`,
    '',
    table(
      ['Busy (ms)', 'At (s into the step)', 'What it ran'],
      shown.map((s) => [s.ms, s.atSeconds, s.madeOf]),
    ),
  ].join('\n');
  return {
    markdown,
    stretches,
    over: long.length,
    longestMs: stretches[0]?.ms ?? null,
  };
}

function round(value, digits = 1) {
  return Number(value.toFixed(digits));
}
