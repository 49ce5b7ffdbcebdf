/**
 * Moonshine on several threads: which thread a reading goes to, warm-up, a thread that
 * dies or cannot load, with stand-in workers that really run (and really die) on threads;
 * then the real model on two threads (the compiled worker, `npm run build`; the test says
 * so when it is missing).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointmentQuestion,
  MOONSHINE_WORKER,
  moonshineWorkerBuilt,
} from '../testing/moonshine.js';
import { speechToolsAvailable } from '../testing/speech.js';
import { MoonshineModel } from './moonshine-model.js';
import { MoonshineThreads } from './moonshine-threads.js';

/**
 * A worker in place of the model's: it answers each reading 30 ms later with its thread's
 * id and how many readings it has had; a reading of a single sample ends the thread as a
 * crash would (exit code 7); with `workerData.fail` it cannot load.
 */
const STAND_IN = `
import { parentPort, threadId, workerData } from 'node:worker_threads';
if (workerData?.modelDir === '/cannot/load') {
  parentPort.postMessage({ id: 0, ok: false, message: 'no model here' });
  parentPort.close();
} else {
  let readings = 0;
  parentPort.on('message', (request) => {
    if ('close' in request) return parentPort.close();
    if ('cancel' in request) return;
    if (request.samples.length === 1) process.exit(7);
    readings++;
    const text = 'thread ' + threadId + ' reading ' + readings;
    setTimeout(() => parentPort.postMessage({
      id: request.id, ok: true, transcript: { text, tokens: 1, truncated: false },
    }), 30);
  });
  parentPort.postMessage({ id: 0, ok: true });
}
`;

describe('Moonshine threads (stand-in workers on real threads)', () => {
  let dir: string;
  let workerFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'moonshine-threads-'));
    workerFile = join(dir, 'worker.mjs');
    writeFileSync(workerFile, STAND_IN);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const speech = new Float32Array(160);
  const thread = (text: string) => text.split(' ')[1];

  it('gives a reading to the thread with the fewest an answer waits for, a recheck to the least busy', async () => {
    const pool = await MoonshineThreads.start({ size: 2, workerFile });
    try {
      const [a, b] = pool.threads;
      if (!a || !b) throw new Error('two threads expected');
      const first = pool.transcribe(speech); // both idle: the first thread
      const recheck = pool.transcribe(speech, { urgency: 'later' }); // fewest at all: the second
      const second = pool.transcribe(speech); // fewest answers waiting: the second
      expect(a.waiting).toEqual({ all: 1, now: 1 });
      expect(b.waiting).toEqual({ all: 2, now: 1 });
      const texts = (await Promise.all([first, recheck, second])).map((t) => t.text);
      expect(thread(texts[1] as string)).toBe(thread(texts[2] as string));
      expect(thread(texts[0] as string)).not.toBe(thread(texts[1] as string));
      expect(a.waiting).toEqual({ all: 0, now: 0 });
      expect(b.waiting).toEqual({ all: 0, now: 0 });
      // Four readings at once: two on each thread.
      const four = await Promise.all([1, 2, 3, 4].map(() => pool.transcribe(speech)));
      const perThread = new Map<string, number>();
      for (const { text } of four)
        perThread.set(thread(text) as string, (perThread.get(thread(text) as string) ?? 0) + 1);
      expect([...perThread.values()]).toEqual([2, 2]);
    } finally {
      await pool.dispose();
    }
  });

  it('warms every thread up before handing it out', async () => {
    const pool = await MoonshineThreads.start({ size: 2, workerFile, warmUp: speech });
    try {
      const texts = await Promise.all([pool.transcribe(speech), pool.transcribe(speech)]);
      // Each thread's first reading after the start is its second: the warm-up was its first.
      expect(texts.map((t) => t.text.split(' ')[3])).toEqual(['2', '2']);
      expect(new Set(texts.map((t) => thread(t.text))).size).toBe(2);
    } finally {
      await pool.dispose();
    }
  });

  it('fails the readings of a thread that died with the reason, and reads on (that thread restarted)', async () => {
    const pool = await MoonshineThreads.start({ size: 2, workerFile });
    try {
      const dying = pool.transcribe(new Float32Array(1));
      const other = pool.transcribe(speech);
      await expect(dying).rejects.toThrow(/Moonshine thread stopped \(exit code 7\)/);
      const survivor = thread((await other).text);
      expect((await other).text).toMatch(/^thread \d+ reading 1$/);
      // Both idle again: the first reading goes to the first thread, a new worker (its
      // first reading), the second to the one that lived on (its second).
      const after = await Promise.all([pool.transcribe(speech), pool.transcribe(speech)]);
      const [restarted, lived] = after.map((t) => t.text);
      expect(restarted).toMatch(/^thread \d+ reading 1$/);
      expect(thread(restarted as string)).not.toBe(survivor);
      expect(lived).toBe(`thread ${survivor} reading 2`);
    } finally {
      await pool.dispose();
    }
  });

  it('says why when its threads cannot load or warm up, and refuses readings once closed', async () => {
    await expect(
      MoonshineThreads.start({ size: 2, workerFile, modelDir: '/cannot/load' }),
    ).rejects.toThrow(/could not load on its thread: no model here/);
    // A warm-up reading that ends its thread fails the start with the thread's reason.
    await expect(
      MoonshineThreads.start({ size: 2, workerFile, warmUp: new Float32Array(1) }),
    ).rejects.toThrow(/Moonshine thread stopped \(exit code 7\)/);
    const pool = await MoonshineThreads.start({ size: 1, workerFile });
    await pool.dispose();
    await expect(pool.transcribe(speech)).rejects.toThrow(/closed/);
  });
});

const built = moonshineWorkerBuilt();

describe.skipIf(!built || !speechToolsAvailable())('Moonshine on two threads (real model)', () => {
  let pool: MoonshineThreads;
  let here: MoonshineModel;
  let speech: Float32Array;
  beforeAll(async () => {
    [pool, here] = await Promise.all([
      MoonshineThreads.start({ size: 2, workerFile: MOONSHINE_WORKER }),
      MoonshineModel.load(),
    ]);
    speech = await appointmentQuestion();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([pool.dispose(), here.dispose()]);
  });

  it('reads two turns at once, one on each thread, as the model does on this thread', async () => {
    const local = await here.transcribe(speech, { alternatives: 2 });
    const both = [
      pool.transcribe(speech, { alternatives: 2 }),
      pool.transcribe(speech, { alternatives: 2 }),
    ];
    expect(pool.threads.map((t) => t.waiting.now)).toEqual([1, 1]);
    for (const there of await Promise.all(both)) expect(there).toEqual(local);
    expect(local.text).toMatch(/appointment/i);
  }, 60_000);
});
