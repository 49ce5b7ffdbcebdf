// One load of the concurrency benchmark in a process of its own, run under
// `node --cpu-prof` by bench/cpu-profile.bench.mjs: `CONCURRENCY_STEPS` (or the quick plan
// when PROFILE_QUICK=1) as concurrency.bench.mjs takes it; its result goes to PROFILE_OUT.
import fs from 'node:fs';

const out = process.env.PROFILE_OUT;
if (!out) throw new Error('profiled-concurrency-step: PROFILE_OUT is not set');
const concurrency = await import('../concurrency.bench.mjs');
const result = await concurrency.run({
  quick: process.env.PROFILE_QUICK === '1',
  log: (...args) => console.log('     ', ...args),
});
fs.writeFileSync(out, JSON.stringify(result));
