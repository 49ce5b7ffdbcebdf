/**
 * Emergencies in the caller's own words, whatever the business: a built-in lexicon of
 * phrases that mean someone needs urgent help, matched on lemmas ("collapsed" → collapse,
 * "bleeding" → bleed, "swollen" → swell) in order, with a few words allowed between ("my
 * chest really hurts", "I can't really breathe"). This path does not depend on the knowledge
 * base's wording: an urgent entry is answered whenever one of these is heard. A caller is
 * often calling about someone else, so the phrases are written in the first person and a
 * possessive or reflexive pronoun stands for any other ("hit my head" also catches "she
 * hit her head", "harm myself" also "he wants to harm himself").
 *
 * A recogniser that spells what it hears (Moonshine) can write a word of a phrase one
 * letter off, as no dictionary has it: "i am chast pain". In a phrase of two words or
 * more, one word may be such a slip, one letter from the phrase's word, when the caller's
 * word is not an English word at all (a real word, "chess", is taken as said) and the
 * phrase's other words are heard as they are.
 */
import { LRUCache } from 'lru-cache';
import { AS_WRITTEN, EMERGENCY_PHRASES } from '../../language/emergency-phrases.js';
import { Lexicon } from '../../language/lexicon.js';
import { editDistance } from './text.js';

/** Words that may stand between two words of a phrase. */
const MAX_GAP = 2;
/** Phones a phrase word needs before a word sounding a phone off may stand for it. */
const MIN_SLIP_PHONES = 3;
/** Letters a slip may have (caller's word and phrase word alike), so short words never slip. */
const MIN_SLIP_LETTERS = 4;
/**
 * Sentences whose answer a detector keeps: every call's reply engine checks each turn's
 * readings several times, and every earlier turn again when its dialog replays the call.
 */
const DETECTED_CACHE_SIZE = 2048;

/** Possessive and reflexive pronouns, each mapped to the first person the phrases use. */
const PERSON: ReadonlyMap<string, string> = new Map([
  ...['his', 'her', 'their', 'your', 'our'].map((w): [string, string] => [w, 'my']),
  ...['himself', 'herself', 'themselves', 'themself', 'yourself', 'ourselves'].map(
    (w): [string, string] => [w, 'myself'],
  ),
]);

/** A word of a phrase: a lemma, or a word matched only as written ("fit", not "fitting"). */
interface PhraseWord {
  readonly text: string;
  readonly asWritten: boolean;
}

/** A caller's word: as said (any person's pronoun as the first), and its lemma. */
interface HeardWord {
  readonly said: string;
  readonly lemma: string;
}

interface Phrase {
  /** The phrase as the detector names it: each word's lemma, or the word as written. */
  readonly name: string;
  readonly words: readonly PhraseWord[];
}

export class EmergencyDetector {
  private static shared: EmergencyDetector | undefined;

  /**
   * The detector of the built-in phrases with the built lexicon, made on first use and
   * shared by every call's reply engine: making one takes a few milliseconds of the event
   * loop as a call starts, and its cache is of sentences alone.
   */
  static default(): EmergencyDetector {
    EmergencyDetector.shared ??= new EmergencyDetector();
    return EmergencyDetector.shared;
  }

  private readonly phrases: Phrase[];
  private readonly lexicon: Lexicon;

  constructor(options: { lexicon?: Lexicon; phrases?: readonly string[] } = {}) {
    this.lexicon = options.lexicon ?? Lexicon.default();
    this.phrases = (options.phrases ?? EMERGENCY_PHRASES).map((p) => {
      const words = p.split(' ').map((w): PhraseWord => {
        if (w.endsWith(AS_WRITTEN))
          return { text: w.slice(0, -AS_WRITTEN.length), asWritten: true };
        return { text: this.heard(w).lemma, asWritten: false };
      });
      return { name: words.map((w) => w.text).join(' '), words };
    });
  }

  /** What {@link detect} answered, by sentence and whether sound slips counted ('' for none). */
  private readonly detected = new LRUCache<string, string>({ max: DETECTED_CACHE_SIZE });

