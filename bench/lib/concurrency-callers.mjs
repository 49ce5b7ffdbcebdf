// The callers of the concurrency benchmark, forked by concurrency.bench.mjs into a process
// of their own: like real clients they get their own event loop (so their timers do not
// queue behind the server's work, nor the server's behind theirs), and their CPU is
// measured apart from the server's. They still share the machine's cores with the server.
//
// IPC, one step of the ramp per process:
//   parent → { baseUrl, privateKey, assistantId, overrides, callers: [{ voice, turns: [{ text, expect, pauseMs }] }],
//              socketOrigin? (connect there instead of the link's own host: a voice worker, directly) }
//   child  → { type: 'ready' }   every line synthesized, nothing running yet
//   parent → { type: 'go' }
//   child  → { type: 'done', calls, cpuMs, wallMs, loopDelayP99Ms } or { type: 'error', message }
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Caller } from './caller.mjs';
import { answersAsExpected, disposeSpeech, spoken } from './speech.mjs';

const HANG_UP_TIMEOUT_MS = 5000;

// Orphaned (the benchmark died): stop calling.
process.once('disconnect', () => process.exit(1));

process.once('message', (job) => {
  runStep(job).then(
    (result) => process.send({ type: 'done', ...result }, () => process.exit(0)),
    (error) =>
      process.send({ type: 'error', message: error?.stack ?? String(error) }, () =>
        process.exit(1),
      ),
  );
});

async function runStep(job) {
  // Synthesis first, so eSpeak's cost falls before the measured window and not in it.
  const clips = await synthesizeAll(job.callers);
  await disposeSpeech();
  const go = nextMessage('go');
  process.send({ type: 'ready' });
  await go;

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const callers = [];
  try {
    const calls = await Promise.all(
      job.callers.map(async (script, i) => {
        if (script.startAfterMs > 0)
          await new Promise((resolve) => setTimeout(resolve, script.startAfterMs));
        const call = await createWebCall(job);
        const caller = await Caller.connect(socketUrl(call.webCallUrl, job.socketOrigin));
        callers.push(caller);
        return runCaller(caller, script, clips[i]);
      }),
    );
    const cpu = process.cpuUsage(cpuBefore);
    return {
      calls,
      cpuMs: (cpu.user + cpu.system) / 1000,
      wallMs: performance.now() - started,
      loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    };
  } finally {
    loopDelay.disable();
    await Promise.all(callers.map(hangUp));
  }
}

/** Every caller's lines as 16 kHz speech, in the caller's voice. */
async function synthesizeAll(callers) {
  const clips = [];
  for (const script of callers) {
    const lines = [];
    for (const turn of script.turns) lines.push(await spoken(turn.text, script.voice));
    clips.push(lines);
  }
  return clips;
}

function nextMessage(type) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message?.type !== type) return;
      process.off('message', listener);
      resolve(message);
    };
    process.on('message', listener);
  });
}

/** The call link, or the same path and token on `origin` (`ws://host:port`). */
function socketUrl(webCallUrl, origin) {
  if (origin === undefined) return webCallUrl;
  const url = new URL(webCallUrl);
  return `${origin}${url.pathname}${url.search}`;
}

/** What the customer's own backend does: start a web call with the private key. */
async function createWebCall({ baseUrl, privateKey, assistantId, overrides }) {
  const response = await fetch(`${baseUrl}/platform/call/web`, {
    method: 'POST',
    headers: { authorization: `Bearer ${privateKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ assistantId, assistantOverrides: overrides }),
  });
  if (!response.ok) throw new Error(`POST /call/web: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Listens to the greeting, then speaks each line after a pause and notes how the turn went. */
async function runCaller(caller, script, clips) {
  await caller.untilAssistantStops(0);
  const turns = [];
  for (const [i, line] of script.turns.entries()) {
    // The microphone keeps sending its noise floor during the pause, as a real one would.
    await sleep(line.pauseMs);
    turns.push(await oneTurn(caller, clips[i], line));
  }
  return { voice: script.voice, turns };
}

async function oneTurn(caller, samples, line) {
  try {
    const { heard, reply, voiceToVoiceMs, unanswered } = await caller.turn(samples);
    return {
      text: line.text,
      heard,
      reply,
      voiceToVoiceMs,
      outcome: outcomeOf(line, heard, reply, voiceToVoiceMs),
      ...(unanswered === undefined ? {} : { error: unanswered }),
    };
  } catch (error) {
    return {
      text: line.text,
      heard: '',
      reply: '',
      voiceToVoiceMs: null,
      outcome: 'failed',
      error: error.message,
    };
  }
}

/**
 * `failed`: the product did not answer at all (nothing recognised, no reply, no audio).
 * `mismatch`: it answered, but not from the expected entry (a recognition error, which
 * happens for some voice/line pairs even with one call, so it does not end the ramp).
 */
function outcomeOf(line, heard, reply, voiceToVoiceMs) {
  if (heard === '' || reply === '' || voiceToVoiceMs === null) return 'failed';
  return answersAsExpected(line.expect, reply) ? 'ok' : 'mismatch';
}

/** Hangs up; a socket that does not close in time is torn down. */
async function hangUp(caller) {
  const timer = setTimeout(() => caller.socket.terminate(), HANG_UP_TIMEOUT_MS);
  await caller.hangUp();
  clearTimeout(timer);
}
