/**
 * Moonshine on its worker thread: the compiled worker (`npm run build` makes it; the test
 * says so when it is missing), the real model, eSpeak speech of our own sentences; and the
 * thread's handling of a worker that dies, with a stand-in worker that really dies.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointmentQuestion,
  MOONSHINE_WORKER,
  moonshineWorkerBuilt,
} from '../testing/moonshine.js';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';
import { MoonshineModel } from './moonshine-model.js';
import { toFloat } from './moonshine-recognizer.js';
import { MoonshineThread } from './moonshine-thread.js';

const built = moonshineWorkerBuilt();

describe.skipIf(!built || !speechToolsAvailable())('Moonshine on its own thread', () => {
  let thread: MoonshineThread;
  let here: MoonshineModel;
  let speech: Float32Array;
  beforeAll(async () => {
    [thread, here] = await Promise.all([
      MoonshineThread.start({ workerFile: MOONSHINE_WORKER }),
      MoonshineModel.load(),
    ]);
    speech = await appointmentQuestion();
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

  it('favours the words it is given there as here (the word bias crosses to the worker)', async () => {
    // A line of our own for our own optician, whose knowledge base says "glasses": eSpeak
    // en-us at 160 wpm says the line so that Moonshine alone hears "… instead of classes".
    const voice = TEST_VOICES[0] ?? { voice: 'en-us', rate: 160 };
    const [frames = []] = await spokenFramesAll([
      { text: 'i want to try lenses instead of glasses', voice },
    ]);
    const said = toFloat(frames);
    const own = JSON.parse(
      readFileSync(new URL('../../reply/testing/own-lines.json', import.meta.url), 'utf8'),
    ) as { optician: { knowledgeBase: { questions: string[]; answer: string }[] } };
    const bias = own.optician.knowledgeBase.flatMap((e) => [...e.questions, e.answer]);
    const [plain, there, local] = await Promise.all([
      here.transcribe(said),
      thread.transcribe(said, { bias }),
      here.transcribe(said, { bias }),
    ]);
    expect(there).toEqual(local);
    expect(there.text).toMatch(/glasses/i);
    expect(plain.text).not.toMatch(/glasses/i);
  }, 60_000);

  it('reads one at a time: the readings answers wait for first, in order, then the others', async () => {
    const done: string[] = [];
    const ask = (name: string, urgency?: 'now' | 'later') =>
      thread.transcribe(speech, urgency ? { urgency } : {}).then((transcript) => {
        done.push(name);
        return transcript;
      });
    // The first starts at once; the rest wait, and a recheck asked before two answers'
    // readings goes after them.
    const readings = [ask('first'), ask('recheck', 'later'), ask('second'), ask('third', 'now')];
    for (const { text } of await Promise.all(readings)) expect(text).toMatch(/appointment/i);
    expect(done).toEqual(['first', 'second', 'third', 'recheck']);
  }, 60_000);

  it('drops a reading no longer wanted, waiting or under way, and reads on', async () => {
    const waiting = new AbortController();
    const underWay = new AbortController();
    const first = thread.transcribe(speech, { signal: underWay.signal });
    const second = thread.transcribe(speech, { signal: waiting.signal });
    const third = thread.transcribe(speech);
    const order: string[] = [];
    void second.catch(() => order.push('second dropped'));
    void third.then(() => order.push('third read'));
    waiting.abort();
    await expect(second).rejects.toThrow(/abort/i);
    underWay.abort();
    await expect(first).rejects.toThrow(/abort/i);
    expect((await third).text).toMatch(/appointment/i);
    expect(order).toEqual(['second dropped', 'third read']);
    // A reading dropped before it was asked is never sent.
    await expect(thread.transcribe(speech, { signal: AbortSignal.abort() })).rejects.toThrow(
      /abort/i,
    );
    expect((await thread.transcribe(speech)).text).toMatch(/appointment/i);
  }, 60_000);

  it('stops the model’s own reading between two steps when its signal aborts', async () => {
    const stop = new AbortController();
    const reading = here.transcribe(speech, { signal: stop.signal });
    stop.abort(new Error('not wanted any more'));
    await expect(reading).rejects.toThrow('not wanted any more');
    await expect(here.transcribe(speech, { signal: AbortSignal.abort() })).rejects.toThrow(
      /abort/i,
    );
  }, 60_000);

  it('lets the readings under way finish when it is closed, then refuses the next', async () => {
    // Stopping the thread mid-reading would abort the whole process (see CLOSE_GRACE_MS).
    const closing = await MoonshineThread.start({ workerFile: MOONSHINE_WORKER });
    const reading = closing.transcribe(speech);
    await closing.dispose();
    expect((await reading).text).toMatch(/appointment/i);
    await expect(closing.transcribe(speech)).rejects.toThrow(/closed/);
  }, 60_000);

  it('says why when the model cannot load, and refuses readings once closed', async () => {
    await expect(
      MoonshineThread.start({ workerFile: MOONSHINE_WORKER, modelDir: '/nonexistent/moonshine' }),
    ).rejects.toThrow(/could not load on its thread/);
    const closing = await MoonshineThread.start({ workerFile: MOONSHINE_WORKER });
    await closing.dispose();
    await expect(closing.transcribe(speech)).rejects.toThrow(/closed/);
  }, 60_000);
});

/**
 * A worker in place of the model's that answers at once, and dies as a crash would end
 * it (its thread exits with code 7) on a reading of a single sample.
 */
const STAND_IN = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (request) => {
  if ('close' in request) return parentPort.close();
  if (request.samples.length === 1) process.exit(7);
  parentPort.postMessage({
    id: request.id,
    ok: true,
    transcript: { text: 'stand-in', tokens: 1, truncated: false },
  });
});
parentPort.postMessage({ id: 0, ok: true });
`;

describe('a Moonshine thread whose worker dies', () => {
  it('fails the readings the worker had with the reason, and starts a new one for the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moonshine-stand-in-'));
    const workerFile = join(dir, 'worker.mjs');
    writeFileSync(workerFile, STAND_IN);
    const thread = await MoonshineThread.start({ workerFile });
    try {
      const answered = thread.transcribe(new Float32Array(160));
      const dying = thread.transcribe(new Float32Array(1));
      expect((await answered).text).toBe('stand-in');
      await expect(dying).rejects.toThrow(/Moonshine thread stopped \(exit code 7\)/);
      expect((await thread.transcribe(new Float32Array(160))).text).toBe('stand-in');
    } finally {
      await thread.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