  /** The emergency phrase the normalised words contain, if any ("chest pain"). */
  detect(normalized: string, options: { soundSlips?: boolean } = {}): string | undefined {
    const key = `${options.soundSlips === true ? 'sounds' : 'letters'}:${normalized}`;
    const cached = this.detected.get(key);
    if (cached !== undefined) return cached === '' ? undefined : cached;
    const phrase = this.detectAfresh(normalized, options);
    this.detected.set(key, phrase ?? '');
    return phrase;
  }

  /** {@link detect}, without the cache. */
  private detectAfresh(normalized: string, options: { soundSlips?: boolean }): string | undefined {
    const heard = normalized
      .split(' ')
      .filter((w) => w !== '')
      .map((w) => this.heard(w));
    for (const phrase of this.phrases) {
      if (containsInOrder(heard, phrase.words, MAX_GAP, isWord)) return phrase.name;
    }
    for (const phrase of this.phrases) {
      if (phrase.words.length < 2) continue;
      for (const wanted of phrase.words) {
        if (wanted.text.length < MIN_SLIP_LETTERS || wanted.asWritten) continue;
        // Each slip of this phrase word in the caller's words stands in for it, once.
        let slips = 0;
        const slipped = heard.map((w): HeardWord => {
          const slip =
            this.slipOf(w.lemma, wanted.text) ||
            (options.soundSlips === true && this.soundSlipOf(w.lemma, wanted.text));
          if (!slip) return w;
          slips++;
          return { said: w.said, lemma: wanted.text };
        });
        if (slips > 0 && containsInOrder(slipped, phrase.words, MAX_GAP, isWord)) {
          return phrase.name;
        }
      }
    }
    return undefined;
  }

  /**
   * Whether the caller's word, a real word, sounds a phone off a phrase word of
   * {@link MIN_SLIP_PHONES} phones or more ("bill" for "pill").
   */
  private soundSlipOf(heard: string, wanted: string): boolean {
    if (heard === wanted || this.lexicon.isLight(heard)) return false;
    const a = this.lexicon.sounds(heard);
    const b = this.lexicon.sounds(wanted);
    if (a === undefined || b === undefined || b.length < MIN_SLIP_PHONES) return false;
    return a.length === b.length && editDistance(a, b, 1) <= 1;
  }

  /** Whether the caller's word is a one-letter slip of a phrase word, not a word itself. */
  private slipOf(heard: string, wanted: string): boolean {
    return (
      heard !== wanted &&
      heard.length >= MIN_SLIP_LETTERS &&
      /^[a-z]+$/.test(heard) &&
      !this.lexicon.has(heard) &&
      editDistance(heard, wanted, 1) <= 1
    );
  }

  /** A word as phrases are matched: as said, any person's pronoun as the first, and its lemma. */
  private heard(w: string): HeardWord {
    const person = PERSON.get(w);
    return person !== undefined
      ? { said: person, lemma: person }
      : { said: w, lemma: this.lexicon.lemma(w) };
  }
}

/**
 * Whether a caller's word is a phrase's word: as written where the phrase wants it so,
 * by its lemma otherwise. Each phrase decides for its own words, so a word one phrase wants
 * as written ("fit") is still matched by its lemma in any other.
 */
function isWord(heard: HeardWord, wanted: PhraseWord): boolean {
  return wanted.asWritten ? heard.said === wanted.text : heard.lemma === wanted.text;
}

/**
 * Whether `phrase` occurs in `words` in order, at most `maxGap` words apart, a word
 * matching a phrase word as `same` decides (equal, unless told).
 */
export function containsInOrder<W, P = W>(
  words: readonly W[],
  phrase: readonly P[],
  maxGap = MAX_GAP,
  same: (word: W, wanted: P) => boolean = (word, wanted) => Object.is(word, wanted),
): boolean {
  const [head, ...rest] = phrase;
  if (head === undefined) return false;
  for (let start = 0; start < words.length; start++) {
    if (!same(words[start] as W, head)) continue;
    let at = start;
    let ok = true;
    for (const next of rest) {
      let found = -1;
      for (let j = at + 1; j <= Math.min(words.length - 1, at + 1 + maxGap); j++) {
        if (same(words[j] as W, next)) {
          found = j;
          break;
        }
      }
      if (found < 0) {
        ok = false;
        break;
      }
      at = found;
    }
    if (ok) return true;
  }
  return false;
}
