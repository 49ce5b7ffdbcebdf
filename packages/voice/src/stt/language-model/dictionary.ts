/**
 * The pronunciation dictionary (CMUdict format, as pocketsphinx reads it): one
 * `word PH ON ES` per line, alternative pronunciations as `word(2) …`.
 */
import { readFileSync } from 'node:fs';

export type PronunciationDictionary = ReadonlyMap<string, readonly string[]>;

/** A dictionary line's word, without its variant number (`read(2)` is `read`). */
export function headword(line: string): string {
  const trimmed = line.trimStart();
  const end = trimmed.search(/\s/);
  return (end < 0 ? trimmed : trimmed.slice(0, end)).replace(/\(\d+\)$/, '');
}

/** Parses dictionary text into word → pronunciations (the first is the main one). */
export function parseDictionary(text: string): Map<string, string[]> {
  const dict = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith(';;;')) continue;
    const space = trimmed.search(/\s/);
    if (space <= 0) continue;
    const word = headword(trimmed);
    const phones = trimmed.slice(space).trim().replace(/\s+/g, ' ');
    if (phones === '') continue;
    const list = dict.get(word);
    if (list) list.push(phones);
    else dict.set(word, [phones]);
  }
  return dict;
}

export function readDictionary(path: string): Map<string, string[]> {
  return parseDictionary(readFileSync(path, 'utf8'));
}

/** Writes the entries for `words` (all their pronunciations) in dictionary format. */
export function formatDictionary(
  dict: PronunciationDictionary,
  wordList: Iterable<string>,
): string {
  const lines: string[] = [];
  for (const word of [...new Set(wordList)].sort()) {
    const prons = dict.get(word);
    if (!prons) continue;
    prons.forEach((p, i) => lines.push(i === 0 ? `${word} ${p}` : `${word}(${i + 1}) ${p}`));
  }
  return lines.join('\n') + '\n';
}
