import { describe, expect, it } from 'vitest';
import {
  checkNormalisation,
  formatArpa,
  logProbability,
  parseArpa,
  trainKneserNey,
} from './arpa.js';

const corpus: [string[], number][] = [
  ['what are your opening hours'.split(' '), 4],
  ['when are you open'.split(' '), 4],
  ['are you open on weekends'.split(' '), 2],
  ['yes'.split(' '), 2],
  ['yes please'.split(' '), 1],
  ['i would like to book an appointment'.split(' '), 3],
  ['i need to cancel my appointment'.split(' '), 1],
];

describe('Kneser-Ney trigram model in ARPA form', () => {
  const model = trainKneserNey(corpus);
  const text = formatArpa(model);

  it('writes a header whose counts match the sections', () => {
    const header = [...text.matchAll(/^ngram (\d)=(\d+)$/gm)].map((m) => Number(m[2]));
    const sections = text.split(/\\\d-grams:\n/).slice(1);
    expect(header).toHaveLength(3);
    sections.forEach((section, i) => {
      const lines = section.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('\\'));
      expect(lines).toHaveLength(header[i] as number);
    });
    expect(text.startsWith('\\data\\\n')).toBe(true);
    expect(text.trimEnd().endsWith('\\end\\')).toBe(true);
  });

  it('round-trips through the parser', () => {
    const parsed = parseArpa(text);
    expect(parsed.ngrams.map((g) => g.size)).toEqual(model.ngrams.map((g) => g.size));
  });

  it('gives every history a distribution that sums to one', () => {
    const check = checkNormalisation(parseArpa(text));
    expect(check.histories).toBeGreaterThan(20);
    expect(check.maxError).toBeLessThan(1e-4);
  });

  it('backs off with the history weights', () => {
    const parsed = parseArpa(text);
    // Unseen trigram "yes are you": bow("yes are")=absent → bigram "are you" is listed.
    const direct = logProbability(parsed, ['yes', 'are'], 'you');
    expect(direct).toBeCloseTo(parsed.ngrams[1]?.get('are you')?.logProb ?? NaN, 6);
    // Unseen bigram "yes hours": bow("yes") + P(hours).
    const backedOff = logProbability(parsed, ['yes'], 'hours');
    const expected =
      (parsed.ngrams[0]?.get('yes')?.backoff ?? NaN) +
      (parsed.ngrams[0]?.get('hours')?.logProb ?? NaN);
    expect(backedOff).toBeCloseTo(expected, 6);
    // A seen trigram is more likely than the same word after an unrelated history.
    expect(logProbability(parsed, ['your', 'opening'], 'hours')).toBeGreaterThan(
      logProbability(parsed, ['my'], 'hours'),
    );
  });

  it('rejects a header that disagrees with the sections', () => {
    expect(() =>
      parseArpa(text.replace(/ngram 2=(\d+)/, (_m, n: string) => `ngram 2=${Number(n) + 1}`)),
    ).toThrow(/header says/);
  });
});
