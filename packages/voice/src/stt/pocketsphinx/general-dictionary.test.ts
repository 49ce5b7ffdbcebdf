/**
 * The general decoders' dictionary, made from the installed model files (real engine): only
 * the words the general model can say, the same hearing, made once.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spokenFrames, speechToolsAvailable, TEST_VOICES, type Voice } from '../testing/speech.js';
import { generalDictionary, generalDictionaryPath, keptLines } from './general-dictionary.js';
import { checkModel, DEFAULT_SEARCH, pocketsphinx, pocketsphinxAvailable } from './native.js';

describe('keptLines', () => {
  it('keeps every pronunciation of the words asked for and nothing else', () => {
    const dictionary = 'read R IY D\nread(2) R EH D\nreed R IY D\n\nzebra Z IY B R AH\n';
    expect(keptLines(dictionary, new Set(['read', 'zebra']))).toEqual([
      'read R IY D',
      'read(2) R EH D',
      'zebra Z IY B R AH',
    ]);
  });
});

const ready = pocketsphinxAvailable() && speechToolsAvailable();

// Sentences of our own, outside any assistant's domain: the general model's work.
const LINES = ['the train leaves at seven in the morning', 'my brother plays the piano'];

describe.skipIf(!ready)('generalDictionary (real engine)', () => {
  const api = ready ? pocketsphinx() : (undefined as never);
  const files = ready ? checkModel() : (undefined as never);
  const cacheDir = mkdtempSync(join(tmpdir(), 'general-dict-'));
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('keeps only the words the general model can say, with all their pronunciations', async () => {
    const path = await generalDictionary(api, files, cacheDir);
    expect(path).toBe(generalDictionaryPath(files, cacheDir));
    const words = new Set(await api.lmWordsAsync(files.generalLm));
    expect(words.size).toBeGreaterThan(50_000);
    const installed = readFileSync(files.dictionary, 'utf8').split('\n').filter(Boolean);
    const kept = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const word = (line: string) => (line.split(' ')[0] as string).replace(/\(\d+\)$/, '');
    const unsayable = installed.filter((line) => !words.has(word(line)));
    // Most of what is dropped; every kept line a word of the model, and none of the others.
    expect(unsayable.length).toBeGreaterThan(10_000);
    expect(kept.length).toBe(installed.length - unsayable.length);
    expect(kept.every((line) => words.has(word(line)))).toBe(true);
    expect(kept.filter((line) => line.startsWith('read(')).length).toBeGreaterThan(0);
  });

  it('is made once: asked again, it answers the file already made', async () => {
    const path = await generalDictionary(api, files, cacheDir);
    const made = statSync(path).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await generalDictionary(api, files, cacheDir)).toBe(path);
    expect(statSync(path).mtimeMs).toBe(made);
  });

  it('hears what a decoder with the installed dictionary hears', async () => {
    const path = await generalDictionary(api, files, cacheDir);
    const voice = TEST_VOICES[0] as Voice;
    const heard = (dictionary: string) => {
      const config = api.parseConfig([
        '-hmm',
        files.acousticModel,
        '-dict',
        dictionary,
        '-lm',
        files.generalLm,
      ]);
      expect(config).not.toBeNull();
      const ps = api.init(config as bigint) as bigint;
      expect(ps).not.toBeNull();
      try {
        expect(api.setSearch(ps, DEFAULT_SEARCH)).toBeGreaterThanOrEqual(0);
        return LINES.map((line) => {
          expect(api.startUtt(ps)).toBeGreaterThanOrEqual(0);
          for (const frame of spokenFrames(line, voice)) api.processRaw(ps, frame, false);
          api.endUtt(ps);
          return api.getHyp(ps)?.text ?? '';
        });
      } finally {
        api.free(ps);
        api.freeConfig(config as bigint);
      }
    };
    const withInstalled = heard(files.dictionary);
    expect(withInstalled.every((text) => text.split(' ').length >= 3)).toBe(true);
    expect(heard(path)).toEqual(withInstalled);
  });

  it('answers the installed dictionary when it cannot keep one (the cache folder is a file)', async () => {
    const notAFolder = join(cacheDir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    expect(await generalDictionary(api, files, notAFolder)).toBe(files.dictionary);
  });
});
