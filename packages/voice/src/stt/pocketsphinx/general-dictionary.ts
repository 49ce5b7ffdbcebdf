/**
 * The general decoders' dictionary: the installed one (134 000 words) less the words the
 * general language model never says (it knows about 72 500). A decoder's search only ever
 * holds words of both, so it hears exactly the same; the words it could never say only
 * cost memory and time: a general decoder of the pool takes 49 MB and 0.28 s to make with
 * this dictionary, 61 MB and 0.36 s with the installed one (measured on this machine).
 *
 * Made once per pair of model files and kept in the cache folder, named for the files'
 * paths, sizes and times; written whole (a temporary file renamed), so a reader never sees
 * half of one. When it cannot be made (the model cannot be read, the folder is read-only)
 * the decoders use the installed dictionary, which only costs the memory.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headword } from '../language-model/dictionary.js';
import type { ModelFiles, PocketsphinxApi } from './native.js';

/** Bumped when what is kept changes, so older files are not reused. */
const VERSION = 1;

/** Where the dictionary for these model files is kept. */
export function generalDictionaryPath(files: ModelFiles, cacheDir: string): string {
  const hash = createHash('sha256').update(String(VERSION));
  for (const file of [files.dictionary, files.generalLm]) {
    const stat = statSync(file);
    hash.update(`\u0000${file}\u0000${stat.size}\u0000${stat.mtimeMs}`);
  }
  return join(cacheDir, `general-${hash.digest('hex').slice(0, 16)}.dict`);
}

/**
 * The installed dictionary's lines for the words in `words`, variants included, as they
 * are and in their order (not `formatDictionary`, which sorts and renumbers: the decoders'
 * word ids, and so their ties, would differ from the installed dictionary's).
 */
export function keptLines(dictionary: string, words: ReadonlySet<string>): string[] {
  return dictionary.split('\n').filter((line) => line.trim() !== '' && words.has(headword(line)));
}

/**
 * The dictionary the general decoders load: made (off the event loop, reading the model's
 * words) if it is not in `cacheDir` yet; the installed one if it cannot be.
 */
export async function generalDictionary(
  api: PocketsphinxApi,
  files: ModelFiles,
  cacheDir: string,
): Promise<string> {
  try {
    const path = generalDictionaryPath(files, cacheDir);
    if (existsSync(path)) return path;
    const words = await api.lmWordsAsync(files.generalLm);
    if (words === null || words.length === 0) return files.dictionary;
    const lines = keptLines(readFileSync(files.dictionary, 'utf8'), new Set(words));
    if (lines.length === 0) return files.dictionary;
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(partial, `${lines.join('\n')}\n`);
    renameSync(partial, path);
    return path;
  } catch {
    return files.dictionary;
  }
}
