#!/usr/bin/env node
// Where a thread's time went, from a V8 CPU profile (`node --cpu-prof`, one .cpuprofile per
// thread): self time by function and by the file or module it lives in, largest first.
//
//   node bench/lib/cpu-profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 25] [--longest 5]
//
// `--longest K` also lists the thread's K longest busy stretches (samples in a row that
// are not idle: what a loop stall is made of), each with the tasks it ran (the outermost of
// our own functions on the stack; `--lines N` of them, default 5).
//
// A profile of the concurrency benchmark at one load:
//   CONCURRENCY_STEPS=12 PROFILE_OUT=/tmp/prof/result.json \
//     node --cpu-prof --cpu-prof-dir=/tmp/prof bench/lib/profiled-concurrency-step.mjs
// (`npm run bench -- --only cpu-profile` sums such a profile's threads by what they do.)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { busyStretches, functionName, largest, place } from './cpu-profiles.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    longest: { type: 'string', default: '0' },
    lines: { type: 'string', default: '5' },
  },
});
const top = Number(values.top);
const longest = Number(values.longest);
/** Tasks listed per busy stretch. */
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
  if (longest > 0) console.log(`longest busy stretches:\n${describeStretches(profile)}\n`);
}

/** The `longest` longest runs of non-idle samples, with the tasks they ran. */
function describeStretches(profile) {
  return busyStretches(profile)
    .slice(0, longest)
    .map((r) => {
      const head = `  ${(r.us / 1000).toFixed(1)} ms at ${((r.startUs - profile.startTime) / 1e6).toFixed(2)} s:`;
      const listed = largest(r.byTask, lines).map(
        ([name, us]) => `      ${(us / 1000).toFixed(1).padStart(7)} ms  ${name}`,
      );
      return [head, ...listed].join('\n');
    })
    .join('\n');
}
