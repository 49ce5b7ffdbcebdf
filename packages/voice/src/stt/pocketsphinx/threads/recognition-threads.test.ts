/**
 * The recognition threads: the compiled worker (`npm run build` makes it; the test says so
 * when it is missing) with real pocketsphinx on eSpeak speech, against the same recogniser
 * on this thread; and the pool's handling of threads that die, with a stand-in worker
 * (speaking the pool's own messages) that really dies.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDomainModelOffThread } from '../../language-model/build.js';
import { RecognizerLostError } from '../../recognizer-lost.js';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../../testing/speech.js';
import type { DomainVocabulary } from '../../types.js';
import { checkModel, pocketsphinxAvailable } from '../native.js';
import { PocketsphinxRecognizer } from '../recognizer.js';
import { RecognitionThreads } from './recognition-threads.js';

const WORKER = fileURLToPath(
  new URL('../../../../dist/stt/pocketsphinx/threads/recognizer-worker.js', import.meta.url),
);
const built = existsSync(WORKER);
if (!built)
  console.warn(
    `Skipped: the compiled recognition worker is missing (${WORKER}); run npm run build.`,
  );

/** Our own small clinic vocabulary (not the benchmark's lines). */
const VOCABULARY: DomainVocabulary = {
  sentences: [
    'what time do you open on saturday',
    'can i book a visit with the nurse',
    'where do i park my car',
    'i need help right now',
  ],
  keywords: [],
};
const SPOKEN = [
  'what time do you open on saturday',
  'where do i park my car',
  'the weather is lovely in spring',
];

describe.skipIf(!built || !pocketsphinxAvailable() || !speechToolsAvailable())(
  'recognition threads (compiled worker, real pocketsphinx, eSpeak speech)',
  () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'stt-threads-'));
    let threads: RecognitionThreads;
    let here: PocketsphinxRecognizer;
    let audio: Int16Array[][] = [];
    const voices = TEST_VOICES.slice(0, 2);
    beforeAll(async () => {
      await buildDomainModelOffThread({
        vocabulary: VOCABULARY,
        cacheDir,
        dictionaryPath: checkModel().dictionary,
      });
      threads = new RecognitionThreads({ size: 2, workerFile: WORKER });
      [here, audio] = await Promise.all([
        PocketsphinxRecognizer.create({ vocabulary: VOCABULARY, cacheDir }),
        spokenFramesAll(voices.flatMap((voice) => SPOKEN.map((text) => ({ text, voice })))),
      ]);
    }, 120_000);
    afterAll(async () => {
      here?.dispose();
      await threads?.close();
      rmSync(cacheDir, { recursive: true, force: true });
    });

    it('hears every utterance as the same recogniser on this thread does, several at once', async () => {
      const recognizer = await threads.recognizer('clinic', { vocabulary: VOCABULARY, cacheDir });
      const releases = audio.map(() => recognizer.reserve());
      // Every utterance at once, frame by frame in turn, as live calls push them.
      const streams = audio.map(() => recognizer.open());
      const longest = Math.max(...audio.map((frames) => frames.length));
      for (let i = 0; i < longest; i++)
        streams.forEach((stream, n) => {
          const frame = audio[n]?.[i];
          if (frame !== undefined) stream.push(frame);
        });
      const caughtUp = await Promise.all(streams.map((stream) => stream.pause()));
      const threaded = await Promise.all(streams.map((stream) => stream.finish()));
      const expected = audio.map((frames) => {
        const stream = here.open();
        for (const frame of frames) stream.push(frame);
        return stream.finish();
      });
      expect(threaded.map((r) => [r.text, r.model])).toEqual(
        expected.map((r) => [r.text, r.model]),
      );
      // The words so far, once caught up, are what the domain or general model heard.
      caughtUp.forEach((words) => expect(words.length).toBeLessThanOrEqual(1));
      // And they are words, not silence: the knowledge base's own question is heard outright.
      expect(threaded.some((r) => r.text === 'what time do you open on saturday')).toBe(true);
      expect(await recognizer.decoderCount()).toBeGreaterThanOrEqual(audio.length);
      for (const release of releases) release();
      recognizer.dispose();
    }, 60_000);

    it('tells how long a turn’s end waited behind the thread’s backlog, apart from its own finishing', async () => {
      const recognizer = await threads.recognizer('clinic', { vocabulary: VOCABULARY, cacheDir });
      const release = recognizer.reserve();
      const frames = audio[0] ?? [];
      // Every frame sent at once, the end of the turn right after them: it waits on the
      // thread until they are decoded.
      const stream = recognizer.open();
      for (const frame of frames) stream.push(frame);
      const asked = performance.now();
      const result = await stream.finish();
      const waitedMs = performance.now() - asked;
      const { queuedMs = -1, decodingMs = -1 } = result.waits ?? {};
      expect(queuedMs).toBeGreaterThan(0);
      expect(decodingMs).toBeGreaterThanOrEqual(0);
      // The two parts are the wait seen from here (up to the promise's settling, a moment
      // before this test goes on), split where the thread began finishing.
      expect(queuedMs + decodingMs).toBeLessThanOrEqual(waitedMs);
      expect(queuedMs + decodingMs).toBeGreaterThanOrEqual(waitedMs - 5);
      release();
      recognizer.dispose();
    }, 60_000);

    it('hears a caller still speaking the same when another caller’s turn ends on the same thread', async () => {
      // One thread, so both utterances share it.
      const single = new RecognitionThreads({ size: 1, workerFile: WORKER });
      try {
        const recognizer = await single.recognizer('clinic', { vocabulary: VOCABULARY, cacheDir });
        const releases = [recognizer.reserve(), recognizer.reserve()];
        const ending = audio[0] ?? [];
        const speaking = audio.slice(1).reduce((a, b) => (b.length > a.length ? b : a), []);
        // Past its warm-up (50 frames), so its frames are decoded as they come until then.
        const split = 60;
        expect(speaking.length).toBeGreaterThan(split + 10);
        const a = recognizer.open();
        const b = recognizer.open();
        for (const frame of ending) a.push(frame);
        for (const frame of speaking.slice(0, split)) b.push(frame);
        await Promise.all([a.pause(), b.pause()]);
        expect(b.confidenceSoFar()).toBeTypeOf('number');
        // The caller of `a` stops; the caller of `b` speaks on in the same turn of the loop.
        const ended = a.finish();
        for (const frame of speaking.slice(split)) b.push(frame);
        const first = await ended;
        // The held frames are decoded by the caller's pause, and the words are the same as
        // the recogniser on this thread hears in one go.
        const soFar = await b.pause();
        expect(soFar.length).toBe(1);
        expect(b.confidenceSoFar()).toBeTypeOf('number');
        const second = await b.finish();
        const reference = (frames: Int16Array[]) => {
          const stream = here.open();
          for (const frame of frames) stream.push(frame);
          return stream.finish();
        };
        expect([first.text, second.text]).toEqual([
          reference(ending).text,
          reference(speaking).text,
        ]);
        for (const release of releases) release();
        recognizer.dispose();
      } finally {
        await single.close();
      }
    }, 60_000);
  },
);

