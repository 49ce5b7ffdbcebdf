/**
 * Emergencies in the caller's own words, whatever the business: a built-in lexicon of
 * phrases that mean someone needs urgent help, matched on lemmas ("collapsed" → collapse,
 * "bleeding" → bleed, "swollen" → swell) in order, with a few words allowed between ("my
 * chest really hurts", "I can't really breathe"). This path does not depend on the knowledge
 * base's wording: an urgent entry is answered whenever one of these is heard.
 */
import { EMERGENCY_PHRASES } from '../../language/emergency-phrases.js';
import { Lexicon } from '../../language/lexicon.js';

/** Words that may stand between two words of a phrase. */
const MAX_GAP = 2;

export class EmergencyDetector {
  private readonly phrases: string[][];
  private readonly lexicon: Lexicon;

  constructor(options: { lexicon?: Lexicon; phrases?: readonly string[] } = {}) {
    this.lexicon = options.lexicon ?? Lexicon.default();
    this.phrases = (options.phrases ?? EMERGENCY_PHRASES).map((p) =>
      p.split(' ').map((w) => this.lexicon.lemma(w)),
    );
  }

  /** The emergency phrase the normalised words contain, if any ("chest pain"). */
  detect(normalized: string): string | undefined {
    const lemmas = normalized
      .split(' ')
      .filter((w) => w !== '')
      .map((w) => this.lexicon.lemma(w));
    for (const phrase of this.phrases) {
      if (containsInOrder(lemmas, phrase)) return phrase.join(' ');
    }
    return undefined;
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
