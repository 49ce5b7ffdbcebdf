#!/usr/bin/env node
// Where a thread's time went, from a V8 CPU profile (`node --cpu-prof`, one .cpuprofile per
// thread): self time by function and by the file or module it lives in, largest first.
//
//   node bench/lib/cpu-profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 25]
//
// A profile of the concurrency benchmark at one load:
//   CONCURRENCY_STEPS=12 node --cpu-prof --cpu-prof-dir=/tmp/prof \
//     -e "import('./bench/concurrency.bench.mjs').then((m) => m.run({ quick: false, log: console.log }))"
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
const top = Number(values.top);

/** Where a frame's code lives: a package, a file of ours, the runtime, or WebAssembly. */
function place(frame) {
  const { url, functionName } = frame.callFrame;
  if (url === '') {
    if (functionName.startsWith('wasm-function') || functionName.startsWith('$')) return 'wasm';
    return `(${functionName || 'anonymous'})`;
  }
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(url.lastIndexOf('/', dist - 1) + 1) : path.basename(url);
}

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
    const { functionName, url, lineNumber } = node.callFrame;
    const where = place(node);
    const name = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`;
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
}
