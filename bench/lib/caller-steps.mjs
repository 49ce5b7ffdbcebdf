// One step of a call ramp: N callers, each in real time, run in a child process of their own
// (bench/lib/concurrency-callers.mjs), while the benchmark measures the servers meanwhile.
// Shared by the concurrency and scale-out benchmarks.
import { fork } from 'node:child_process';
import { fromRoot } from './paths.mjs';
import { demo, devLines, paraphraseLines, VOICES, voice } from './speech.mjs';
import { summarise } from './stats.mjs';

/** 1, 2, 4, 6, 8, … up to `max`. */
export function ramp(max) {
  const steps = [1, 2];
  while (steps.at(-1) + 2 <= max) steps.push(steps.at(-1) + 2);
  return steps;
}

/** Knowledge-base dev lines (no intake, no goodbye: those change the call); `count` takes those with the shortest answers. */
export function scriptLines(count) {
  const lines = devLines.lines.filter(
    (line) => line.expect !== 'intake' && line.expect !== 'end-call',
  );
  if (count === undefined) return lines;
  const answerLength = (line) =>
    demo.knowledgeBase.find((entry) => entry.id === line.expect).answer.length;
  return [...lines].sort((a, b) => answerLength(a) - answerLength(b)).slice(0, count);
}

/**
 * Callers' own words: every paraphrase, urgent and off-topic line of the dev set, in a
 * seeded order (so each caller's turns mix them), the same in every run.
 */
export function paraphraseScriptLines() {
  const lines = paraphraseLines();
  const random = voice.createPrng(7);
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  return lines;
}

/**
 * N callers: rotating voices, each starting at a different line, with seeded 1–2 s pauses.
 * With `arrivalSpreadMs`, the callers arrive (start their calls) at seeded times spread
 * over that long, as calls do when they are not all started by one script at once: the
 * first at once, the others uniformly after it. Without it, all at once.
 */
export function callerScripts(calls, turns, lines, { arrivalSpreadMs = 0 } = {}) {
  const random = voice.createPrng(calls);
  // Its own sequence, so the pauses are the same with or without a spread.
  const arrivals = voice.createPrng(calls + 1000);
  return Array.from({ length: calls }, (_, i) => ({
    voice: VOICES[i % VOICES.length],
    startAfterMs: i === 0 ? 0 : Math.round(arrivalSpreadMs * arrivals()),
    turns: Array.from({ length: turns }, (_, t) => ({
      ...lines[(i + t) % lines.length],
      pauseMs: Math.round(1000 + 1000 * random()),
    })),
  }));
}

/** The options of this process its callers' process keeps. */
export function callerExecArgv(execArgv) {
  const kept = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (arg.startsWith('--cpu-prof')) continue;
    if (['-e', '--eval', '-p', '--print'].includes(arg)) {
      i += 1; // and the code after it
      continue;
    }
    if (/^(--eval|--print)=/.test(arg)) continue;
    kept.push(arg);
  }
  return kept;
}

/**
 * Runs one step's callers (`job` as concurrency-callers.mjs takes it). `meter()` is called
 * once every caller's speech is ready, just before they start, and returns a function that
 * stops measuring and gives what it measured. Resolves with `{ outcome, measured }`, where
 * `outcome` is the callers' report or `{ error }`.
 */
export async function runCallerStep(job, meter) {
  const child = fork(fromRoot('bench/lib/concurrency-callers.mjs'), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // A server profiled with --cpu-prof (bench/cpu-profile.bench.mjs): not its callers. Nor
    // the code of a `node -e`/`-p` that imported a benchmark: the callers would run it again
    // instead of their own script, and fork callers of their own, without end.
    execArgv: callerExecArgv(process.execArgv),
  });
  try {
    const exited = new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Error(`the callers' process exited (${code})`))),
    );
    exited.catch(() => undefined);
    child.send(job);
    await Promise.race([message(child, 'ready'), exited]);
    const stop = meter();
    child.send({ type: 'go' });
    const outcome = await Promise.race([message(child, 'done'), exited]).catch((error) => ({
      error,
    }));
    return { outcome, measured: await stop() };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

/** The next IPC message of `type` from the child; an `error` message rejects. */
function message(child, type) {
  return new Promise((resolve, reject) => {
    const listener = (received) => {
      if (received.type !== type && received.type !== 'error') return;
      child.off('message', listener);
      if (received.type === 'error') reject(new Error(`callers: ${received.message}`));
      else resolve(received);
    };
    child.on('message', listener);
  });
}

/** Every turn of a step's callers, with its voice. */
export function turnsOf(callers) {
  return callers.calls.flatMap((call) =>
    call.turns.map((turn) => ({ ...turn, voice: call.voice })),
  );
}

/**
 * How a step's turns went: voice-to-voice latency, failed turns (no answer at all) and
 * wrong replies, and whether the step passed (no failed turn, p95 within `p95LimitMs`).
 */
export function stepVerdict(callers, p95LimitMs) {
  const turns = turnsOf(callers);
  const failures = turns.filter((turn) => turn.outcome === 'failed');
  const latency = summarise(turns.map((turn) => turn.voiceToVoiceMs));
  const passed = failures.length === 0 && latency.p95 !== null && latency.p95 <= p95LimitMs;
  return {
    turns,
    failures,
    passed,
    summary: {
      turns: turns.length,
      voiceToVoiceMs: latency,
      failed: failures.length,
      mismatched: turns.filter((turn) => turn.outcome === 'mismatch').length,
      passed,
      stoppedBy: passed
        ? null
        : failures.length > 0
          ? `${failures.length} failed turn(s)${causes(failures)}`
          : `p95 ${latency.p95} ms > ${p95LimitMs} ms`,
    },
  };
}

/** The distinct reasons failed turns went unanswered, as a parenthesis (or nothing). */
function causes(failures) {
  const reasons = [...new Set(failures.map((turn) => turn.error).filter(Boolean))];
  return reasons.length === 0 ? '' : ` (${reasons.join('; ')})`;
}
