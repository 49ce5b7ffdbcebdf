/**
 * The pre-visit brief as a small state machine: ask the questions in order, keep each
 * answer, take corrections, read the brief back, and let the caller change a part.
 *
 *   idle ──start──▶ asking(i) ──answer──▶ asking(i+1) … ──last answer──▶ confirming
 *   confirming ──yes──▶ done        confirming ──no──▶ choosing ──part──▶ asking(part, redo)
 *   asking(part, redo) ──answer──▶ confirming          any active stage ──stop──▶ paused
 *   asking(0), nothing answered ──withdraw──▶ idle (started by mistake)
 */
import type { Intake } from '@talkbooth/protocol';
import { correction, yesNo } from './intents.js';
import { contentTerms, normalize, speakableAnswer, stripFillers, terms } from './text.js';

export type IntakeStage = 'idle' | 'asking' | 'confirming' | 'choosing' | 'paused' | 'done';

export interface IntakeQuestion {
  id: string;
  ask: string;
}

const ORDINALS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    first: 0,
    second: 1,
    third: 2,
    fourth: 3,
    fifth: 4,
    sixth: 5,
  }),
);

/** How a question that is answered yes or no starts. */
const YES_NO_QUESTION_START: ReadonlySet<string> = new Set(
  'do does did are is was were have has can could will would'.split(' '),
);

const DEFAULT_CLOSING =
  'Thank you, the brief is ready for the doctor. Is there anything else I can help with?';

/** What the flow reads of an intake's words, worked out once per intake. */
interface IntakeWords {
  /** Each trigger phrase, normalised, and its terms. */
  readonly triggers: readonly { readonly phrase: string; readonly terms: readonly string[] }[];
  /** Each question's terms (its id's words and its question's), to name it as a part. */
  readonly partTerms: ReadonlyArray<ReadonlySet<string>>;
}

/**
 * Intakes' words by intake: each call's reply engine makes a new flow (and another when it
 * replays the call), and weighs each of a turn's readings against the triggers.
 */
const intakeWords = new WeakMap<Intake, IntakeWords>();

function wordsOf(intake: Intake): IntakeWords {
  let known = intakeWords.get(intake);
  if (known === undefined) {
    known = {
      triggers: (intake.trigger ?? []).map((t) => ({ phrase: normalize(t), terms: terms(t) })),
      partTerms: intake.questions.map(
        (q) => new Set([...terms(q.id.replace(/[-_]+/g, ' ')), ...terms(q.ask)]),
      ),
    };
    intakeWords.set(intake, known);
  }
  return known;
}

export class IntakeFlow {
  readonly questions: readonly IntakeQuestion[];
  private readonly words: IntakeWords;
  private readonly closing: string;

  private stageValue: IntakeStage = 'idle';
  private index = 0;
  /** Asking one question again from the read-back: go back to the read-back after it. */
  private redo = false;
  private readonly answers = new Map<string, string>();
  /** The question answered last, which a correction right after it replaces. */
  private lastAnswered: string | undefined;
  private confirmedValue = false;

  constructor(intake: Intake) {
    this.questions = intake.questions.map((q) => ({ id: q.id, ask: q.ask }));
    this.words = wordsOf(intake);
    this.closing = intake.closing ?? DEFAULT_CLOSING;
  }

  get stage(): IntakeStage {
    return this.stageValue;
  }

  /** Asking, reading back or choosing a part: the caller's words go to the brief first. */
  get active(): boolean {
    return (
      this.stageValue === 'asking' ||
      this.stageValue === 'confirming' ||
      this.stageValue === 'choosing'
    );
  }

  get confirmed(): boolean {
    return this.confirmedValue;
  }

  /** The first question was just asked and nothing is answered yet. */
  get justStarted(): boolean {
    return this.stageValue === 'asking' && this.index === 0 && this.answers.size === 0;
  }

  /** Whether the question being asked is answered yes or no ("Are you taking …?"). */
  get asksYesOrNo(): boolean {
    const asked = normalize(this.asking?.ask ?? '').split(' ')[0] ?? '';
    return YES_NO_QUESTION_START.has(asked);
  }

  /** Takes back a brief started by mistake, before anything was answered. */
  withdraw(): void {
    if (!this.justStarted) return;
    this.redo = false;
    this.stageValue = 'idle';
  }

  /** The question the caller's next words answer, while one is being asked. */
  get asking(): IntakeQuestion | undefined {
    return this.stageValue === 'asking' ? this.questions[this.index] : undefined;
  }

  /** The brief so far by question id (null for questions not answered). */
  brief(): Record<string, string | null> {
    return Object.fromEntries(this.questions.map((q) => [q.id, this.answers.get(q.id) ?? null]));
  }

  /** How many questions have an answer. */
  get answered(): number {
    return this.answers.size;
  }

  /**
   * Whether the utterance asks for the brief: one of the trigger phrases, or all of a
   * trigger's topic words ("i want to give you a brief" for "I would like to give a brief").
   */
  triggeredBy(normalized: string): boolean {
    const said = new Set(terms(normalized));
    const text = ` ${normalize(normalized)} `;
    return this.words.triggers.some(
      ({ phrase, terms: needed }) =>
        (phrase !== '' && text.includes(` ${phrase} `)) ||
        (needed.length > 0 && needed.every((w) => said.has(w))),
    );
  }

