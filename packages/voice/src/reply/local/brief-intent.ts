/**
 * The brief asked for in the caller's own words, and symptoms described without asking:
 * "can you pass my details to the doctor", "let the dentist know", "my knee has been
 * hurting for a week". Matched on lemmas against general word lists (brief-requests.ts),
 * beside the assistant's own trigger phrases.
 */
import {
  BRIEF_RECIPIENTS,
  PASS_ON_VERBS,
  SYMPTOM_WORDS,
  TELL_VERBS,
} from '../../language/brief-requests.js';
import { Lexicon } from '../../language/lexicon.js';
import { containsInOrder } from './emergency.js';

/** Words allowed between a verb and what it passes on ("pass all my details to"). */
const GAP = 4;
/** How far after a pass-on verb the caller's symptom may come ("tell … about my back pain"). */
const SYMPTOM_REACH = 7;

export class BriefIntent {
  private readonly lexicon: Lexicon;
  private readonly verbs: ReadonlySet<string>;
  /** The pass-on verbs that only mean telling ("leave" and "give" have other senses). */
  private readonly tellVerbs: ReadonlySet<string>;
  private readonly recipients: ReadonlySet<string>;
  private readonly symptoms: ReadonlySet<string>;
  /** Body parts (WordNet's, from the lexicon): "tell the nurse about my wrist". */
  private readonly bodyParts: ReadonlySet<string>;

  constructor(lexicon: Lexicon = Lexicon.default()) {
    this.lexicon = lexicon;
    const lemmas = (list: readonly string[]) => new Set(list.map((w) => lexicon.lemma(w)));
    this.verbs = lemmas(PASS_ON_VERBS);
    this.tellVerbs = lemmas(TELL_VERBS);
    this.recipients = lemmas(BRIEF_RECIPIENTS);
    this.symptoms = lemmas(SYMPTOM_WORDS);
    this.bodyParts = new Set(lexicon.wordsOf('bodyPart').filter((w) => !w.includes(' ')));
  }

  private lemmas(normalized: string): string[] {
    return normalized
      .split(' ')
      .filter((w) => w !== '')
      .map((w) => this.lexicon.lemma(w));
  }

  /**
   * Whether the words ask for something to be passed on: a pass-on verb followed by who it
   * is for or what it is ("tell the doctor", "note down my symptoms"), or "let … know".
   */
  asksForBrief(normalized: string): boolean {
    const ls = this.lemmas(normalized);
    for (const verb of this.verbs) {
      for (const recipient of this.recipients) {
        if (containsInOrder(ls, [verb, recipient], GAP)) return true;
      }
    }
    for (const recipient of this.recipients) {
      if (containsInOrder(ls, [recipient, 'know'], 2)) return true;
    }
    if (containsInOrder(ls, ['let', 'know'], GAP) && ls.some((l) => this.recipients.has(l))) {
      return true;
    }
    return this.passesOnSymptoms(ls);
  }

  /**
   * Whether the words ask for how the caller feels to be passed on, even where who it is
   * for was not heard (a name or a title a recogniser often mishears): a verb of telling
   * (`TELL_VERBS`; not "leave", as in "leave my car" heard "leave my cough") that is not
   * for the caller ("tell me", "send us") followed by one of the caller's symptoms or body
   * parts ("please tell … about my back pain", "… about my wrist"), "let … know" before one
   * ("could you let … know I have been feeling unwell"), or someone to "know about my"
   * symptom or body part ("I need … to know about my rash").
   */
  private passesOnSymptoms(ls: readonly string[]): boolean {
    const symptomAt = (from: number, reach: number) =>
      ls.slice(from, from + reach + 1).some((l) => this.symptoms.has(l) || this.bodyParts.has(l));
    for (const [i, l] of ls.entries()) {
      const next = ls[i + 1];
      if (next === 'me' || next === 'us') continue;
      if (this.tellVerbs.has(l) && symptomAt(i + 1, SYMPTOM_REACH)) return true;
      if (l === 'let' && containsInOrder(ls.slice(i), ['let', 'know'], GAP)) {
        const know = ls.indexOf('know', i);
        if (symptomAt(know + 1, SYMPTOM_REACH)) return true;
      }
      if (l === 'know' && next === 'about' && ls[i + 2] === 'my' && symptomAt(i + 3, 3)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the words describe how the caller feels (a symptom word in them). */
  describesSymptoms(normalized: string): boolean {
    return this.lemmas(normalized).some((l) => this.symptoms.has(l));
  }
}
