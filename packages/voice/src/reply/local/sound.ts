/**
 * How alike two readings of the same speech sound: the edit distance between their
 * phones, each word spelled as the recogniser's dictionary says it (one letter per phone,
 * see {@link Lexicon.sounds}). Two recognisers that mishear the same words mishear them
 * differently in spelling ("i am cast vain", "i have chest pain") but alike in sound.
 */
import type { Lexicon } from '../../language/lexicon.js';
import { editDistance } from './text.js';

/**
 * The phones of a normalised reading, words run together. A word the dictionary lacks (a
 * spelling only a recogniser that writes letters makes, "chast") keeps its letters: it then
 * matches nothing exactly, and costs about its length.
 */
export function soundsOf(text: string, lexicon: Lexicon): string {
  return text
    .split(' ')
    .filter((w) => w !== '')
    .map((w) => lexicon.sounds(w) ?? w)
    .join('');
}

/**
 * The readings (indices into `candidates`) that sound most like `reading`: all those at
 * the smallest distance in phones.
 */
export function closestInSound(
  reading: string,
  candidates: readonly string[],
  lexicon: Lexicon,
): number[] {
  const heard = soundsOf(reading, lexicon);
  const distances = candidates.map((c) => editDistance(heard, soundsOf(c, lexicon)));
  const least = Math.min(...distances);
  return distances.flatMap((d, i) => (d === least ? [i] : []));
}
