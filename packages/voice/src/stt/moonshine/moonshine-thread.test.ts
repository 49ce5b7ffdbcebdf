/**
 * Moonshine on its worker thread: the compiled worker (`npm run build` makes it; the test
 * says so when it is missing), the real model, eSpeak speech of our own sentences.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';
import { MoonshineModel } from './moonshine-model.js';
import { toFloat } from './moonshine-recognizer.js';
import { MoonshineThread } from './moonshine-thread.js';

const WORKER = fileURLToPath(
  new URL('../../../dist/stt/moonshine/moonshine-worker.js', import.meta.url),
);
const built = existsSync(WORKER);
if (!built)
  console.warn(`Skipped: the compiled Moonshine worker is missing (${WORKER}); run npm run build.`);

describe.skipIf(!built || !speechToolsAvailable())('Moonshine on its own thread', () => {
  let thread: MoonshineThread;
  let here: MoonshineModel;
  let speech: Float32Array;
  beforeAll(async () => {
    [thread, here] = await Promise.all([
      MoonshineThread.start({ workerFile: WORKER }),
      MoonshineModel.load(),
    ]);
    const voice = TEST_VOICES[0] ?? { voice: 'en-us', rate: 160 };
    const [frames = []] = await spokenFramesAll([
      { text: 'could someone call me back about my appointment', voice },
    ]);
    speech = toFloat(frames);
  });
  afterAll(async () => {
    await Promise.all([thread.dispose(), here.dispose()]);
  });

  it('reads as the model does on this thread, alternatives included, and leaves the samples', async () => {
    const copy = speech.slice();
    const [there, local] = await Promise.all([
      thread.transcribe(speech, { alternatives: 2 }),
      here.transcribe(speech, { alternatives: 2 }),
    ]);
    expect(there).toEqual(local);
    expect(there.text).toMatch(/appointment/i);
    // The caller's samples were copied to the worker, not moved there.
    expect(speech).toEqual(copy);
  }, 60_000);

  it('fails the readings of a thread that died with the reason, and starts a new one for the next', async () => {
    const reading = thread.transcribe(speech);
    // The worker is private: reach it to kill it, as a crash in the runtime would.
    const worker = await (thread as unknown as { running(): Promise<Worker> }).running();
    await worker.terminate();
    await expect(reading).rejects.toThrow(/Moonshine thread stopped/);
    const next = await thread.transcribe(speech);
    expect(next.text).toMatch(/appointment/i);
  }, 60_000);

  it('says why when the model cannot load, and refuses readings once closed', async () => {
    await expect(
      MoonshineThread.start({ workerFile: WORKER, modelDir: '/nonexistent/moonshine' }),
    ).rejects.toThrow(/could not load on its thread/);
    const closing = await MoonshineThread.start({ workerFile: WORKER });
    await closing.dispose();
    await expect(closing.transcribe(speech)).rejects.toThrow(/closed/);
  }, 60_000);
});
