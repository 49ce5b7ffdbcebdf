import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Build from '../stt/language-model/build.js';
import { PocketsphinxTranscriber } from './pocketsphinx-transcriber.js';

// The real builder, watched: how many builds run at once, and for which vocabularies.
const builds = vi.hoisted(() => ({ running: 0, most: 0, started: [] as string[] }));
vi.mock('../stt/language-model/build.js', async (importOriginal) => {
  const voice = await importOriginal<typeof Build>();
  return {
    ...voice,
    buildDomainModelOffThread: async (
      options: Parameters<typeof voice.buildDomainModelOffThread>[0],
    ) => {
      builds.running += 1;
      builds.most = Math.max(builds.most, builds.running);
      builds.started.push(options.vocabulary.sentences[0] ?? '');
      try {
        // Still under way a moment later, wherever the build runs: from source (as here)
        // the builder's worker file is not there and it builds on this thread.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return await voice.buildDomainModelOffThread(options);
      } finally {
        builds.running -= 1;
      }
    },
  };
});

const VOCABULARY = {
  sentences: ['when does the bakery open', 'do you bake gluten free bread'],
  keywords: ['sourdough'],
};

describe('the pocketsphinx transcriber preparing language models', () => {
  const dirs: string[] = [];
  afterEach(() => {
    builds.most = 0;
    builds.started = [];
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
    const engines = new PocketsphinxTranscriber({ modelCacheDir: cacheDir });
    const build = engines.prepare(VOCABULARY);
    await vi.waitFor(() => expect(builds.running).toBe(1), { interval: 1 });
    await engines.dispose();
    // The build had finished when dispose returned: its model is complete on disk.
    expect(modelFiles(cacheDir)).toHaveLength(1);
    await expect(build).resolves.toBeUndefined();
    // And the folder can go at once (a build still writing made this fail with ENOTEMPTY).
    fs.rmSync(cacheDir, { recursive: true });
    expect(fs.existsSync(cacheDir)).toBe(false);
  });

  it('starts no build once closing, and drops builds still queued', async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-engines-'));
    dirs.push(cacheDir);
    const engines = new PocketsphinxTranscriber({ modelCacheDir: cacheDir });
    const queued = engines.prepare(VOCABULARY);
    await engines.dispose();
    await engines.prepare(VOCABULARY);
    await queued;
    expect(builds.started).toEqual([]);
    expect(modelFiles(cacheDir)).toEqual([]);
  });

  it('builds one vocabulary once and one model at a time, however many assistants are saved', async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-engines-'));
    dirs.push(cacheDir);
    const engines = new PocketsphinxTranscriber({ modelCacheDir: cacheDir });
    const other = { sentences: ['is the ferry running today'], keywords: [] };
    const saved = [VOCABULARY, VOCABULARY, other, VOCABULARY, other];
    await Promise.all(saved.map((vocabulary) => engines.prepare(vocabulary)));
    expect(builds.started).toEqual([VOCABULARY.sentences[0], other.sentences[0]]);
    expect(builds.most).toBe(1);
    expect(modelFiles(cacheDir)).toHaveLength(2);
    await engines.dispose();
  });
});
