// Finds the Debian Chromium the browser tests drive, installing it when we may.
import fs from 'node:fs';
import { hasCommand, mustRun, step, StepError } from './run.mjs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function findChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return fs.existsSync(configured) ? configured : null;
  return CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}

/** Returns Chromium's path; installs Debian's package as root, otherwise says how. */
export async function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    throw new StepError(
      `CHROMIUM_PATH is set to ${process.env.CHROMIUM_PATH}, but there is no file there.`,
    );
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !hasCommand('apt-get')) {
    throw new StepError(
      'The browser tests need Chromium, and it is not installed.\n' +
        '  Install it with:  sudo apt-get install -y chromium\n' +
        '  (or point CHROMIUM_PATH at a Chromium binary) and run `npm test` again.',
    );
  }
  step('Installing Chromium from Debian (apt-get install -y chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await mustRun('apt-get', ['update', '-qq'], { env });
  await mustRun('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
  const installed = findChromium();
  if (!installed)
    throw new StepError('apt-get installed chromium, but /usr/bin/chromium is still missing.');
  return installed;
}
