/**
 * Pocketsphinx with Moonshine's second opinion, both real, on synthesised speech (eSpeak
 * NG over a quiet noise floor): our own sentences, never the benchmark's lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { vocabularyFor } from '../../assistant/vocabulary.js';
import { demoAssistant } from '../../reply/testing/conversation.js';
import { pocketsphinxAvailable } from '../pocketsphinx/native.js';
import { PocketsphinxRecognizer } from '../pocketsphinx/recognizer.js';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';
import type { RecognitionResult, SpeechRecognizer } from '../types.js';
import { MoonshineModel } from './moonshine-model.js';
import { MoonshineRecognizer } from './moonshine-recognizer.js';
import { SecondOpinionRecognizer } from './second-opinion-recognizer.js';
import { normalizeText } from '../language-model/normalize.js';

async function hear(recognizer: SpeechRecognizer, frames: readonly Int16Array[]) {
  const stream = recognizer.open();
  for (const frame of frames) stream.push(frame);
  return stream.finish();
}

/**
 * A scripted stand-in for pocketsphinx: whatever it is sent, it finishes with `result`,
 * with `partial` so far and, when given, `confidenceSoFar` as its doubt at the pause.
 */
function scriptedPrimary(
  // Pocketsphinx's results also say how sure its domain model was.
  result: RecognitionResult & { confidence?: number },
  soFar: { partial?: string; confidenceSoFar?: number } = {},
): SpeechRecognizer {
  const { partial = '', confidenceSoFar } = soFar;
  return {
    provider: 'pocketsphinx',
    open: () => ({
      push: () => undefined,
      partial: () => partial,
      ...(confidenceSoFar === undefined ? {} : { confidenceSoFar: () => confidenceSoFar }),
      finish: () => result,
      cancel: () => undefined,
    }),
    dispose: () => undefined,
  };
}

