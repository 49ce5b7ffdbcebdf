/**
 * Moonshine on a pool of worker threads: the compiled worker (`npm run build` makes it; the
 * test says so when it is missing), the real model, eSpeak speech of our own sentences.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';
import { MoonshineModel } from './moonshine-model.js';
import { MoonshinePool } from './moonshine-pool.js';
import { toFloat } from './moonshine-recognizer.js';

const WORKER = fileURLToPath(
  new URL('../../../dist/stt/moonshine/moonshine-worker.js', import.meta.url),
);
const built = existsSync(WORKER);
if (!built)
  console.warn(`Skipped: the compiled Moonshine worker is missing (${WORKER}); run npm run build.`);

/** Waits until `done()` holds, checking every 50 ms, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

describe.skipIf(!built || !speechToolsAvailable())('Moonshine on a pool of threads', () => {
  let speech: Float32Array;
  let expected: string;
  beforeAll(async () => {
    const voice = TEST_VOICES[0] ?? { voice: 'en-us', rate: 160 };
    const [frames = []] = await spokenFramesAll([
      { text: 'could someone call me back about my appointment', voice },
    ]);
    speech = toFloat(frames);
    const here = await MoonshineModel.load();
    expected = (await here.transcribe(speech, { alternatives: 2 })).text;
    await here.dispose();
  }, 60_000);

  describe('of two threads', () => {
    let pool: MoonshinePool;
    beforeAll(async () => {
      pool = await MoonshinePool.start({ size: 2, workerFile: WORKER });
    }, 60_000);
    afterAll(() => pool.dispose());

    it('starts a second thread when turns overlap, and reads on both with the same words', async () => {
      expect(pool.busy).toEqual([0]);
      // Three turns ending together: all wait on the one thread there is.
      const first = [1, 2, 3].map(() => pool.transcribe(speech, { alternatives: 2 }));
      expect(pool.busy).toEqual([3]);
      for (const reading of await Promise.all(first)) expect(reading.text).toBe(expected);
      expect(expected).toMatch(/appointment/i);
      // The overlap started another thread in the background.
      expect(await until(() => pool.busy.length === 2, 30_000)).toBe(true);
      const next = [1, 2].map(() => pool.transcribe(speech, { alternatives: 2 }));
      expect(pool.busy).toEqual([1, 1]);
      for (const reading of await Promise.all(next)) expect(reading.text).toBe(expected);
      expect(pool.busy).toEqual([0, 0]);
    }, 90_000);
  });

  it('never starts more threads than its size', async () => {
    const pool = await MoonshinePool.start({ size: 1, workerFile: WORKER });
    try {
      const readings = [1, 2].map(() => pool.transcribe(speech));
      expect(pool.busy).toEqual([2]);
      await Promise.all(readings);
      // A second thread would have loaded in about a second.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(pool.busy).toEqual([0]);
    } finally {
      await pool.dispose();
    }
  }, 60_000);

  it('lets the readings under way finish when it is closed, then refuses the next', async () => {
    const pool = await MoonshinePool.start({ size: 2, workerFile: WORKER });
    // The second reading starts a thread, which the closing pool stops too.
    const readings = [1, 2].map(() => pool.transcribe(speech));
    await pool.dispose();
    for (const reading of await Promise.all(readings)) expect(reading.text).toBe(expected);
    await expect(pool.transcribe(speech)).rejects.toThrow(/closed/);
  }, 60_000);

  it('says why when the model cannot load', async () => {
    await expect(
      MoonshinePool.start({ workerFile: WORKER, modelDir: '/nonexistent/moonshine' }),
    ).rejects.toThrow(/could not load on its thread/);
  }, 60_000);
});
