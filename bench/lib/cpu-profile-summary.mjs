#!/usr/bin/env node
// Where a thread's time went, from a V8 CPU profile (`node --cpu-prof`, one .cpuprofile per
// thread): self time by function and by the file or module it lives in, largest first.
//
//   node bench/lib/cpu-profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 25] [--longest 5]
//
// `--longest K` also lists the thread's K longest busy stretches (samples in a row that
// are not idle: what a loop stall is made of), each with the functions most of it ran in,
// callers included (`--lines N` of them, default 12).
//
// A profile of the concurrency benchmark at one load:
//   CONCURRENCY_STEPS=12 PROFILE_OUT=/tmp/prof/result.json \
//     node --cpu-prof --cpu-prof-dir=/tmp/prof bench/lib/profiled-concurrency-step.mjs
// (`npm run bench -- --only cpu-profile` sums such a profile's threads by what they do.)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { functionName, place } from './cpu-profiles.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    longest: { type: 'string', default: '0' },
    lines: { type: 'string', default: '12' },
  },
});
const top = Number(values.top);
const longest = Number(values.longest);
/** Functions listed per busy stretch. */
const lines = Number(values.lines);

for (const file of positionals) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byPlace = new Map();
  for (const [id, us] of self) {
    const node = byId.get(id);
    const where = place(node);
    const name = functionName(node);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byPlace.set(where, (byPlace.get(where) ?? 0) + us);
  }
  const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const list = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `  ${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`)
      .join('\n');
  console.log(`${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled`);
  console.log(`by module or file:\n${list(byPlace)}`);
  console.log(`by function:\n${list(byFunction)}\n`);
  if (longest > 0) console.log(`longest busy stretches:\n${busyStretches(profile, byId)}\n`);
}

/** The `longest` longest runs of non-idle samples, with what their stacks spent time in. */
function busyStretches(profile, byId) {
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const idle = (id) => byId.get(id).callFrame.functionName === '(idle)';
  const runs = [];
  let at = 0;
  let run = null;
  profile.samples.forEach((id, i) => {
    // A sample's time is the gap to the next one.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (idle(id)) run = null;
    else {
      if (run === null) runs.push((run = { startUs: at, us: 0, samples: [] }));
      run.us += dt;
      run.samples.push([id, dt]);
    }
    at += dt;
  });
  return runs
    .sort((a, b) => b.us - a.us)
    .slice(0, longest)
    .map((r) => {
      const inclusive = new Map();
      for (const [id, dt] of r.samples) {
        const seen = new Set();
        for (let n = id; n !== undefined; n = parent.get(n)) {
          const name = functionName(byId.get(n));
          if (name.startsWith('(root)') || seen.has(name)) continue;
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
        }
      }
      const listed = [...inclusive.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, lines)
        .map(([name, us]) => `      ${(us / 1000).toFixed(1).padStart(7)} ms  ${name}`);
      const head = `  ${(r.us / 1000).toFixed(1)} ms at ${(r.startUs / 1e6).toFixed(2)} s:`;
      return [head, ...listed].join('\n');
    })
    .join('\n');
}
