// Small process helpers for the start and test entry points. No dependencies: these run
// before `npm install` has.
import { spawn, spawnSync } from 'node:child_process';

/** Runs a command with inherited output; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a command and throws with a clear message when it fails. */
export async function mustRun(command, args, options = {}) {
  const code = await run(command, args, options);
  if (code !== 0)
    throw new StepError(`\`${[command, ...args].join(' ')}\` failed (exit code ${code}).`);
}

/** True when a command exists on PATH. */
export function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** A failure the scripts explain themselves: printed without a stack trace. */
export class StepError extends Error {}

export function npmCommand() {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

export function step(title) {
  console.log(`\n▶ ${title}`);
}

/** Fails early, with the fix, on a Node.js that cannot run the project. */
export function checkNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    throw new StepError(
      `Talkbooth needs Node.js 20.19 or newer; this is ${process.version}. Install a newer Node.js and try again.`,
    );
  }
}
