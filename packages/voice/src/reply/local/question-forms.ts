/**
 * English asks where and when in more ways than with "where" and "when": "whereabouts are
 * you", "how do I get to you", "what town are you in" ask where; "how late", "how early",
 * "what time", "which days" ask when. A knowledge base says "Where is the clinic?" and
 * "When are you open?", so the matcher reads these idioms as the question word they stand
 * for. This is a small grammar of English question forms, not a list of any business's
 * words: the caller's other words are kept, and still decide which "where" is meant (the
 * clinic, the pharmacy, the car park).
 */

/**
 * One idiom and the question word it stands for; the words it captures (a group) are kept
 * after that word: "what time" → "when time".
 */
interface Idiom {
  pattern: RegExp;
  asks: 'where' | 'when';
  /** What the rest of the idiom says in plain words, after the kept group. */
  reads?: string;
}

const MODAL = '(?:do|does|can|could|would|should|will|shall|might|must)';
const WHO = '(?:i|we|you|one|they|people|patients|customers)';

const IDIOMS: readonly Idiom[] = [
  // "whereabouts are you", "whereabouts is the pharmacy"
  { pattern: /\bwhereabouts\b/g, asks: 'where' },
  // "how do i get to you", "how can i get there", "how would we find you" ("find" stays: a
  // knowledge base may ask "How do I find you?"); not "how do i find my results", nor "how
  // do i reach you", which may well mean by phone
  {
    pattern: new RegExp(
      `\\bhow ${MODAL} ${WHO} (?:(?:get|go|come) (?:to|there)|(find)(?= you\\b))`,
      'g',
    ),
    asks: 'where',
  },
  // "which part of town are you in", "what street is it on": a place the caller asks for
  {
    pattern: /\b(?:what|which) (?:part of (?:the )?)?\w+ (?:are you|is it) (?:in|on|at)$/g,
    asks: 'where',
  },
  // "how late can i come in", "how early could we get there": a caller asking how late
  // they can come to a place asks how late it is open ("open" is read for the coming).
  {
    pattern: new RegExp(
      `\\bhow (late|early) ${MODAL} ${WHO} (?:come|get|arrive|turn up|drop|pop)(?: (?:in|by|over|round|there|here))?\\b`,
      'g',
    ),
    asks: 'when',
    reads: 'are you open',
  },
  // "how late are you open", "how early can i ring": "late" and "early" stay, as they say
  // which end of the day is asked about.
  { pattern: /\bhow (late|early)\b/g, asks: 'when' },
  // "what time do you close", "at what time", "what times"
  { pattern: /\b(?:at |until |till )?what (times?)\b/g, asks: 'when' },
  // "what days are you open", "which day can i come in"
  { pattern: /\b(?:what|which) (days?)\b/g, asks: 'when' },
];

/**
 * The caller's normalised words with each idiom that asks where or when read as that
 * question word: "how late are you open on fridays" → "when late are you open on fridays",
 * "whereabouts are you" → "where are you". Other words are left as they are.
 */
export function askedPlainly(normalized: string): string {
  let out = normalized;
  for (const { pattern, asks, reads } of IDIOMS) {
    out = out.replace(pattern, (_match, kept?: string) =>
      [asks, typeof kept === 'string' ? kept : '', reads ?? ''].join(' '),
    );
  }
  return out.replace(/\s+/g, ' ').trim();
}
