#!/usr/bin/env node
// `npm test`: install what the tests need, build, then run every suite: format, lint,
// types, unit and integration tests (Vitest), and browser tests in real Chromium
// (Playwright). Every suite runs even when an earlier one fails; the summary lists them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './lib/build.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import {
  ensureDebianPackages,
  SPEECH_PACKAGES,
  SPEECH_TEST_PACKAGES,
} from './lib/debian-packages.mjs';
import { ensureDependencies } from './lib/dependencies.mjs';
import { playwrightFailures, printFailures, vitestFailures } from './lib/failures.mjs';
import { checkNodeVersion, npmCommand, run, step, StepError } from './lib/run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// JSON reports beside the usual output, read back to name the failed tests in the summary.
const reports = path.join(root, 'test-results');
const vitestReport = path.join(reports, 'vitest.json');
const playwrightReport = path.join(reports, 'playwright.json');

const SUITES = [
  { name: 'format', args: ['run', 'format:check'] },
  { name: 'lint', args: ['run', 'lint'] },
  { name: 'typecheck', args: ['run', 'typecheck'] },
  {
    name: 'unit and integration tests',
    args: [
      'run',
      'test:unit',
      '--',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestReport}`,
    ],
    failures: () => vitestFailures(vitestReport),
  },
  {
    name: 'browser tests (Chromium)',
    args: ['run', 'test:e2e', '--', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport },
    failures: () => playwrightFailures(playwrightReport),
  },
  // A smoke test of every benchmark: fails on errors, never on speed.
  { name: 'benchmarks (quick)', args: ['run', 'bench', '--', '--quick'] },
];

try {
  checkNodeVersion();
  await ensureDebianPackages(
    [...SPEECH_PACKAGES, ...SPEECH_TEST_PACKAGES],
    'The speech engine and its tests',
  );
  await ensureDependencies(root);
  const chromium = await ensureChromium();
  await build(root, { force: true });

  fs.rmSync(vitestReport, { force: true });
  fs.rmSync(playwrightReport, { force: true });
  const results = [];
  for (const suite of SUITES) {
    step(suite.name);
    const started = Date.now();
    const code = await run(npmCommand(), suite.args, {
      cwd: root,
      env: { ...process.env, CHROMIUM_PATH: chromium, ...suite.env },
    });
    const ok = code === 0;
    results.push({
      name: suite.name,
      ok,
      seconds: (Date.now() - started) / 1000,
      failures: ok ? [] : (suite.failures?.() ?? []),
    });
  }

  console.log('\nSummary');
  for (const r of results) {
    console.log(`  ${r.ok ? '✔' : '✖'} ${r.name} (${r.seconds.toFixed(1)} s)`);
    printFailures(r.failures);
  }
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) {
    console.error(`\n✖ ${failed.length} suite(s) failed: ${failed.map((r) => r.name).join(', ')}`);
    process.exit(1);
  }
  console.log('\n✔ All suites passed.');
} catch (error) {
  if (!(error instanceof StepError)) throw error;
  console.error(`\n✖ ${error.message}`);
  process.exit(1);
}
