/**
 * How callers ask for the same things in other words, for the domain language model: each
 * short sentence of the assistant again with one content word replaced by a word of related
 * meaning (WordNet synonyms and derived forms from the lexicon) or another form of it
 * ("where can i park" → "where can i parking", "where can i leave"…), and the built-in
 * emergency phrases in a few carriers, so the decoder can hear what the reply engine
 * understands. Nothing here comes from any test line: only the assistant's own sentences
 * and general language resources.
 */
import { EMERGENCY_PHRASES, spokenPhrase } from '../../language/emergency-phrases.js';
import type { Lexicon } from '../../language/lexicon.js';
import { STOP_WORDS } from '../../language/stop-words.js';

/** Sentences longer than this (answers read out) get no variants. */
const MAX_VARIANT_WORDS = 10;
/** Related words tried per content word. */
const RELATED_PER_WORD = 4;
/** Weakest relation used for a variant. */
const MIN_RELATION = 0.6;

/** Carriers for the emergency phrases: general ways to say that something is happening. */
const EMERGENCY_CARRIERS = [
  'X',
  'i have X',
  'i am X',
  'i think X',
  'it is X',
  'there is X',
  'he is X',
  'she is X',
  'someone is X',
  'someone X',
  'someone has X',
  'he has X',
  'she has X',
  'my X',
  'help X',
];

/** Words to put in place of `word`: other forms of it, then related words, best first. */
export function alternativesFor(word: string, lexicon: Lexicon): string[] {
  const lemma = lexicon.lemma(word);
  const ranked = [...lexicon.relatedWithLemma(word)]
    .filter(([other, strength]) => strength >= MIN_RELATION && !STOP_WORDS.has(other))
    .sort((a, b) => b[1] - a[1])
    .slice(0, RELATED_PER_WORD)
    .map(([other]) => other);
  const forms = lexicon.forms(lemma).filter((f) => f !== word);
  return [...new Set([...forms, ...ranked])];
}

/** The sentence again with one content word replaced, for each word and alternative. */
export function relatedVariants(sentence: string, lexicon: Lexicon): string[] {
  const words = sentence.split(' ');
  if (words.length > MAX_VARIANT_WORDS) return [];
  const out: string[] = [];
  words.forEach((word, i) => {
    if (STOP_WORDS.has(word) || !lexicon.has(word)) return;
    for (const other of alternativesFor(word, lexicon)) {
      out.push([...words.slice(0, i), other, ...words.slice(i + 1)].join(' '));
    }
  });
  return out;
}

/** The emergency phrases in their carriers (without the matcher's "as written" marks). */
export function emergencySentences(): string[] {
  return EMERGENCY_PHRASES.flatMap((phrase) =>
    EMERGENCY_CARRIERS.map((carrier) => carrier.replace('X', spokenPhrase(phrase))),
  );
}
