// Installs the npm dependencies when they are missing or the lockfile changed since the
// last install. A stamp in node_modules records what was installed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hasCommand, mustRun, npmCommand, step, StepError } from './run.mjs';

const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'packages/protocol/package.json',
  'packages/platform-client/package.json',
  'packages/voice/package.json',
  'packages/web-call/package.json',
  'apps/server/package.json',
  'apps/web/package.json',
];

/** Keeps installs offline-safe: nothing may download a browser or a binary. */
export const INSTALL_ENV = {
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  PUPPETEER_SKIP_DOWNLOAD: '1',
  ONNXRUNTIME_NODE_INSTALL: 'skip',
};

function manifestHash(root) {
  const hash = crypto.createHash('sha256');
  for (const file of MANIFESTS) {
    const full = path.join(root, file);
    hash.update(file).update(fs.existsSync(full) ? fs.readFileSync(full) : '');
  }
  return hash.digest('hex');
}

export async function ensureDependencies(root) {
  const stamp = path.join(root, 'node_modules', '.talkbooth-install-stamp');
  const wanted = manifestHash(root);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return;

  const fresh = !fs.existsSync(path.join(root, 'node_modules'));
  await ensureBuildTools();
  step(
    fresh
      ? 'Installing npm dependencies (first run; building native modules takes a few minutes)'
      : 'Updating npm dependencies (the manifests changed)',
  );
  await mustRun(npmCommand(), [fresh ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: root,
    env: { ...process.env, ...INSTALL_ENV },
  });
  fs.writeFileSync(stamp, wanted);
}

/**
 * better-sqlite3 has no prebuilt binary we may download here, so npm compiles it: that
 * needs python3, make and a C++ compiler. Installed from Debian as root, else explained.
 */
async function ensureBuildTools() {
  const missing = ['python3', 'make', 'g++'].filter((tool) => !hasCommand(tool));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !hasCommand('apt-get')) {
    throw new StepError(
      `Installing needs ${missing.join(', ')} to compile the SQLite driver.\n` +
        '  Install them with:  sudo apt-get install -y python3 make g++\n  and run the command again.',
    );
  }
  step(`Installing build tools from Debian (${missing.join(', ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await mustRun('apt-get', ['update', '-qq'], { env });
  await mustRun('apt-get', ['install', '-y', '-qq', 'python3', 'make', 'g++'], { env });
}
