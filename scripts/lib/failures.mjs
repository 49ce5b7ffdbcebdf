// Reads the JSON reports Vitest and Playwright write during `npm test`, so the summary at
// the very end names each failed test and its first error line. CI keeps only the tail of
// a long run; without this, a failure deep in the unit suite's output could not be seen.
import fs from 'node:fs';
import path from 'node:path';

const MESSAGE_LINES = 4;

function firstLines(text) {
  const lines = String(text ?? '')
    // Strip terminal colours: the report is read as plain text.
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  // The message, and where it was thrown (the stack's first frame), not the whole stack.
  const stack = lines.findIndex((line) => line.trimStart().startsWith('at '));
  const kept = stack === -1 ? lines : [...lines.slice(0, stack), lines[stack]];
  return kept.slice(0, MESSAGE_LINES).join('\n      ');
}

const relative = (file) => (file ? path.relative(process.cwd(), file) || file : '');

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Failed tests from a Vitest JSON report (Jest's format), or undefined without a report. */
export function vitestFailures(file) {
  const report = readJson(file);
  if (!report) return undefined;
  const failures = [];
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failedTests)
      failures.push({
        where: relative(suite.name),
        title: test.fullName ?? test.title,
        message: firstLines(test.failureMessages?.[0]),
      });
    // A file that failed before any test ran (an import error, a failing hook).
    if (suite.status === 'failed' && failedTests.length === 0)
      failures.push({
        where: relative(suite.name),
        title: '(the file itself)',
        message: firstLines(suite.message),
      });
  }
  return failures;
}

/** Failed tests from a Playwright JSON report, or undefined without a report. */
export function playwrightFailures(file) {
  const report = readJson(file);
  if (!report) return undefined;
  const failures = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const last = results[results.length - 1];
        if (test.status !== 'unexpected' || !last) continue;
        failures.push({
          where: `${spec.file}:${spec.line}`,
          title: [...titles, spec.title].join(' › '),
          message: firstLines(last.error?.message ?? last.errors?.[0]?.message),
        });
      }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  for (const error of report.errors ?? [])
    failures.push({
      where: '(run)',
      title: 'error outside a test',
      message: firstLines(error.message),
    });
  return failures;
}

/** Prints failures under the summary line of their suite. */
export function printFailures(failures) {
  for (const f of failures) {
    console.log(`    ✖ ${f.title}\n      ${f.where}`);
    if (f.message) console.log(`      ${f.message}`);
  }
}
