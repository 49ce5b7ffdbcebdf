/**
 * The urgent path on real (synthesised) speech: eSpeak voices through the product's
 * recogniser built for the demo clinic, then the local engine, which hears an emergency in
 * any reading of the audio. Our own lines, not the benchmark's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vocabularyFor } from '../../assistant/vocabulary.js';
import { pocketsphinxAvailable } from '../../stt/pocketsphinx/native.js';
import { PocketsphinxRecognizer } from '../../stt/pocketsphinx/recognizer.js';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../../stt/testing/speech.js';
import { Call, demo, demoAnswer, demoAssistant } from '../testing/conversation.js';
import { chosenReading } from '../../session/readings.js';
import { LocalReplyEngine } from './engine.js';

/**
 * Lines that the en-us voice gets through the recogniser. Recall in other voices and on the
 * benchmark's unseen lines is measured by `npm run bench -- --only understanding`: it is
 * limited by the general model mishearing emergency words ("blood" → "blonde").
 */
const EMERGENCIES = [
  'he stopped breathing',
  'she has just collapsed',
  'i think he is having a heart attack',
];

describe.skipIf(!pocketsphinxAvailable() || !speechToolsAvailable())(
  'the urgent path on synthesised speech',
  () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'emergency-speech-'));
    let recognizer: PocketsphinxRecognizer;
    beforeAll(async () => {
      recognizer = await PocketsphinxRecognizer.create({
        vocabulary: vocabularyFor(demoAssistant),
        cacheDir,
      });
    });
    afterAll(() => {
      recognizer.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    });

    /** What the engine answers to the spoken line, and what it took the words to be. */
    async function replyTo(frames: Int16Array[]): Promise<{ heard: string; reply: string }> {
      const stream = recognizer.open();
      for (const frame of frames) stream.push(frame);
      const result = stream.finish();
      const engine = new LocalReplyEngine({ assistant: demoAssistant });
      const heard = await chosenReading(result, engine, []);
      return { heard, reply: await new Call(engine).reply(heard) };
    }

    it('answers emergency lines spoken in en-us with the urgent entry', async () => {
      const voice = TEST_VOICES[0];
      if (voice === undefined) throw new Error('no test voice');
      const items = EMERGENCIES.map((text) => ({ text, voice }));
      const spoken = await spokenFramesAll(items);
      const misses: string[] = [];
      for (const [i, item] of items.entries()) {
        const { heard, reply } = await replyTo(spoken[i] ?? []);
        if (reply !== demoAnswer('emergency'))
          misses.push(`${item.voice.voice}: "${item.text}" heard "${heard}"`);
      }
      expect(misses.join('; ')).toBe('');
    }, 120_000);

    it('raises no alarm on the clinic’s ordinary questions, in every test voice', async () => {
      const questions = demo.knowledgeBase
        .filter((e) => e.urgent !== true)
        .map((e) => (e.questions[0] ?? '').toLowerCase().replace(/[?.]/g, ''));
      const items = TEST_VOICES.flatMap((voice) => questions.map((text) => ({ text, voice })));
      const spoken = await spokenFramesAll(items);
      const alarms: string[] = [];
      for (const [i, item] of items.entries()) {
        const { heard, reply } = await replyTo(spoken[i] ?? []);
        if (reply === demoAnswer('emergency'))
          alarms.push(`${item.voice.voice}: "${item.text}" heard "${heard}"`);
      }
      expect(alarms).toEqual([]);
    }, 180_000);
  },
);
