// Builds the TypeScript projects, the voice engine's lexicon and the web app. tsc -b is incremental on its own; the
// web build is skipped when its output is newer than every input.
import fs from 'node:fs';
import path from 'node:path';
import { mustRun, npmCommand, step } from './run.mjs';

const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/protocol/src',
  'packages/web-call/src',
  'package-lock.json',
];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** The web build's outputs: the browser's files, and the server's renderer of the first page. */
const WEB_OUTPUTS = ['apps/web/dist/index.html', 'apps/web/dist-server/entry-server.js'];

function webBuildIsFresh(root) {
  const outputs = WEB_OUTPUTS.map((output) => path.join(root, output));
  if (!outputs.every((output) => fs.existsSync(output))) return false;
  const built = Math.min(...outputs.map((output) => fs.statSync(output).mtimeMs));
  return WEB_INPUTS.every((input) => newestMtime(path.join(root, input)) <= built);
}

export async function build(root, { force = false } = {}) {
  step('Building the server and shared packages');
  await mustRun(npmCommand(), ['exec', '--', 'tsc', '-b'], { cwd: root });
  // The reply engine's English lexicon (WordNet, embeddings, lemmas): skipped when current.
  await mustRun(process.execPath, ['packages/voice/scripts/build-lexicon.mjs'], { cwd: root });
  if (!force && webBuildIsFresh(root)) {
    console.log('  web app is up to date');
    return;
  }
  step('Building the web app');
  await mustRun(npmCommand(), ['run', 'build', '--workspace', 'apps/web'], { cwd: root });
}
