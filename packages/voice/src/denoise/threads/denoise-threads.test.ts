/**
 * The denoise threads: the compiled worker (`npm run build` makes it; the test says so when
 * it is missing) against RNNoise on this thread, frame for frame; and the pool's handling of
 * threads that die, with a stand-in worker (speaking the pool's own messages) that really
 * dies.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RnnoiseSuppressor } from '../rnnoise/rnnoise-suppressor.js';
import { DenoiseThreads } from './denoise-threads.js';

const WORKER = fileURLToPath(
  new URL('../../../dist/denoise/threads/denoise-worker.js', import.meta.url),
);
const built = existsSync(WORKER);
if (!built)
  console.warn(`Skipped: the compiled denoise worker is missing (${WORKER}); run npm run build.`);

/** A voice-like tone in seeded noise, different for each call. */
function noisyFrames(seed: number, count: number): Int16Array[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  };
  return Array.from({ length: count }, (_, f) =>
    Int16Array.from({ length: 320 }, (_, i) => {
      const t = (f * 320 + i) / 16_000;
      return Math.round(6000 * Math.sin(2 * Math.PI * (180 + 20 * seed) * t) + 4000 * random());
    }),
  );
}

describe.skipIf(!built)('denoise threads (compiled worker, real RNNoise)', () => {
  it('cleans every call’s frames exactly as RNNoise on this thread does, in order, with calls spread over the threads', async () => {
    const threads = new DenoiseThreads({ size: 2, workerFile: WORKER });
    try {
      const calls = [1, 2, 3].map((seed) => ({
        frames: noisyFrames(seed, 40),
        off: threads.open(),
      }));
      expect(threads.load).toEqual([2, 1]);
      // The calls' frames interleave, as live calls' do.
      const cleaned = calls.map(() => [] as Promise<Int16Array>[]);
      for (let f = 0; f < 40; f++)
        calls.forEach((call, c) => cleaned[c]!.push(call.off.clean(call.frames[f]!)));
      for (const [c, call] of calls.entries()) {
        const here = await RnnoiseSuppressor.create();
        const expected = call.frames.map((frame) => here.process(frame));
        here.dispose();
        const got = await Promise.all(cleaned[c]!);
        expect(got).toEqual(expected);
        // It did clean: RNNoise changes a noisy frame.
        expect(got[20]).not.toEqual(call.frames[20]);
      }
      for (const call of calls) call.off.dispose();
      expect(threads.load).toEqual([0, 0]);
    } finally {
      await threads.close();
    }
  });

  it('refuses a frame of the wrong length, and frames after dispose, saying why', async () => {
    const threads = new DenoiseThreads({ size: 1, workerFile: WORKER });
    try {
      const off = threads.open();
      await expect(off.clean(new Int16Array(160))).rejects.toThrow(/320 samples, got 160/);
      off.dispose();
      await expect(off.clean(new Int16Array(320))).rejects.toThrow(/after dispose/);
    } finally {
      await threads.close();
    }
  });
});

/**
 * A worker that speaks the pool's messages: it "cleans" a frame of a suppressor it was told
 * to make by negating it, and dies on a frame that starts with 7777.
 */
const STAND_IN = `
import { parentPort } from 'node:worker_threads';
if (process.env.STAND_IN_NEVER_STARTS === '1') process.exit(3);
const open = new Set();
parentPort.on('message', (m) => {
  if (m.type === 'close') return parentPort.close();
  for (const id of m.opens) open.add(id);
  const { ids, samples } = m.frames;
  for (let i = 0; i < ids.length; i++) {
    if (samples[i * 320] === 7777) process.exit(9);
    if (!open.has(ids[i])) continue;
    for (let j = i * 320; j < (i + 1) * 320; j++) samples[j] = -samples[j];
  }
  for (const id of m.closes) open.delete(id);
  parentPort.postMessage({ type: 'cleaned', frames: { ids, samples }, failures: [] }, [ids.buffer, samples.buffer]);
});
parentPort.postMessage({ type: 'ready' });
`;

const frame = (first: number) => Int16Array.from({ length: 320 }, (_, i) => (i === 0 ? first : 1));

describe('denoise threads that die (stand-in worker)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'denoise-threads-stand-in-'));
  const workerFile = join(dir, 'worker.mjs');
  writeFileSync(workerFile, STAND_IN);
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives back the frames a dying thread held as they came, and cleans the next on its replacement', async () => {
    const problems: string[] = [];
    const threads = new DenoiseThreads({
      size: 1,
      workerFile,
      onProblem: (message) => problems.push(message),
    });
    try {
      const off = threads.open();
      expect((await off.clean(frame(5)))[0]).toBe(-5);
      // One batch: the thread dies on its second frame; none of the three is lost.
      const held = [off.clean(frame(6)), off.clean(frame(7777)), off.clean(frame(8))];
      expect((await Promise.all(held)).map((f) => f[0])).toEqual([6, 7777, 8]);
      expect(problems).toEqual([expect.stringMatching(/exit code 9\); it is replaced/)]);
      // The replacement made the call's suppressor again: its frames are cleaned.
      expect((await off.clean(frame(9)))[0]).toBe(-9);
      // A call opened after the death is placed and cleaned too.
      const later = threads.open();
      expect((await later.clean(frame(10)))[0]).toBe(-10);
    } finally {
      await threads.close();
    }
  });

  it('keeps the calls on the other thread cleaned when one thread dies', async () => {
    const threads = new DenoiseThreads({ size: 2, workerFile });
    try {
      const first = threads.open();
      const second = threads.open();
      expect(threads.load).toEqual([1, 1]);
      const lost = first.clean(frame(7777));
      const kept = second.clean(frame(4));
      expect((await lost)[0]).toBe(7777);
      expect((await kept)[0]).toBe(-4);
    } finally {
      await threads.close();
    }
  });

  it('passes frames through, saying why, when a thread never starts', async () => {
    vi.stubEnv('STAND_IN_NEVER_STARTS', '1');
    const problems: string[] = [];
    const threads = new DenoiseThreads({
      size: 1,
      workerFile,
      onProblem: (message) => problems.push(message),
    });
    try {
      const off = threads.open();
      // Given while the thread is (re)starting: it comes back, uncleaned, once it gives up.
      const waiting = off.clean(frame(3));
      expect((await waiting)[0]).toBe(3);
      expect(problems.at(-1)).toMatch(/exit code 3\), and could not be started again/);
      expect((await off.clean(frame(2)))[0]).toBe(2);
    } finally {
      vi.unstubAllEnvs();
      await threads.close();
    }
  });
});
