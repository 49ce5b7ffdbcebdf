/**
 * Text normalisation for the local reply engine. The caller's words come from an offline
 * recogniser (lower case, no punctuation, sometimes a wrong or missing word), so everything
 * here is forgiving: contractions are expanded, punctuation dropped, words reduced to a
 * light stem. Other words for the same thing ("physician", "medication") are not folded
 * here by a list: the knowledge base finds them through the lexicon (WordNet and word
 * embeddings), for any business's words.
 */

const CONTRACTIONS: ReadonlyArray<[RegExp, string]> = [
  [/\bcan't\b/g, 'can not'],
  [/\bcannot\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bshan't\b/g, 'shall not'],
  [/\b(\w+)n't\b/g, '$1 not'],
  [/\b(it|what|that|where|when|how|there|here|who|he|she|let)'s\b/g, '$1 is'],
  [/\bi'm\b/g, 'i am'],
  [/\b(\w+)'re\b/g, '$1 are'],
  [/\b(\w+)'ve\b/g, '$1 have'],
  [/\b(\w+)'ll\b/g, '$1 will'],
  [/\b(\w+)'d\b/g, '$1 would'],
  // Possessives ("the clinic's address"): keep the word.
  [/\b(\w+)'s\b/g, '$1'],
  [/\bgonna\b/g, 'going to'],
  [/\bwanna\b/g, 'want to'],
  [/\bgotta\b/g, 'got to'],
];

/**
 * Lower case, plain ASCII letters and digits separated by single spaces, contractions
 * expanded: "What's your  address?" → "what is your address".
 */
export function normalize(text: string): string {
  let s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'");
  for (const [pattern, replacement] of CONTRACTIONS) s = s.replace(pattern, replacement);
  return s
    .replace(/[^a-z0-9']+/g, ' ')
    .replace(/'/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of `normalize(text)`. */
export function words(text: string): string[] {
  const n = normalize(text);
  return n === '' ? [] : n.split(' ');
}

export { STOP_WORDS } from '../../language/stop-words.js';
import { STOP_WORDS } from '../../language/stop-words.js';

const VOWEL = /[aeiouy]/;

/**
 * A light suffix-stripping stemmer (plural, -ing, -ed, -ation, -ment, -ly, final e), enough
 * to match "opening" with "open", "located" with "location", "vaccines" with "vaccination".
 * Not a full Porter stemmer: both sides go through the same function, so consistency matters
 * more than linguistic correctness.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  // Plurals.
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // Verb endings.
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix)) {
      const base = w.slice(0, -suffix.length);
      if (base.length >= 3 && VOWEL.test(base)) {
        w = base;
        // "stopp" → "stop", but keep "fill", "pass", "buzz".
        if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
      }
      break;
    }
  }
  if (w.endsWith('ation') && w.length - 5 >= 3) w = `${w.slice(0, -5)}ate`;
  if (w.endsWith('ment') && w.length - 4 >= 4) w = w.slice(0, -4);
  if (w.endsWith('ly') && w.length - 2 >= 4) w = w.slice(0, -2);
  if (w.endsWith('ate') && w.length - 3 >= 5) w = w.slice(0, -3);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** The topic terms of a text: words without stop words, stemmed. */
export function terms(text: string): string[] {
  return contentTerms(words(text));
}

/** `terms` for words already normalised. */
export function contentTerms(ws: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of ws) {
    if (STOP_WORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/**
 * Levenshtein distance between two strings (in letters) or word lists (in words), stopping
 * early once it exceeds `max`.
 */
export function editDistance(
  a: string | readonly string[],
  b: string | readonly string[],
  max = Infinity,
): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** True when `phrase`'s words occur in `text`'s words as a contiguous run. */
export function containsPhrase(text: string, phrase: string): boolean {
  const p = normalize(phrase);
  if (p === '') return false;
  return ` ${normalize(text)} `.includes(` ${p} `);
}

/** Fillers a recogniser keeps at the start of an utterance. */
const LEADING_FILLERS =
  /^(?:(?:um+|uh+|er+|erm|hmm+|ah+|oh|well|so|and|ok|okay|right|also|then)\s+)+/;

/** The utterance without leading fillers ("um well about three days" → "about three days"). */
export function stripFillers(normalized: string): string {
  const stripped = normalized.replace(LEADING_FILLERS, '').trim();
  return stripped === '' ? normalized : stripped;
}

/** Capitalises the first letter and the pronoun "i", for text read back to the caller. */
export function speakableAnswer(normalized: string): string {
  return normalized.replace(/\bi\b/g, 'I');
}

/** Upper-cases the first letter. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
