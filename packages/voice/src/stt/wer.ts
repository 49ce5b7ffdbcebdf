/** Word error rate, for tests, benchmarks and monitoring. */
import { normalizeText } from './language-model/normalize.js';

export interface WordErrors {
  /** Substitutions + deletions + insertions. */
  errors: number;
  /** Words in the reference. */
  words: number;
}

/**
 * Standard English contractions and their long forms. Scoring treats both as the same
 * words (as NIST's scoring does with its GLM): the recogniser's dictionary spells "i'm",
 * a transcript may say "i am", and neither is a mistake.
 */
const CONTRACTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    "i'm": 'i am',
    "i've": 'i have',
    "i'll": 'i will',
    "i'd": 'i would',
    "you're": 'you are',
    "you've": 'you have',
    "you'll": 'you will',
    "we're": 'we are',
    "we've": 'we have',
    "they're": 'they are',
    "they've": 'they have',
    "it's": 'it is',
    "that's": 'that is',
    "there's": 'there is',
    "what's": 'what is',
    "where's": 'where is',
    "he's": 'he is',
    "she's": 'she is',
    "let's": 'let us',
    "don't": 'do not',
    "doesn't": 'does not',
    "didn't": 'did not',
    "can't": 'can not',
    cannot: 'can not',
    "won't": 'will not',
    "wouldn't": 'would not',
    "couldn't": 'could not',
    "shouldn't": 'should not',
    "isn't": 'is not',
    "aren't": 'are not',
    "wasn't": 'was not',
    "weren't": 'were not',
    "haven't": 'have not',
    "hasn't": 'has not',
    "hadn't": 'had not',
  }),
);

/** A text's words for scoring: normalised, contractions in their long form. */
function scoringWords(text: string): string[] {
  return normalizeText(text)
    .split(' ')
    .filter(Boolean)
    .flatMap((w) => (CONTRACTIONS.get(w) ?? w).split(' '));
}

/** Minimum edit distance between the normalised word sequences of `reference` and `hypothesis`. */
export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = scoringWords(reference);
  const hyp = scoringWords(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const sub = (prev[j - 1] as number) + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      cur.push(Math.min(sub, (prev[j] as number) + 1, (cur[j - 1] as number) + 1));
    }
    prev = cur;
  }
  return { errors: prev[hyp.length] as number, words: ref.length };
}

/** WER of one pair (errors / reference words; 0 for two empty texts). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const e = wordErrors(reference, hypothesis);
  return e.words === 0 ? (e.errors === 0 ? 0 : 1) : e.errors / e.words;
}

/** Pooled WER over pairs: total errors / total reference words. */
export function corpusWordErrorRate(
  pairs: Iterable<readonly [reference: string, hypothesis: string]>,
): number {
  let errors = 0;
  let total = 0;
  for (const [r, h] of pairs) {
    const e = wordErrors(r, h);
    errors += e.errors;
    total += e.words;
  }
  return total === 0 ? 0 : errors / total;
}
