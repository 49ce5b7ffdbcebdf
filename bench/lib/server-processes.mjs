// Talkbooth servers as processes of their own (the built `apps/server/dist/main.js`, as
// `npm run serve` runs it), with their CPU time and memory read from /proc.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { fromRoot } from './paths.mjs';

const MAIN = fromRoot('apps/server/dist/main.js');
/** Linux counts CPU time in clock ticks; 100 per second on every kernel we run on. */
const TICKS_PER_SECOND = 100;

/** A port nobody listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts one server process with `env` (on top of a bare PATH) and waits until its start
 * line is printed: the banner of `ROLE=all`/`api`, or a voice worker's "listening".
 */
export async function startServerProcess(env, { dataDir, port }) {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const started = /Talkbooth is running|voice worker listening/;
  const deadline = Date.now() + 60_000;
  while (!started.test(stdout)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server (${env.ROLE ?? 'all'}) did not start:\n${stdout}\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    role: env.ROLE ?? 'all',
    baseUrl: `http://127.0.0.1:${port}`,
    /** The private key the banner showed (only at the start that created it). */
    privateKey: stdout.match(/private\s+(\S+)/)?.[1],
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident memory of a process, in MB. */
export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/^VmRSS:\s+(\d+) kB$/m)[1]) / 1024;
}

/**
 * Measures processes from now on: CPU time each, and peak RSS (sampled every 250 ms).
 * `stop()` answers per pid `{ cpuSeconds, peakRssMb, startRssMb }` and the wall time.
 */
export function meterProcesses(pids) {
  const started = performance.now();
  const cpuBefore = new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));
  const startRss = new Map(pids.map((pid) => [pid, rssMb(pid)]));
  const peak = new Map(startRss);
  const sampler = setInterval(() => {
    for (const pid of pids) peak.set(pid, Math.max(peak.get(pid), rssMb(pid)));
  }, 250);
  return () => {
    clearInterval(sampler);
    const wallSeconds = (performance.now() - started) / 1000;
    const byPid = new Map(
      pids.map((pid) => [
        pid,
        {
          cpuSeconds: cpuSeconds(pid) - cpuBefore.get(pid),
          peakRssMb: Math.max(peak.get(pid), rssMb(pid)),
          startRssMb: startRss.get(pid),
        },
      ]),
    );
    return { wallSeconds, byPid };
  };
}
