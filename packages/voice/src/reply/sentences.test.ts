import { describe, expect, it } from 'vitest';
import { SentenceChunker, sentencesOf, speakable, splitSentences } from './sentences.js';

/** Feeds the text in pieces of `size` characters and collects the sentences. */
function chunked(text: string, size: number): string[] {
  const chunker = new SentenceChunker();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...chunker.push(text.slice(i, i + size)));
  return [...out, ...chunker.flush()];
}

describe('SentenceChunker', () => {
  it('gives each sentence as soon as it is complete', () => {
    const chunker = new SentenceChunker();
    expect(chunker.push('Hello there')).toEqual([]);
    // The period could still be "3.5" or "Dr.": wait for what follows.
    expect(chunker.push('.')).toEqual([]);
    expect(chunker.push(' How')).toEqual(['Hello there.']);
    expect(chunker.push(' are you? I am')).toEqual(['How are you?']);
    expect(chunker.push(' fine!')).toEqual([]);
    expect(chunker.flush()).toEqual(['I am fine!']);
    expect(chunker.flush()).toEqual([]);
  });

  it('splits the same wherever the deltas are cut', () => {
    const text =
      'Dr. Smith sees patients at 3.5 hours past noon, e.g. on Fridays. Is that OK? Yes! "Great." Bye';
    const expected = [
      'Dr. Smith sees patients at 3.5 hours past noon, e.g. on Fridays.',
      'Is that OK?',
      'Yes!',
      '"Great."',
      'Bye',
    ];
    for (const size of [1, 2, 3, 7, 1000]) expect(chunked(text, size)).toEqual(expected);
  });

  it('does not split at abbreviations, initials, decimals or list numbers', () => {
    expect(
      splitSentences('Call Mrs. Jones at 5.30 today. Then J. R. Smith, i.e. the nurse.'),
    ).toEqual(['Call Mrs. Jones at 5.30 today.', 'Then J. R. Smith, i.e. the nurse.']);
    expect(splitSentences('1. Bring your card.\n2. Arrive early.')).toEqual([
      'Bring your card.',
      'Arrive early.',
    ]);
    expect(splitSentences('Wait... what?! Really.')).toEqual(['Wait...', 'what?!', 'Really.']);
  });

  it('cuts a very long clause at a comma after about twenty words', () => {
    const long =
      'We are open from eight in the morning to six in the evening on every single weekday of the week, and on Saturday mornings from nine to one.';
    const out = splitSentences(long);
    expect(out).toEqual([
      'We are open from eight in the morning to six in the evening on every single weekday of the week,',
      'and on Saturday mornings from nine to one.',
    ]);
    // A short clause keeps its comma.
    expect(splitSentences('Yes, there is parking, and it is free.')).toEqual([
      'Yes, there is parking, and it is free.',
    ]);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const cut = splitSentences(words);
    expect(cut).toHaveLength(2);
    expect(cut[0]?.split(' ')).toHaveLength(50);
  });

  it('splits at line breaks and makes markdown speakable', () => {
    expect(
      splitSentences('## Hours\n- **Monday** to Friday\n- See [the site](https://x.example)'),
    ).toEqual(['Hours', 'Monday to Friday', 'See the site']);
    expect(speakable('  `code` and *stars*  ')).toBe('code and stars');
    expect(new SentenceChunker({ clean: false }).flush()).toEqual([]);
    const raw = new SentenceChunker({ clean: false });
    expect([...raw.push('**Hi** there. '), ...raw.flush()]).toEqual(['**Hi** there.']);
  });

  it('streams sentences from async deltas', async () => {
    async function* deltas() {
      yield 'One. Tw';
      yield 'o. Three';
    }
    const out: string[] = [];
    for await (const s of sentencesOf(deltas())) out.push(s);
    expect(out).toEqual(['One.', 'Two.', 'Three']);
  });
});
