/**
 * The brief asked for in the caller's own words, and symptoms described without asking:
 * "can you pass my details to the doctor", "let the dentist know", "my knee has been
 * hurting for a week". Matched on lemmas against general word lists (brief-requests.ts),
 * beside the assistant's own trigger phrases.
 */
import { BRIEF_RECIPIENTS, PASS_ON_VERBS, SYMPTOM_WORDS } from '../../language/brief-requests.js';
import { Lexicon } from '../../language/lexicon.js';
import { containsInOrder } from './emergency.js';

/** Words allowed between a verb and what it passes on ("pass all my details to"). */
const GAP = 4;

export class BriefIntent {
  private readonly lexicon: Lexicon;
  private readonly verbs: ReadonlySet<string>;
  private readonly recipients: ReadonlySet<string>;
  private readonly symptoms: ReadonlySet<string>;

  constructor(lexicon: Lexicon = Lexicon.default()) {
    this.lexicon = lexicon;
    const lemmas = (list: readonly string[]) => new Set(list.map((w) => lexicon.lemma(w)));
    this.verbs = lemmas(PASS_ON_VERBS);
    this.recipients = lemmas(BRIEF_RECIPIENTS);
    this.symptoms = lemmas(SYMPTOM_WORDS);
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
    return containsInOrder(ls, ['let', 'know'], GAP) && ls.some((l) => this.recipients.has(l));
  }

  /** Whether the words describe how the caller feels (a symptom word in them). */
  describesSymptoms(normalized: string): boolean {
    return this.lemmas(normalized).some((l) => this.symptoms.has(l));
  }
}
