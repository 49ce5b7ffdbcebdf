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
import { AS_WRITTEN, EMERGENCY_PHRASES, spokenPhrase } from '../../language/emergency-phrases.js';
import { Lexicon } from '../../language/lexicon.js';
import { editDistance } from './text.js';

/** Words that may stand between two words of a phrase. */
const MAX_GAP = 2;
/** Phones a phrase word needs before a word sounding a phone off may stand for it. */
const MIN_SLIP_PHONES = 3;
/** Letters a slip may have (caller's word and phrase word alike), so short words never slip. */
const MIN_SLIP_LETTERS = 4;
/**
 * Sentences whose answer a detector keeps: a call's reply engine checks each turn's
 * readings, and every earlier turn again at each new one (its dialog replays the call).
 */
const DETECTED_CACHE_SIZE = 1024;

/** Possessive and reflexive pronouns, each mapped to the first person the phrases use. */
const PERSON: ReadonlyMap<string, string> = new Map([
  ...['his', 'her', 'their', 'your', 'our'].map((w): [string, string] => [w, 'my']),
  ...['himself', 'herself', 'themselves', 'themself', 'yourself', 'ourselves'].map(
    (w): [string, string] => [w, 'myself'],
  ),
]);

export class EmergencyDetector {
  private readonly phrases: string[][];
  private readonly lexicon: Lexicon;
  /** Phrase words matched only as written (see {@link EMERGENCY_PHRASES}). */
  private readonly asWritten = new Set<string>();

  constructor(options: { lexicon?: Lexicon; phrases?: readonly string[] } = {}) {
    this.lexicon = options.lexicon ?? Lexicon.default();
    this.phrases = (options.phrases ?? EMERGENCY_PHRASES).map((p) =>
      p.split(' ').map((w) => {
        if (!w.endsWith(AS_WRITTEN)) return this.word(w);
        this.asWritten.add(w.slice(0, -AS_WRITTEN.length));
        return w;
      }),
    );
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
    const lemmas = normalized
      .split(' ')
      .filter((w) => w !== '')
      .map((w) => this.word(w));
    for (const phrase of this.phrases) {
      if (containsInOrder(lemmas, phrase)) return spokenPhrase(phrase.join(' '));
    }
    for (const phrase of this.phrases) {
      if (phrase.length < 2) continue;
      for (let k = 0; k < phrase.length; k++) {
        const wanted = phrase[k] as string;
        if (wanted.length < MIN_SLIP_LETTERS || wanted.endsWith(AS_WRITTEN)) continue;
        // Each slip of this phrase word in the caller's words stands in for it, once.
        const slipped = lemmas.map((w) =>
          this.slipOf(w, wanted) || (options.soundSlips === true && this.soundSlipOf(w, wanted))
            ? wanted
            : w,
        );
        if (slipped.some((w, i) => w !== lemmas[i]) && containsInOrder(slipped, phrase)) {
          return spokenPhrase(phrase.join(' '));
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

  /**
   * A word as phrases are matched: its lemma, any person's pronoun as the first, and a word
   * a phrase wants as written marked so (not lemmatised: "fitting" is not "a fit").
   */
  private word(w: string): string {
    if (this.asWritten.has(w)) return `${w}${AS_WRITTEN}`;
    return PERSON.get(w) ?? this.lexicon.lemma(w);
  }
}

/** Whether `phrase` occurs in `words` in order, at most `maxGap` words apart. */
export function containsInOrder(
  words: readonly string[],
  phrase: readonly string[],
  maxGap = MAX_GAP,
): boolean {
  for (let start = 0; start < words.length; start++) {
    if (words[start] !== phrase[0]) continue;
    let at = start;
    let ok = true;
    for (const next of phrase.slice(1)) {
      let found = -1;
      for (let j = at + 1; j <= Math.min(words.length - 1, at + 1 + maxGap); j++) {
        if (words[j] === next) {
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
