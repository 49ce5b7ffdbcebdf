import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built entry point, exactly what `npm start` runs. */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface MainProcess {
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  /** Waits (up to `timeoutMs`, 20 s by default) until stdout matches `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  dataDir: string;
}

const children: ChildProcess[] = [];

/** Kills every server a test started and left running (call from afterEach). */
export function killMainProcesses(): void {
  for (const child of children.splice(0)) child.kill('SIGKILL');
}

/** Starts the built server as its own process, on a free port, with only `env` set (and no warm-up). */
export function startMain(
  env: Record<string, string>,
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-main-')),
): MainProcess {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // As in startTestServer: no engines loaded at start unless a test asks for it.
      WARM_ASSISTANTS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = () => ({ stdout, stderr });
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = stdout.match(pattern);
      if (match) return match;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${pattern} in output:\n${stdout}\n${stderr}`);
  };
  return { child, exited, output, waitFor, dataDir };
}
