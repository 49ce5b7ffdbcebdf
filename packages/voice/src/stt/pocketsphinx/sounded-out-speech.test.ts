/**
 * Words the pronunciation dictionary lacks, in an assistant's own knowledge base, heard on
 * real (synthesised) speech: the recogniser sounds them out when it builds the assistant's
 * model. The test voices are eSpeak's, whose letter-to-sound rules also made the guess, so
 * this shows the word reaches the model and the decoder, not how well a human's "toothache"
 * matches the guess; the understanding benchmark's festival voices measure that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pocketsphinxAvailable } from './native.js';
import { PocketsphinxRecognizer } from './recognizer.js';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';

/** A dental practice's knowledge base, with two words CMUdict does not have. */
const VOCABULARY = {
  sentences: [
    'Do you see patients with toothache on the same day?',
    'Yes, call us before ten and we will see a toothache the same day.',
    'Can I pay for treatment in instalments?',
    'You can spread the cost of treatment over twelve monthly instalments.',
    'What time do you open?',
    'We open at eight in the morning, Monday to Friday.',
  ],
  keywords: [],
};

const LINES = [
  { text: 'i have a terrible toothache', word: 'toothache' },
  { text: 'can i pay in instalments', word: 'instalments' },
];

describe.skipIf(!pocketsphinxAvailable() || !speechToolsAvailable())(
  'words the dictionary lacks, sounded out, on synthesised speech',
  () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'sounded-out-'));
    let recognizer: PocketsphinxRecognizer;
    beforeAll(async () => {
      recognizer = await PocketsphinxRecognizer.create({ vocabulary: VOCABULARY, cacheDir });
    });
    afterAll(() => {
      recognizer.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    });

    it('hears "toothache" and "instalments" with the assistant’s model, in every test voice', async () => {
      const items = TEST_VOICES.flatMap((voice) => LINES.map((line) => ({ ...line, voice })));
      const spoken = await spokenFramesAll(items);
      const missed: string[] = [];
      for (const [i, item] of items.entries()) {
        const stream = recognizer.open();
        for (const frame of spoken[i] ?? []) stream.push(frame);
        const result = stream.finish();
        // The domain model's reading: the general model's dictionary has no "toothache",
        // and whether its answer is taken over the domain model's is another matter.
        const domain = result.domainText ?? (result.model === 'domain' ? result.text : '');
        if (!domain.split(' ').includes(item.word))
          missed.push(`${item.voice.voice}: "${item.text}" heard "${domain}"`);
      }
      expect(missed.join('; ')).toBe('');
    }, 120_000);
  },
);