describe.skipIf(!speechToolsAvailable() || !pocketsphinxAvailable())(
  'pocketsphinx with Moonshine’s second opinion on what it doubts',
  () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'second-opinion-'));
    let model: MoonshineModel;
    let primary: PocketsphinxRecognizer;
    const voice = TEST_VOICES[0] ?? { voice: 'en-us', rate: 160 };
    // The demo clinic's own wording (its domain model is sure of it), and a caller's own
    // words about someone in trouble, which no entry uses.
    const own = (demoAssistant.model?.knowledge?.[0]?.questions[0] ?? '')
      .toLowerCase()
      .replace(/\?/, '');
    const trouble = 'my grandmother collapsed in the kitchen this morning';
    let sure: Int16Array[];
    let doubted: Int16Array[];
    beforeAll(async () => {
      model = await MoonshineModel.load();
      primary = await PocketsphinxRecognizer.create({
        vocabulary: vocabularyFor(demoAssistant),
        cacheDir,
      });
      [sure = [], doubted = []] = await spokenFramesAll([
        { text: own, voice },
        { text: trouble, voice },
      ]);
    });
    /** The doubted turn read once, whole, at its end: the emergency heard, nothing to recheck. */
    function expectReadWholeAtEnd(
      transcribe: MockInstance<MoonshineModel['transcribe']>,
      result: RecognitionResult,
    ) {
      expect(transcribe).toHaveBeenCalledTimes(1);
      expect(transcribe.mock.calls[0]?.[0].length).toBe(doubted.reduce((n, f) => n + f.length, 0));
      expect(result.secondOpinion?.[0]).toMatch(/\bcollapsed\b/);
      expect(result.recheck).toBeUndefined();
    }
    afterAll(async () => {
      primary.dispose();
      await model.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    });

    it('leaves a reading the domain model is sure of alone, without running Moonshine', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
        const result = await hear(recognizer, sure);
        const alone = await hear(primary, sure);
        expect(result.text).toBe(alone.text);
        expect(result.hypotheses).toEqual(alone.hypotheses);
        expect(result.model).toBe('domain');
        expect(result.secondOpinion).toBeUndefined();
        expect(transcribe).not.toHaveBeenCalled();
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('adds what Moonshine heard beside a doubted reading, whose words stay the answer', async () => {
      const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
      const result = await hear(recognizer, doubted);
      const alone = await hear(primary, doubted);
      const moonshine = await hear(new MoonshineRecognizer({ model }), doubted);
      expect(alone.model).toBe('general');
      // The answer is pocketsphinx's, as without the second opinion…
      expect(result).toMatchObject({ text: alone.text, model: 'general' });
      // …and Moonshine's reading of the same audio is beside it, emergency words and all,
      // first of its readings: the others are where it nearly heard something else.
      const opinion = result.secondOpinion ?? [];
      expect(opinion[0]).toBe(moonshine.text);
      expect(moonshine.text, moonshine.text).toMatch(/\bcollapsed\b/);
      expect(opinion.length).toBeLessThanOrEqual(3);
      expect(new Set(opinion).size).toBe(opinion.length);
    }, 60_000);

    it('asks Moonshine about a domain reading taken without certainty, never about a sure one', async () => {
      // A scripted primary: what pocketsphinx answers for a reading of each confidence.
      const scripted = (confidence: number) =>
        scriptedPrimary({ text: 'my grandmother is kitchen', model: 'domain', confidence });
      const moonshine = (await hear(new MoonshineRecognizer({ model }), doubted)).text;
      const taken = await hear(
        new SecondOpinionRecognizer({ primary: scripted(0.67), model: async () => model }),
        doubted,
      );
      expect(taken).toMatchObject({ text: 'my grandmother is kitchen', model: 'domain' });
      expect(taken.secondOpinion?.[0]).toBe(moonshine);
      const sureOne = await hear(
        new SecondOpinionRecognizer({ primary: scripted(1), model: async () => model }),
        doubted,
      );
      expect(sureOne.secondOpinion).toBeUndefined();
    }, 60_000);

    it('reads a doubted turn at the caller’s pause, and the whole turn again for the emergency check', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
        const quiet = (sure.at(-1) ?? new Int16Array(320)).map(() => 0);
        const samples = doubted.reduce((n, f) => n + f.length, 0);
        const stream = recognizer.open();
        for (const frame of doubted) stream.push(frame);
        // The primary's doubt shows while the caller speaks…
        expect(stream.confidenceSoFar?.()).toBeLessThan(0.8);
        const primarySoFar = stream.partial();
        const expected = stream.pause?.(100);
        // …so Moonshine starts reading at once: the audio so far, given the quiet a turn
        // ends with (500 ms, the last 100 ms of it repeated).
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(1));
        const early = transcribe.mock.results[0]?.value as Promise<{ text: string }>;
        expect(transcribe.mock.calls[0]?.[0].length).toBe(samples + 20 * 320);
        for (let i = 0; i < 10; i++) stream.push(quiet);
        const result = await stream.finish();
        // The turn is answered from the reading begun at the pause…
        expect(result.secondOpinion?.[0]).toBe(normalizeText((await early).text));
        expect(result.secondOpinion?.[0]).toMatch(/\bcollapsed\b/);
        // The pause told the session which readings to expect, the primary's so far first,
        // so their meaning could be readied before the turn ended: every reading of
        // Moonshine's that the turn got among them.
        const readied = (await expected) ?? [];
        expect(primarySoFar).not.toBe('');
        expect(readied[0]).toBe(primarySoFar);
        for (const reading of result.secondOpinion ?? []) expect(readied).toContain(reading);
        // …and the whole turn, its quiet included, is read again after, for an emergency
        // the early reading missed; it adds only readings not heard before.
        expect(transcribe).toHaveBeenCalledTimes(2);
        expect(transcribe.mock.calls[1]?.[0].length).toBe(samples + 10 * 320);
        // No answer waits for that reading: other calls' readings may go first.
        expect(transcribe.mock.calls[0]?.[1]?.urgency ?? 'now').toBe('now');
        expect(transcribe.mock.calls[1]?.[1]?.urgency).toBe('later');
        const late = await (result.recheck ?? Promise.reject(new Error('no recheck')));
        const whole = normalizeText(
          (await (transcribe.mock.results[1]?.value as Promise<{ text: string }>)).text,
        );
        const before = [
          result.text,
          ...(result.alternatives ?? []),
          ...(result.secondOpinion ?? []),
        ];
        expect(before.includes(whole) || late[0] === whole).toBe(true);
        for (const reading of late) expect(before).not.toContain(reading);
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('asks each of its readings to favour the assistant’s words', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const bias = ['Where is the pharmacy?', 'Can I renew my prescription?'];
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model, bias });
        const quiet = (sure.at(-1) ?? new Int16Array(320)).map(() => 0);
        const stream = recognizer.open();
        for (const frame of doubted) stream.push(frame);
        void stream.pause?.(100);
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(1));
        for (let i = 0; i < 10; i++) stream.push(quiet);
        const result = await stream.finish();
        await result.recheck;
        // The reading begun at the pause and the whole turn's, read again after.
        expect(transcribe).toHaveBeenCalledTimes(2);
        for (const [, options] of transcribe.mock.calls) expect(options?.bias).toEqual(bias);
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('drops the pause’s reading once the caller speaks on, and answers from the next pause’s', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
        const quiet = (sure.at(-1) ?? new Int16Array(320)).map(() => 0);
        const half = Math.floor(doubted.length / 2);
        const stream = recognizer.open();
        for (const frame of doubted.slice(0, half)) stream.push(frame);
        stream.pause?.(100);
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(1));
        const first = transcribe.mock.calls[0]?.[1]?.signal;
        const stale = transcribe.mock.results[0]?.value as Promise<unknown>;
        // The caller goes on speaking, and pauses again: the first reading is of no use now.
        for (const frame of doubted.slice(half)) stream.push(frame);
        expect(first?.aborted).toBe(false);
        stream.pause?.(100);
        expect(first?.aborted).toBe(true);
        await expect(stale).rejects.toThrow(/abort/i);
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(2));
        const samples = doubted.reduce((n, f) => n + f.length, 0);
        expect(transcribe.mock.calls[1]?.[0].length).toBe(samples + 20 * 320);
        const latest = transcribe.mock.results[1]?.value as Promise<{ text: string }>;
        for (let i = 0; i < 10; i++) stream.push(quiet);
        const result = await stream.finish();
        expect(result.secondOpinion?.[0]).toBe(normalizeText((await latest).text));
        expect(result.secondOpinion?.[0]).toMatch(/\bcollapsed\b/);
        await result.recheck;
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('begins the pause’s reading once a primary that was behind catches up, with the quiet that came meanwhile', async () => {
      // A primary a few frames behind, as on a busy recognition thread: it answers the
      // pause only once it has decoded them, while the turn's quiet goes on arriving.
      let caughtUp: (words: string[]) => void = () => undefined;
      const heardSoFar = 'my grandmother is kitchen';
      const behind: SpeechRecognizer = {
        provider: 'pocketsphinx',
        open: () => ({
          push: () => undefined,
          partial: () => heardSoFar,
          confidenceSoFar: () => 0,
          pause: () =>
            new Promise<string[]>((resolve) => {
              caughtUp = resolve;
            }),
          finish: () => ({ text: heardSoFar, model: 'general' }),
          cancel: () => undefined,
        }),
        dispose: () => undefined,
      };
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const quiet = (sure.at(-1) ?? new Int16Array(320)).map(() => 0);
        const samples = doubted.reduce((n, f) => n + f.length, 0);
        const stream = new SecondOpinionRecognizer({
          primary: behind,
          model: async () => model,
        }).open();
        for (const frame of doubted) stream.push(frame);
        const expected = stream.pause?.(100);
        for (let i = 0; i < 5; i++) stream.push(quiet);
        expect(transcribe).not.toHaveBeenCalled();
        caughtUp([heardSoFar]);
        // Five frames of quiet came since the pause, not more speech: the reading begins,
        // of the audio so far padded to the quiet a turn ends with (500 ms in all).
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(1));
        expect(transcribe.mock.calls[0]?.[0].length).toBe(samples + 20 * 320);
        const early = transcribe.mock.results[0]?.value as Promise<{ text: string }>;
        for (let i = 0; i < 15; i++) stream.push(quiet);
        const result = await stream.finish();
        // The turn is answered from it, and it was among the readings the pause announced.
        expect(result.secondOpinion?.[0]).toBe(normalizeText((await early).text));
        expect(result.secondOpinion?.[0]).toMatch(/\bcollapsed\b/);
        expect(await expected).toContain(result.secondOpinion?.[0]);
        await result.recheck;
        expect(transcribe).toHaveBeenCalledTimes(2);
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('reads a turn the primary doubted so far beside its last decoding when no pause began a reading', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      /**
       * A doubted turn that ended while the primary was still decoding: settles once
       * Moonshine has begun reading it, with the turn's answer to come, and `done` and
       * `fail` to give the primary's result or error.
       */
      const endWhileDecoding = async () => {
        let done: (result: RecognitionResult & { confidence?: number }) => void = () => undefined;
        let fail: (error: Error) => void = () => undefined;
        const primary: SpeechRecognizer = {
          provider: 'pocketsphinx',
          open: () => ({
            push: () => undefined,
            partial: () => '',
            confidenceSoFar: () => 0.5,
            finish: () =>
              new Promise<RecognitionResult>((resolve, reject) => {
                done = resolve;
                fail = reject;
              }),
            cancel: () => undefined,
          }),
          dispose: () => undefined,
        };
        const stream = new SecondOpinionRecognizer({ primary, model: async () => model }).open();
        for (const frame of doubted) stream.push(frame);
        const answer = stream.finish();
        // Moonshine reads before the primary has answered.
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(1));
        return {
          answer,
          done: (result: RecognitionResult & { confidence?: number }) => done(result),
          fail: (error: Error) => fail(error),
        };
      };
      try {
        // Doubted in the end: the turn is answered with that reading beside it.
        const doubting = await endWhileDecoding();
        doubting.done({ text: 'my grandmother is kitchen', model: 'general' });
        expectReadWholeAtEnd(transcribe, await doubting.answer);

        // Sure in the end after all: the reading is dropped, and the turn keeps its words.
        transcribe.mockClear();
        const sureAfterAll = await endWhileDecoding();
        const reading = transcribe.mock.results[0]?.value as Promise<unknown>;
        sureAfterAll.done({ text: 'where is the pharmacy', model: 'domain', confidence: 1 });
        const result = await sureAfterAll.answer;
        expect(result.text).toBe('where is the pharmacy');
        expect(result.secondOpinion).toBeUndefined();
        expect(transcribe.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
        await expect(reading).rejects.toThrow(/abort/i);

        // The primary failed: its error is the turn's, and nobody waits for the reading.
        transcribe.mockClear();
        const failing = await endWhileDecoding();
        failing.fail(new Error('recognition thread exited'));
        await expect(failing.answer).rejects.toThrow('recognition thread exited');
        expect(transcribe.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('reads a doubted turn whole at its end when the caller never paused, with nothing to recheck', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
        expectReadWholeAtEnd(transcribe, await hear(recognizer, doubted));
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('begins no reading at the pause of words the domain model is sure of', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
        const stream = recognizer.open();
        for (const frame of sure) stream.push(frame);
        expect(stream.confidenceSoFar?.()).toBeGreaterThanOrEqual(0.8);
        const expected = stream.pause?.(100);
        const result = await stream.finish();
        expect(result.model).toBe('domain');
        // The words the pause said to expect are the ones the turn got.
        expect(await expected).toEqual([result.text]);
        expect(result.secondOpinion).toBeUndefined();
        expect(result.recheck).toBeUndefined();
        expect(transcribe).not.toHaveBeenCalled();
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('reads the whole turn at its end when the words were sure at the pause but doubted at the end', async () => {
      // A scripted primary: sure of the words at the pause, not at the end.
      const scripted = scriptedPrimary(
        { text: 'my grandmother is kitchen', model: 'general' },
        { confidenceSoFar: 1 },
      );
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const stream = new SecondOpinionRecognizer({
          primary: scripted,
          model: async () => model,
        }).open();
        for (const frame of doubted) stream.push(frame);
        stream.pause?.(100);
        expectReadWholeAtEnd(transcribe, await stream.finish());
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('asks Moonshine about a short reply to "Do you mean …?" even when the domain model is sure of it', async () => {
      // A scripted primary, sure of whatever it heard ("i would" was pocketsphinx's sure
      // reading of "both" after such a question).
      const sureOf = (text: string) =>
        scriptedPrimary(
          { text, model: 'domain', confidence: 1 },
          { partial: text, confidenceSoFar: 1 },
        );
      const question = 'Do you mean, where are we located, or what are our opening hours?';
      const heard = async (primary: SpeechRecognizer, options?: { question: string }) => {
        const stream = new SecondOpinionRecognizer({ primary, model: async () => model }).open(
          options,
        );
        for (const frame of doubted) stream.push(frame);
        const expected = await stream.pause?.(100);
        return { expected, result: await stream.finish() };
      };
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const short = await heard(sureOf('i would'), { question });
        // Begun at the pause, where that reading answers the turn; read again once answered.
        expect(short.result.secondOpinion?.[0]).toMatch(/\bcollapsed\b/);
        expect(short.expected).toEqual(['i would', ...(short.result.secondOpinion ?? [])]);
        await short.result.recheck;
        expect(transcribe).toHaveBeenCalledTimes(2);
        transcribe.mockClear();
        // The same sure words with no choice asked of the caller, and a longer reply to it.
        await heard(sureOf('i would'));
        await heard(sureOf('i would like to cancel it'), { question });
        expect(transcribe).not.toHaveBeenCalled();
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('passes on every reading Moonshine took or nearly took, each once, one pocketsphinx gave too included', async () => {
      const scripted = scriptedPrimary({ text: 'i have chest do you', model: 'general' });
      const asked: (number | undefined)[] = [];
      const transcribe = vi.spyOn(model, 'transcribe').mockImplementation(async (_s, options) => {
        asked.push(options?.alternatives);
        return {
          text: 'I am cast vain.',
          tokens: 5,
          truncated: false,
          alternatives: ['I am chest pain.', 'I am cast vain!', 'I have chest do you'],
        };
      });
      try {
        const result = await hear(
          new SecondOpinionRecognizer({ primary: scripted, model: async () => model }),
          doubted,
        );
        expect(asked).toEqual([2]);
        // "i have chest do you" is pocketsphinx's reading too: that both heard it is evidence.
        expect(result.secondOpinion).toEqual([
          'i am cast vain',
          'i am chest pain',
          'i have chest do you',
        ]);
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('answers from Moonshine’s reading where pocketsphinx, its general model off, was unsure', async () => {
      const domainOnly = await PocketsphinxRecognizer.create({
        vocabulary: vocabularyFor(demoAssistant),
        cacheDir,
        generalFallback: 'off',
      });
      try {
        const alone = await hear(domainOnly, doubted);
        // The domain model's words for a sentence it has never seen, below its bar.
        expect(alone).toMatchObject({ model: 'domain', unsure: true });
        const result = await hear(
          new SecondOpinionRecognizer({ primary: domainOnly, model: async () => model }),
          doubted,
        );
        const moonshine = await hear(new MoonshineRecognizer({ model }), doubted);
        expect(result).toMatchObject({ text: moonshine.text, model: 'neural' });
        expect(result.text).toMatch(/\bcollapsed\b/);
        expect(result.unsure).toBeUndefined();
        // The domain model's N-best list is still there for the emergency check, and no
        // reading is passed on twice.
        expect(result.hypotheses).toEqual(alone.hypotheses);
        expect(result.secondOpinion ?? []).not.toContain(result.text);
        // A sure reading of the same recogniser is left alone.
        const own = await hear(
          new SecondOpinionRecognizer({ primary: domainOnly, model: async () => model }),
          sure,
        );
        expect(own).toMatchObject({ text: (await hear(domainOnly, sure)).text, model: 'domain' });
        expect(own.unsure).toBeUndefined();
      } finally {
        domainOnly.dispose();
      }
    }, 60_000);

    it('keeps an unsure domain reading beside Moonshine’s only when it is more than word salad', async () => {
      const unsure = (confidence: number) =>
        scriptedPrimary({
          text: 'my grandmother is kitchen',
          model: 'domain',
          confidence,
          unsure: true,
          hypotheses: ['my grandmother is chicken'],
        });
      const transcribe = vi.spyOn(model, 'transcribe').mockResolvedValue({
        text: 'My grandmother collapsed.',
        tokens: 4,
        truncated: false,
        alternatives: ['My grandmother collapse.'],
      });
      try {
        const kept = await hear(
          new SecondOpinionRecognizer({ primary: unsure(0.5), model: async () => model }),
          doubted,
        );
        expect(kept).toEqual({
          text: 'my grandmother collapsed',
          model: 'neural',
          confidence: 0.5,
          alternatives: ['my grandmother is kitchen'],
          hypotheses: ['my grandmother is chicken'],
          secondOpinion: ['my grandmother collapse'],
          waits: { secondOpinionMs: expect.any(Number) },
        });
        const dropped = await hear(
          new SecondOpinionRecognizer({ primary: unsure(0.2), model: async () => model }),
          doubted,
        );
        expect(dropped.alternatives).toBeUndefined();
        expect(dropped.text).toBe('my grandmother collapsed');
        // Without Moonshine, the domain reading is all there is: it stands.
        const alone = await hear(
          new SecondOpinionRecognizer({
            primary: unsure(0.5),
            model: () => Promise.reject(new Error('model files missing')),
          }),
          doubted,
        );
        expect(alone).toMatchObject({ text: 'my grandmother is kitchen', model: 'domain' });
      } finally {
        transcribe.mockRestore();
      }
    }, 60_000);

    it('keeps the turn when Moonshine cannot be loaded, and drops a cancelled utterance', async () => {
      const broken = new SecondOpinionRecognizer({
        primary,
        model: () => Promise.reject(new Error('model files missing')),
      });
      const result = await hear(broken, doubted);
      expect(result.text).toBe((await hear(primary, doubted)).text);
      expect(result.secondOpinion).toBeUndefined();

      const stream = new SecondOpinionRecognizer({ primary, model: async () => model }).open();
      stream.push(doubted[0] ?? new Int16Array(320));
      stream.cancel();
      // The pair went back to the pool: the next utterance is heard as before.
      expect((await hear(primary, sure)).model).toBe('domain');
    }, 60_000);
  },
);

describe('the second opinion’s share of the wait for a turn', () => {
  /** A second recogniser that takes `ms` to read anything (a busy thread), then hears `text`. */
  const slowReader = (ms: number, text: string) => ({
    transcribe: vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { text, tokens: text.split(' ').length, truncated: false };
    }),
    dispose: async () => undefined,
  });
  const frames = Array.from({ length: 50 }, () => new Int16Array(320));

  it('tells how long the turn waited for the second reading once the first’s result was in, beside the first’s own waits', async () => {
    const reader = slowReader(120, 'i have a bad cough');
    const recognizer = new SecondOpinionRecognizer({
      primary: scriptedPrimary({
        text: 'i have a bad cow',
        model: 'general',
        waits: { queuedMs: 12.5, decodingMs: 30 },
      }),
      model: async () => reader,
    });
    const result = await hear(recognizer, frames);
    expect(result.secondOpinion).toEqual(['i have a bad cough']);
    expect(result.waits?.queuedMs).toBe(12.5);
    expect(result.waits?.decodingMs).toBe(30);
    // The reading began at the turn's end (no pause began one) and took 120 ms.
    expect(result.waits?.secondOpinionMs).toBeGreaterThanOrEqual(110);
    expect(result.waits?.secondOpinionMs).toBeLessThan(5_000);
  });

  it('adds no second-opinion wait to a turn it did not read', async () => {
    const reader = slowReader(120, 'anything');
    const sure = { text: 'what time do you open', model: 'domain' as const, confidence: 1 };
    const result = await hear(
      new SecondOpinionRecognizer({ primary: scriptedPrimary(sure), model: async () => reader }),
      frames,
    );
    expect(reader.transcribe).not.toHaveBeenCalled();
    expect(result.waits).toBeUndefined();
  });
});