/**
 * A worker that speaks the pool's messages: it "hears" how many frames it was given, and
 * counts the messages it was sent.
 */
const STAND_IN = `
import { existsSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
const failStartMarker = process.env.STAND_IN_FAIL_FIRST_START;
if (process.env.STAND_IN_NEVER_STARTS === '1') process.exit(3);
if (failStartMarker && !existsSync(failStartMarker)) {
  writeFileSync(failStartMarker, 'failed once');
  process.exit(4);
}
const frames = new Map();
/** Streams given a frame starting 7777: still catching up, their pauses go unanswered. */
const catchingUp = new Set();
let received = 0;
parentPort.on('message', (message) => {
  received += 1;
  for (const m of message.type === 'batch' ? message.messages : [message]) receive(m);
});
function receive(m) {
  if (m.type === 'recognizer') parentPort.postMessage({ type: 'made', key: m.key, ok: true, decoderInitMs: 1, hasDomain: true });
  else if (m.type === 'open') frames.set(m.stream, 0);
  else if (m.type === 'push') {
    if (m.frame[0] === 9999) process.exit(9);
    if (m.frame[0] === 7777) catchingUp.add(m.stream);
    frames.set(m.stream, frames.get(m.stream) + 1);
  } else if (m.type === 'sync' && !catchingUp.has(m.stream)) parentPort.postMessage({ type: 'state', stream: m.stream, partial: 'heard ' + frames.get(m.stream), confidence: 1, request: m.request });
  else if (m.type === 'finish') {
    parentPort.postMessage({ type: 'result', stream: m.stream, ok: true, result: { text: 'heard ' + frames.get(m.stream), model: 'domain', confidence: 1, finishMs: 0, generalFrames: 0 } });
    frames.delete(m.stream);
  // Its "decoders" are the messages it was sent (a batch is one).
  } else if (m.type === 'count') parentPort.postMessage({ type: 'count', request: m.request, decoders: received });
  else if (m.type === 'close') parentPort.close();
}
parentPort.postMessage({ type: 'ready' });
`;

const frame = (first: number) => Int16Array.from({ length: 320 }, (_, i) => (i === 0 ? first : 1));