  /**
   * Starts the brief (again from the start once done), or resumes a paused one. A new
   * brief may start with its first answer already given (what the caller described).
   */
  start(firstAnswer?: string): string {
    if (this.questions.length === 0) return 'Sorry, I have no questions for a brief.';
    if (this.stageValue === 'paused') {
      // Resume at the first question without an answer, or at the read-back.
      const next = this.questions.findIndex((q) => !this.answers.has(q.id));
      this.stageValue = next < 0 ? 'confirming' : 'asking';
      if (next >= 0) this.index = next;
      return `Let us go on with your brief. ${this.prompt()}`;
    }
    if (this.active) return this.prompt();
    this.answers.clear();
    this.lastAnswered = undefined;
    this.confirmedValue = false;
    this.index = 0;
    this.redo = false;
    this.stageValue = 'asking';
    if (firstAnswer !== undefined && firstAnswer !== '') {
      const next = this.answer(firstAnswer);
      return `Sure, I noted that. ${next.replace(/^Okay\. /, '')}`;
    }
    return `Sure, I have a few short questions. ${this.prompt()}`;
  }

  /** Stops the brief part-way; `start` resumes it. */
  pause(): void {
    if (!this.active) return;
    this.redo = false;
    this.stageValue = 'paused';
  }

  /** What the caller is being asked now: the pending question, or the read-back. */
  prompt(): string {
    switch (this.stageValue) {
      case 'asking':
        return this.questions[this.index]?.ask ?? '';
      case 'confirming':
        return this.readBack();
      case 'choosing':
        return this.whichPart();
      default:
        return '';
    }
  }

  /**
   * Takes the caller's words while the brief is active and answers what to say next. Only
   * call while `active`.
   */
  handle(utterance: string): string {
    const n = stripFillers(normalize(utterance));
    const fix = correction(n) ?? this.shortCorrection(n);
    if (fix !== undefined && this.lastAnswered !== undefined && this.stageValue !== 'choosing') {
      // At the read-back, "no i meant the duration …" is about another part: ask it again.
      const part = this.stageValue === 'confirming' ? this.partNamed(fix) : undefined;
      const partId = part === undefined ? undefined : this.questions[part]?.id;
      if (part !== undefined && partId !== this.lastAnswered) return this.askAgain(part);
      this.answers.set(this.lastAnswered, fix);
      return `Sorry about that, I changed it to ${speakableAnswer(fix)}. ${this.prompt()}`;
    }
    switch (this.stageValue) {
      case 'asking':
        return this.answer(fix ?? n);
      case 'confirming':
        return this.confirm(n);
      case 'choosing':
        return this.choose(n);
      default:
        return this.prompt();
    }
  }

  /**
   * "No, since Tuesday" right after an answer: a correction of it, when what follows the "no"
   * is not itself an answer to the question now asked (which a yes-or-no question's would be).
   */
  private shortCorrection(n: string): string | undefined {
    if (this.stageValue !== 'asking' || this.lastAnswered === undefined) return undefined;
    const m = /^(?:no|nope|sorry|actually)(?: sorry| actually| no)? (.+)$/.exec(n);
    const rest = m?.[1];
    if (rest === undefined || /^(?:i|not|nothing|none|never|thanks|thank|it is fine)\b/.test(rest))
      return undefined;
    return this.asksYesOrNo ? undefined : rest;
  }

  /** Records the answer to the pending question and moves on. */
  answer(normalizedAnswer: string): string {
    const question = this.questions[this.index];
    if (!question) return this.prompt();
    this.answers.set(question.id, normalizedAnswer);
    this.lastAnswered = question.id;
    if (this.redo || this.index + 1 >= this.questions.length) {
      this.redo = false;
      this.stageValue = 'confirming';
      return this.readBack();
    }
    this.index += 1;
    return `Okay. ${this.prompt()}`;
  }

  private confirm(n: string): string {
    const part = this.partNamed(n);
    const answer = yesNo(n);
    if (answer === 'yes' && part === undefined) {
      this.stageValue = 'done';
      this.confirmedValue = true;
      return this.closing;
    }
    if (part !== undefined) return this.askAgain(part);
    if (answer === 'no') {
      this.stageValue = 'choosing';
      return this.whichPart();
    }
    return `Please say yes if the brief is right, or tell me which part to change. ${this.readBack()}`;
  }

  private choose(n: string): string {
    const part = this.partNamed(n);
    if (part !== undefined) return this.askAgain(part);
    const keep = /\b(?:fine|leave it|keep it|nothing|no change|all good|it is (?:ok|okay|right))\b/;
    if ((yesNo(n) === 'yes' || keep.test(n)) && !/\b(?:change|wrong)\b/.test(n)) {
      // "Actually it is fine."
      this.stageValue = 'confirming';
      return this.readBack();
    }
    return this.whichPart();
  }

  private askAgain(part: number): string {
    this.index = part;
    this.redo = true;
    this.stageValue = 'asking';
    return `Okay. ${this.prompt()}`;
  }

  /** The question the caller names: "the duration", "how long", "the second one". */
  private partNamed(n: string): number | undefined {
    for (const w of n.split(' ')) {
      const i = ORDINALS.get(w);
      if (i !== undefined && i < this.questions.length) return i;
      if (w === 'last' && this.questions.length > 0) return this.questions.length - 1;
    }
    const said = contentTerms(n.split(' '));
    let best: number | undefined;
    let bestHits = 0;
    this.words.partTerms.forEach((words, i) => {
      const hits = said.filter((t) => words.has(t)).length;
      if (hits > bestHits) {
        best = i;
        bestHits = hits;
      }
    });
    return best;
  }

  private readBack(): string {
    const parts = this.questions.map(
      (q) => `${label(q.id)}, ${speakableAnswer(this.answers.get(q.id) ?? 'not given')}`,
    );
    return `Here is your brief: ${parts.join('; ')}. Is that right?`;
  }

  private whichPart(): string {
    return `Which part should I change: ${joinOr(this.questions.map((q) => label(q.id)))}?`;
  }
}

function label(id: string): string {
  return id.replace(/[-_]+/g, ' ');
}

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`;
}
