/** Word error rate, for tests, benchmarks and monitoring. */
import { normalizeText } from './language-model/normalize.js';

export interface WordErrors {
  /** Substitutions + deletions + insertions. */
  errors: number;
  /** Words in the reference. */
  words: number;
}

/** Minimum edit distance between the normalised word sequences of `reference` and `hypothesis`. */
export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = normalizeText(reference).split(' ').filter(Boolean);
  const hyp = normalizeText(hypothesis).split(' ').filter(Boolean);
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