describe('recognition threads that die (stand-in worker)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stt-threads-stand-in-'));
  const workerFile = join(dir, 'worker.mjs');
  writeFileSync(workerFile, STAND_IN);
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `test` with a pool of `size` stand-in threads, closed after it. */
  async function withThreads(size: number, test: (threads: RecognitionThreads) => Promise<void>) {
    const threads = new RecognitionThreads({ size, workerFile });
    try {
      await test(threads);
    } finally {
      await threads.close();
    }
  }

  it('fails the utterance the thread was decoding with the reason, and replaces the thread for the next', async () => {
    await withThreads(1, async (threads) => {
      const recognizer = await threads.recognizer('k', { cacheDir: dir });
      const release = recognizer.reserve();
      const dying = recognizer.open();
      dying.push(frame(1));
      dying.push(frame(9999));
      const lost = dying.finish();
      await expect(lost).rejects.toBeInstanceOf(RecognizerLostError);
      await expect(lost).rejects.toThrow(/exit code 9/);
      // The replacement has the recogniser and the call's reservation: the call's next
      // utterance (or another call's) is heard.
      const next = recognizer.open();
      for (let i = 0; i < 3; i++) next.push(frame(1));
      expect(await next.pause()).toEqual(['heard 3']);
      expect(next.partial()).toBe('heard 3');
      expect(next.confidenceSoFar()).toBe(1);
      expect((await next.finish()).text).toBe('heard 3');
      release();
    });
  });

  it('settles a pause the thread had not answered when the turn’s words come', async () => {
    await withThreads(1, async (threads) => {
      const recognizer = await threads.recognizer('k', { cacheDir: dir });
      const release = recognizer.reserve();
      const stream = recognizer.open();
      stream.push(frame(7777));
      stream.push(frame(1));
      let paused: string[] | undefined;
      const pause = stream.pause().then((words) => {
        paused = words;
      });
      // The thread answers the turn's end before the pause it was still catching up to.
      expect((await stream.finish()).text).toBe('heard 2');
      await pause;
      expect(paused).toEqual([]);
      release();
    });
  });

  it('sends what one turn of the event loop said to a thread in one message, in order', async () => {
    await withThreads(1, async (threads) => {
      const recognizer = await threads.recognizer('k', { cacheDir: dir });
      const first = recognizer.open();
      const second = recognizer.open();
      // Two calls' frames in one turn, then a sync: one message, decoded in order.
      for (let i = 0; i < 3; i++) {
        first.push(frame(1));
        second.push(frame(1));
      }
      second.push(frame(1));
      const [heardFirst, heardSecond] = await Promise.all([first.pause(), second.pause()]);
      expect(heardFirst).toEqual(['heard 3']);
      expect(heardSecond).toEqual(['heard 4']);
      // The stand-in answers a count with the messages it was sent: the recogniser; the two
      // opens, seven frames and two syncs together; the count itself (one message each, it
      // was 13).
      expect(await recognizer.decoderCount()).toBe(3);
      expect((await first.finish()).text).toBe('heard 3');
      expect((await second.finish()).text).toBe('heard 4');
    });
  });

  it('keeps the utterances on the other thread going when one thread dies', async () => {
    await withThreads(2, async (threads) => {
      const recognizer = await threads.recognizer('k', { cacheDir: dir });
      const first = recognizer.open();
      const second = recognizer.open();
      // Two open utterances are spread over the two threads.
      first.push(frame(1));
      second.push(frame(1));
      first.push(frame(9999));
      second.push(frame(1));
      await expect(first.finish()).rejects.toBeInstanceOf(RecognizerLostError);
      expect((await second.finish()).text).toBe('heard 2');
    });
  });

  it('loses nothing sent while a thread is still starting, even when that start fails', async () => {
    vi.stubEnv('STAND_IN_FAIL_FIRST_START', join(dir, 'failed-once'));
    const threads = new RecognitionThreads({ size: 1, workerFile });
    try {
      // Asked before the thread is up: the first thread dies before it is, and the
      // replacement gets the recogniser, the utterance and its frames, in order.
      const making = threads.recognizer('k', { cacheDir: dir });
      const recognizer = await making;
      const stream = recognizer.open();
      for (let i = 0; i < 5; i++) stream.push(frame(1));
      expect((await stream.finish()).text).toBe('heard 5');
      expect(existsSync(join(dir, 'failed-once'))).toBe(true);
    } finally {
      vi.unstubAllEnvs();
      await threads.close();
    }
  });

  it('gives up on a thread that never starts, saying why', async () => {
    vi.stubEnv('STAND_IN_NEVER_STARTS', '1');
    const threads = new RecognitionThreads({ size: 1, workerFile });
    try {
      await expect(threads.recognizer('k', { cacheDir: dir })).rejects.toThrow(
        /exit code 3\), and could not be started again/,
      );
    } finally {
      vi.unstubAllEnvs();
      await threads.close();
    }
  });
});
