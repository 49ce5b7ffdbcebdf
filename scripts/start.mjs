#!/usr/bin/env node
// `npm start`: install what is missing (npm packages, the Debian speech packages), build, then run the server, which migrates the
// database, seeds the demo on first run and serves the app.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from './lib/build.mjs';
import { ensureDebianPackages, SPEECH_PACKAGES } from './lib/debian-packages.mjs';
import { ensureDependencies } from './lib/dependencies.mjs';
import { checkNodeVersion, step, StepError } from './lib/run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  checkNodeVersion();
  await ensureDebianPackages(SPEECH_PACKAGES, 'The offline speech recogniser');
  await ensureDependencies(root);
  await build(root);
  step('Starting the server');
  // In this process, so Ctrl-C and the terminal reach the server directly.
  await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);
} catch (error) {
  if (!(error instanceof StepError)) throw error;
  console.error(`\n✖ ${error.message}`);
  process.exit(1);
}
