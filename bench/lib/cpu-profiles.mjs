// V8 CPU profiles (`node --cpu-prof`, one .cpuprofile per thread): where a frame's code
// lives, busy time by function within a time window, and what each thread of the server is
// for. Used by bench/cpu-profile.bench.mjs and bench/lib/cpu-profile-summary.mjs.
import fs from 'node:fs';
import path from 'node:path';

/** Where a frame's code lives: a package, a file of ours, the runtime, or WebAssembly. */
export function place(frame) {
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

export function functionName(node) {
  const { functionName: name, url, lineNumber } = node.callFrame;
  return `${name || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
}

/**
 * A profile's busy time (µs), in all and by function, of the samples taken within `window`
 * ({ startedUs, endedUs } on the profile's clock, CLOCK_MONOTONIC). A sample's time is the
 * gap to the next one; idle samples do not count.
 */
export function busyTime(profile, window) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map();
  let busyUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (at < window.startedUs || at >= window.endedUs) return;
    const node = byId.get(id);
    if (node.callFrame.functionName === '(idle)') return;
    busyUs += dt;
    const fn = functionName(node);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
  });
  return { busyUs, byFunction };
}

/**
 * What a thread of the server does, from the worker script its profile ran (each pool's
 * worker has a file of its own; eSpeak's is evaluated from source) or, for thread 0, the
 * event loop.
 */
const ROLES = [
  ['recognizer-worker.js', 'speech recognition (pocketsphinx)'],
  ['denoise-worker.js', 'denoising (RNNoise)'],
  ['moonshine-worker.js', 'second opinion (Moonshine)'],
  ['sentence-encoder-worker.js', 'sentence encoder (reply engine)'],
  ['build-worker.js', 'language model build'],
  ['[worker eval]', 'speech synthesis (eSpeak NG)'],
];

export function threadRole(profile, threadIndex) {
  if (threadIndex === 0) return 'event loop (main thread)';
  const ran = (file) =>
    profile.nodes.some(({ callFrame: { url } }) => url === file || url.endsWith(`/${file}`));
  return ROLES.find(([file]) => ran(file))?.[1] ?? 'other thread';
}

/**
 * The profiles `node --cpu-prof --cpu-prof-dir=dir` wrote for process `pid`, with the
 * thread index from their names (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile).
 */
export function profilesOf(dir, pid) {
  return fs
    .readdirSync(dir)
    .map((name) => ({ name, parts: name.split('.') }))
    .filter(({ parts }) => parts[0] === 'CPU' && Number(parts[3]) === pid)
    .map(({ name, parts }) => ({
      thread: Number(parts[4]),
      profile: JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')),
    }));
}

/** The `n` largest entries of a Map, largest first. */
export function largest(map, n) {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/**
 * A thread's runs of non-idle samples (what an event-loop stall is made of), longest first,
 * within `window` ({ startedUs, endedUs } on the profile's clock; the whole profile when
 * absent). Each has its start (µs on the profile's clock), its length (µs), and its time by
 * task (`byTask`, µs each): a sample counts for the outermost of the project's own
 * functions on its stack (the callback that was running: a turn's reading choice, a
 * frame's push), or, with none, for the garbage collector or for Node's and the packages'
 * own work.
 */
export function busyStretches(profile, window = undefined) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const task = new Map();
  const taskOf = (id) => {
    let found = task.get(id);
    if (found !== undefined) return found;
    let outermost;
    for (let n = id; n !== undefined; n = parent.get(n))
      if (isOwnCode(byId.get(n))) outermost = byId.get(n);
    const self = byId.get(id).callFrame.functionName;
    found =
      outermost !== undefined
        ? functionName(outermost)
        : self === '(garbage collector)'
          ? self
          : "(Node's and packages' own work)";
    task.set(id, found);
    return found;
  };
  const idle = (id) => byId.get(id).callFrame.functionName === '(idle)';
  const inside = (at) => window === undefined || (at >= window.startedUs && at < window.endedUs);
  const runs = [];
  let run = null;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    // A sample's time is the gap to the next one.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (!inside(at) || idle(id)) {
      run = null;
      return;
    }
    if (run === null) runs.push((run = { startUs: at, us: 0, byTask: new Map() }));
    run.us += dt;
    const name = taskOf(id);
    run.byTask.set(name, (run.byTask.get(name) ?? 0) + dt);
  });
  return runs.sort((a, b) => b.us - a.us);
}

/** Whether a frame is the project's own code (not a package's, Node's or the engine's). */
function isOwnCode(node) {
  const where = place(node);
  return where.endsWith('.js') && !where.startsWith('node:');
}
