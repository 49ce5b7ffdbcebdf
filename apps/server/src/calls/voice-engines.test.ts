import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VoiceEngines } from './voice-engines.js';

const VOCABULARY = {
  sentences: ['when does the bakery open', 'do you bake gluten free bread'],
  keywords: ['sourdough'],
};

describe('voice engines closing', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function modelFiles(cacheDir: string): string[] {
    const root = path.join(cacheDir, 'language-models');
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('meta.json'));
  }

  it('waits for a language-model build under way, so nothing writes to the cache after close', async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-engines-'));
    dirs.push(cacheDir);
    const engines = new VoiceEngines(cacheDir);
    const build = engines.prepare(VOCABULARY);
    await engines.dispose();
    // The build had finished when dispose returned: its model is complete on disk.
    expect(modelFiles(cacheDir)).toHaveLength(1);
    await expect(build).resolves.toBeUndefined();
    // And the folder can go at once (a build still writing made this fail with ENOTEMPTY).
    fs.rmSync(cacheDir, { recursive: true });
    expect(fs.existsSync(cacheDir)).toBe(false);
  });

  it('starts no build once closing', async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-engines-'));
    dirs.push(cacheDir);
    const engines = new VoiceEngines(cacheDir);
    await engines.dispose();
    await engines.prepare(VOCABULARY);
    expect(modelFiles(cacheDir)).toEqual([]);
  });
});
