/**
 * Which of two offered topics ("Do you mean, A, or B?") a caller's reply picks by its
 * position: "the first one", "the latter", "both", "number two". A word the recogniser
 * misheard before "one" ("the think and one") is taken for the ordinal it sounds like when
 * it clearly sounds like one of them; otherwise the reply is unsure, and the caller is asked
 * again rather than told the topic a guess picked.
 */
import type { Lexicon } from '../../language/lexicon.js';
import { yesNo } from './intents.js';
import { soundsOf } from './sound.js';
import { editDistance } from './text.js';

export type Pick = 'first' | 'second' | 'both' | 'unsure';

const FIRST = new Set(['first', 'former']);
const SECOND = new Set(['second', 'latter', 'other', 'last']);
const BOTH = new Set(['both']);
/** Words that point at "one" without saying which: "that one", "yes the one". */
const POINTERS = new Set(['the', 'that', 'this', 'a', 'no', 'yes', 'oh', 'um', 'uh', 'er']);
/** Words before a bare number that picks by position: "number one", "option two". */
const NUMBER_LEADS = new Set(['number', 'option', 'yes', 'oh', 'um', 'uh', 'er']);
/**
 * The words a misheard word before "one" is compared with, and what each picks. Not "last":
 * it is a phone or two from "first", so nothing would sound clearly like either.
 */
const ORDINALS: readonly [string, Pick][] = [
  ['first', 'first'],
  ['second', 'second'],
  ['other', 'second'],
];
/** At most this many misheard words stand for the ordinal ("think and" for "second"). */
const MAX_MISHEARD_WORDS = 2;
/** The nearest ordinal must be this many phones nearer than any that picks otherwise. */
const SOUND_MARGIN = 2;

/**
 * The topic the reply picks; "unsure" when it points at one of them without saying which
 * ("that one", "the fan can one", and with `bySound: false` also "the think and one");
 * undefined when it says nothing about position (it may name the topic instead: "the one
 * about cancelling" is for the matcher).
 */
export function pickOfTwo(
  normalized: string,
  lexicon: Lexicon,
  options: { bySound?: boolean } = {},
): Pick | undefined {
  const ws = normalized.split(' ').filter((w) => w !== '');
  if (ws.some((w) => BOTH.has(w))) return 'both';
  if (ws.some((w) => SECOND.has(w))) return 'second';
  if (ws.some((w) => FIRST.has(w))) return 'first';
  const bare = ws.filter((w) => !NUMBER_LEADS.has(w));
  if (bare.length === 1 && bare[0] === 'one') return 'first';
  if (bare.length === 1 && bare[0] === 'two') return 'second';
  const at = ws.lastIndexOf('one');
  if (at < 1 || at < ws.length - 2) return undefined;
  let from = at;
  while (from > 0 && !POINTERS.has(ws[from - 1] ?? '')) from--;
  const misheard = ws.slice(from, at);
  if (misheard.length === 0) return 'unsure';
  // "can i have one more question" is not a misheard ordinal.
  if (misheard.length > MAX_MISHEARD_WORDS) return undefined;
  return options.bySound === false ? 'unsure' : bySound(misheard.join(' '), lexicon);
}

/** The pick of the ordinal `phrase` sounds clearly like, else "unsure". */
function bySound(phrase: string, lexicon: Lexicon): Pick {
  const heard = soundsOf(phrase, lexicon);
  const scored = ORDINALS.map(([word, pick]) => {
    const sounds = soundsOf(word, lexicon);
    return { pick, distance: editDistance(heard, sounds), length: sounds.length };
  }).sort((a, b) => a.distance - b.distance);
  const best = scored[0];
  if (best === undefined || best.distance > Math.floor(best.length / 2)) return 'unsure';
  const rival = scored.find((s) => s.pick !== best.pick);
  if (rival !== undefined && rival.distance - best.distance < SOUND_MARGIN) return 'unsure';
  return best.pick;
}

/**
 * The words of a reply that only picks, accepts or turns down what was offered ("the first
 * one please", "both of them", "yes that is right", "no thanks", "neither of them"):
 * positions, pointers, yes and no, thanks, and the words that join them.
 */
const CHOOSING_WORDS: ReadonlySet<string> = new Set([
  ...FIRST,
  ...SECOND,
  ...BOTH,
  ...POINTERS,
  ...NUMBER_LEADS,
  ...`one two of them and so just please thanks thank you yeah yep sure okay ok right correct
  it is nope nah not wrong really quite neither none sorry`.split(/\s+/),
]);

/** What a reply settles of what "Do you mean …?" offered: which of it, or none. */
export type Settled = Exclude<Pick, 'unsure'> | 'neither';

/**
 * What a reply to "Do you mean, A?" (one topic `offered`) or "Do you mean, A, or B?" (two)
 * settles when it is made of nothing but choosing words: the topic it picks or accepts in
 * so many words, or "neither" for a plain no. Undefined when it says anything else (a
 * question, a topic's own words, an emergency), or picks only by sound or without saying
 * which ("that one" of two, "yes" to two).
 */
export function settledInSoManyWords(
  normalized: string,
  lexicon: Lexicon,
  offered: 1 | 2 = 2,
): Settled | undefined {
  const ws = normalized.split(' ').filter((w) => w !== '');
  if (ws.length === 0 || ws.some((w) => !CHOOSING_WORDS.has(w))) return undefined;
  const pick = pickOfTwo(normalized, lexicon, { bySound: false });
  const answer = yesNo(normalized);
  if (offered === 1) {
    if (answer === 'no') return 'neither';
    return answer === 'yes' || pick === 'first' ? 'first' : undefined;
  }
  if (pick !== undefined && pick !== 'unsure') return pick;
  return pick === undefined && answer === 'no' ? 'neither' : undefined;
}
