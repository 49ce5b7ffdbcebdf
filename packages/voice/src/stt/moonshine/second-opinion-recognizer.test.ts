/**
 * Pocketsphinx with Moonshine's second opinion, both real, on synthesised speech (eSpeak
 * NG over a quiet noise floor): our own sentences, never the benchmark's lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { vocabularyFor } from '../../assistant/vocabulary.js';
import { demoAssistant } from '../../reply/testing/conversation.js';
import { pocketsphinxAvailable } from '../pocketsphinx/native.js';
import { PocketsphinxRecognizer } from '../pocketsphinx/recognizer.js';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';
import type { SpeechRecognizer } from '../types.js';
import { MoonshineModel } from './moonshine-model.js';
import { MoonshineRecognizer } from './moonshine-recognizer.js';
import { SecondOpinionRecognizer } from './second-opinion-recognizer.js';

async function hear(recognizer: SpeechRecognizer, frames: readonly Int16Array[]) {
  const stream = recognizer.open();
  for (const frame of frames) stream.push(frame);
  return stream.finish();
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
      // …and Moonshine's reading of the same audio is beside it, emergency words and all.
      expect(result.secondOpinion).toEqual([moonshine.text]);
      expect(moonshine.text, moonshine.text).toMatch(/\bcollapsed\b/);
    }, 60_000);

    it('asks Moonshine about a domain reading taken without certainty, never about a sure one', async () => {
      // A scripted primary: what pocketsphinx answers for a reading of each confidence.
      const scripted = (confidence: number): SpeechRecognizer => ({
        provider: 'pocketsphinx',
        open: () => ({
          push: () => undefined,
          partial: () => '',
          finish: () => ({ text: 'my grandmother is kitchen', model: 'domain', confidence }),
          cancel: () => undefined,
        }),
        dispose: () => undefined,
      });
      const moonshine = (await hear(new MoonshineRecognizer({ model }), doubted)).text;
      const taken = await hear(
        new SecondOpinionRecognizer({ primary: scripted(0.67), model: async () => model }),
        doubted,
      );
      expect(taken).toMatchObject({ text: 'my grandmother is kitchen', model: 'domain' });
      expect(taken.secondOpinion).toEqual([moonshine]);
      const sureOne = await hear(
        new SecondOpinionRecognizer({ primary: scripted(1), model: async () => model }),
        doubted,
      );
      expect(sureOne.secondOpinion).toBeUndefined();
    }, 60_000);

    it('starts reading doubted words when the caller pauses, and answers with that reading', async () => {
      const transcribe = vi.spyOn(model, 'transcribe');
      try {
        const recognizer = new SecondOpinionRecognizer({ primary, model: async () => model });
        const quiet = (sure.at(-1) ?? new Int16Array(320)).map(() => 0);
        const moonshine = (await hear(new MoonshineRecognizer({ model }), doubted)).text;
        transcribe.mockClear();

        // Sure words: a pause starts nothing, and neither does the end.
        const calm = recognizer.open();
        for (const frame of sure) calm.push(frame);
        expect(calm.confidenceSoFar?.()).toBeGreaterThanOrEqual(0.8);
        calm.pause?.(100);
        for (let i = 0; i < 10; i++) calm.push(quiet);
        expect((await calm.finish()).secondOpinion).toBeUndefined();
        expect(transcribe).not.toHaveBeenCalled();

        // Doubted words: Moonshine is at work before the turn ends, and only once.
        const stream = recognizer.open();
        for (const frame of doubted) stream.push(frame);
        expect(stream.confidenceSoFar?.()).toBeLessThan(0.8);
        stream.pause?.(100);
        await vi.waitFor(() => expect(transcribe).toHaveBeenCalledTimes(1));
        for (let i = 0; i < 10; i++) stream.push(quiet);
        const result = await stream.finish();
        expect(transcribe).toHaveBeenCalledTimes(1);
        // It read the audio up to the pause, with the quiet a turn ends with (500 ms: the
        // last 100 ms repeated), not the frames pushed after it.
        const samples = doubted.reduce((n, f) => n + f.length, 0);
        expect(transcribe.mock.calls[0]?.[0].length).toBe(samples + 20 * 320);
        expect(result.secondOpinion?.[0], moonshine).toMatch(/\bcollapsed\b/);

        // The caller spoke again after a pause: the latest pause's reading is the one used.
        transcribe.mockClear();
        const half = Math.floor(doubted.length / 2);
        const resumed = recognizer.open();
        for (const frame of doubted.slice(0, half)) resumed.push(frame);
        resumed.pause?.(100);
        for (const frame of doubted.slice(half)) resumed.push(frame);
        resumed.pause?.(100);
        const whole = await resumed.finish();
        expect(transcribe).toHaveBeenCalledTimes(2);
        expect(transcribe.mock.calls[1]?.[0].length).toBe(samples + 20 * 320);
        expect(whole.secondOpinion).toEqual(result.secondOpinion);
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
