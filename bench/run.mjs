#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only name,name]`: builds Talkbooth, runs every benchmark
// against the real product on this machine, writes bench/results/<name>.json and rebuilds
// BENCHMARKS.md from the latest result of each. `--quick` runs a small version of everything in about five
// minutes, as CI's smoke test: it fails only on errors, never on speed, and writes its
// results to bench/results/quick/ so the committed full results stay as they are.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from '../scripts/lib/build.mjs';
import { ensureDependencies } from '../scripts/lib/dependencies.mjs';
import { fromRoot, root } from './lib/paths.mjs';

/** Every benchmark, in the order BENCHMARKS.md shows them. */
const BENCHMARKS = [
  'latency',
  'concurrency',
  'cpu-profile',
  'scale-out',
  'stages',
  'api-throughput',
  'page-weight',
  'recognition',
  'understanding',
];

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const quick = values.quick;
const selected =
  values.only === undefined ? BENCHMARKS : values.only.split(',').map((s) => s.trim());
const unknown = selected.filter((name) => !BENCHMARKS.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Known: ${BENCHMARKS.join(', ')}.`);
  process.exit(1);
}

await ensureDependencies(root);
await build(root);

const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
  node: process.version,
  platform: `${os.type()} ${os.release()}`,
  loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
};
const commit = (() => {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root }).toString().trim();
    const head = git('rev-parse', '--short', 'HEAD');
    // Uncommitted changes to tracked files mean the numbers are not the commit's.
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
})();
const resultsDir = fromRoot('bench/results', ...(quick ? ['quick'] : []));
fs.mkdirSync(resultsDir, { recursive: true });

let failed = 0;
for (const name of selected) {
  const started = Date.now();
  console.log(`\n▶ ${name}${quick ? ' (quick)' : ''}`);
  try {
    const bench = await import(`./${name}.bench.mjs`);
    const result = await bench.run({ quick, log: (...args) => console.log('  ', ...args) });
    const seconds = Number(((Date.now() - started) / 1000).toFixed(1));
    const record = {
      name,
      title: bench.title,
      about: bench.about,
      date: new Date().toISOString(),
      commit,
      quick,
      machine,
      seconds,
      ...result,
    };
    fs.writeFileSync(path.join(resultsDir, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
    console.log(`\n${result.markdown}\n  (${seconds} s)`);
  } catch (error) {
    failed += 1;
    console.error(`✖ ${name} failed:`, error instanceof Error ? error.stack : error);
  }
}

// BENCHMARKS.md shows the latest full result of every benchmark, so `--only` refreshes
// its sections without rerunning the rest; each section says when and at which commit.
if (!quick) {
  const records = BENCHMARKS.map((name) => path.join(resultsDir, `${name}.json`))
    .filter((file) => fs.existsSync(file))
    .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
  fs.writeFileSync(fromRoot('BENCHMARKS.md'), benchmarksMarkdown(records));
  console.log(`\nWrote BENCHMARKS.md (${records.length} of ${BENCHMARKS.length} benchmarks)`);
}
process.exit(failed === 0 ? 0 : 1);

function benchmarksMarkdown(records) {
  const newest = records.reduce((a, b) => (a.date > b.date ? a : b), records[0]);
  const { machine: m } = newest ?? { machine };
  const lines = [
    '# Benchmarks',
    '',
    'What Talkbooth does on one machine, measured by `npm run bench` against the real product',
    '(the built server, its SQLite file, the embedded voice engine, Debian Chromium). Each figure',
    'stands next to a reference measured in the same run, so a noisy, shared machine still gives',
    'a meaningful ratio. Raw numbers: `bench/results/<name>.json`.',
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}`,
    '- Each section gives the date, commit and load average of its own run.',
    '',
    'Repeat: `npm run bench` (everything, about 90 minutes) or `npm run bench -- --only latency,api-throughput`',
    '(refreshes those sections);',
    '`npm run bench -- --quick` runs a small version of everything in about five minutes (CI runs it).',
    '',
  ];
  for (const record of records) {
    lines.push(
      `## ${record.title}`,
      '',
      `_Run ${record.date.slice(0, 10)} at commit \`${record.commit}\`, ${record.seconds} s; ` +
        `load average at start ${record.machine.loadAverageAtStart.join(' / ')}._`,
      '',
      record.about,
      '',
      record.markdown,
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
