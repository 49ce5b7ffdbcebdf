/**
 * The local engine's conversation: one `respond` per caller utterance, in order. It keeps
 * what the call has produced (topics asked, the brief, the urgent flag). Deterministic, so
 * the engine can rebuild it from the history at any turn.
 *
 * Order of precedence for an utterance:
 *   1. goodbye / end-call phrases          → end-call message, end the call
 *   2. an urgent entry (lower threshold),   → its answer (or a built-in one), always (the brief
 *      or an emergency phrase                 goes on after it)
 *   3. the brief, while it is active       → repeat / stop / a knowledge question / the brief
 *   4. a reply to "Do you mean …?" or "… or …?" → the entry chosen / ask again / rephrase
 *   5. "no" to "anything else?"            → end the call
 *   6. a brief trigger or a request to pass something on, or "yes" to an offer of the
 *      brief                               → start (or resume) the brief
 *   7. small talk                          → greeting, thanks, repeat, what I can do
 *   8. the knowledge base                  → answer / "Do you mean A, or B?" / "Do you mean …?"
 *                                            (never about an urgent entry: its answer instead)
 *   9. symptoms described, nothing matched → offer the brief, with what they said as its
 *                                            first answer
 *  10. otherwise                            → "I do not know" and what it can do
 */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { Lexicon } from '../../language/lexicon.js';
import type { CallConclusion } from '../types.js';
import type { BriefIntent } from './brief-intent.js';
import type { EmergencyDetector } from './emergency.js';
import type { IntakeFlow } from './intake.js';
import { isGoodbye, isNothingElse, isQuestion, isStopBrief, smallTalk, yesNo } from './intents.js';
import type { KnowledgeBase } from './knowledge/knowledge-base.js';
import type { Retrieval } from './knowledge/match.js';
import { shortTopicOf, topicOf } from './knowledge/topics.js';
import { type ReadingChoice, ReadingChooser } from './reading-choice.js';
import { pickOfTwo } from './choice.js';
import { normalize, stripFillers } from './text.js';

export interface DialogConfig {
  knowledge: KnowledgeBase;
  emergency: EmergencyDetector;
  briefIntent: BriefIntent;
  intake?: IntakeFlow;
  greeting: string | null;
  endCallMessage?: string;
  endCallPhrases?: readonly string[];
  /** Words' sounds, to compare two recognisers' readings (default: the built lexicon). */
  lexicon?: Lexicon;
}

export interface Turn {
  text: string;
  endCall: boolean;
}

const DEFAULT_END_CALL_MESSAGE = 'Thank you for calling. Goodbye.';

/** The answer to an emergency when the assistant's knowledge base has no urgent entry. */
export const BUILT_IN_EMERGENCY: KnowledgeEntry = {
  id: 'emergency',
  questions: ['This is an emergency.'],
  answer:
    'This sounds urgent. If it is an emergency, please hang up and call your local emergency number now.',
  urgent: true,
};

export interface RespondOptions {
  /** The words are a reading the recogniser doubted (see {@link ReadingChoice}). */
  doubtful?: boolean;
  /** The words are a spelling recogniser's reading (see {@link ReadingChoice}). */
  spelled?: boolean;
}

/** Words that take the one topic offered in "Do you mean …?" ("yes that one", "the first"). */
const FIRST_CHOICE = new Set(['first', 'former', 'one']);

export class Dialog {
  private readonly kb: KnowledgeBase;
  private readonly emergency: EmergencyDetector;
  private readonly lexicon: Lexicon;
  private readonly briefIntent: BriefIntent;
  /** What the caller described when the brief was offered for it: its first answer. */
  private offeredFor: string | undefined;
  private readonly intake: IntakeFlow | undefined;
  private readonly endCallMessage: string;
  private readonly endCallPhrases: readonly string[];
  /** Entry ids answered, in order, once each. */
  private readonly topics: string[] = [];
  private urgentValue = false;
  /** What callers asked that the assistant could not answer (for the clinic to add). */
  private readonly unanswered: string[] = [];
  private couldNotAnswer = false;
  /** The entry offered in "Do you mean …?", or the two in "… A, or B?", waiting for a reply. */
  private pending: KnowledgeEntry[] | undefined;
  private lastSaid: string;
  private turns = 0;
  private readonly readings: ReadingChooser;

  constructor(config: DialogConfig) {
    this.kb = config.knowledge;
    this.emergency = config.emergency;
    this.lexicon = config.lexicon ?? Lexicon.default();
    this.briefIntent = config.briefIntent;
    this.intake = config.intake;
    this.endCallMessage = config.endCallMessage?.trim() || DEFAULT_END_CALL_MESSAGE;
    this.endCallPhrases = config.endCallPhrases ?? [];
    this.lastSaid = config.greeting ?? '';
    this.readings = new ReadingChooser({
      kb: this.kb,
      emergency: this.emergency,
      lexicon: this.lexicon,
      endCallPhrases: this.endCallPhrases,
      intake: this.intake,
      pending: () => this.pending,
      urgentEntry: (n, soundSlips) => this.urgentEntry(n, soundSlips),
      asksForBrief: (n) => this.asksForBrief(n),
    });
  }

  /**
   * The reply to one caller utterance. `lastAssistant` is what the assistant said just
   * before it, when the caller's history has it (else the dialog's own last reply).
   */
  respond(utterance: string, lastAssistant?: string, options: RespondOptions = {}): Turn {
    this.turns += 1;
    const heard = lastAssistant ?? this.lastSaid;
    const pending = this.pending;
    this.pending = undefined;
    this.couldNotAnswer = false;
    const turn = this.decide(
      stripFillers(normalize(utterance)),
      heard,
      pending,
      options.doubtful === true,
      options.spelled === true,
    );
    this.lastSaid = turn.text;
    if (this.couldNotAnswer) this.unanswered.push(utterance.trim());
    return turn;
  }

  private decide(
    n: string,
    heard: string,
    pending: KnowledgeEntry[] | undefined,
    doubtful: boolean,
    spelled: boolean,
  ): Turn {
    const intake = this.intake;
    if (n === '') return say('Sorry, I did not catch that. Could you say it again?');

    // An emergency comes before everything, a goodbye in the same breath included.
    const urgent = this.urgentEntry(n, spelled);
    if (urgent) {
      this.urgentValue = true;
      this.noteTopic(urgent.id);
      if (intake?.active) {
        // Urgent first; the brief keeps what they said (it is usually the reason).
        const next =
          intake.stage === 'asking' && !isQuestion(n) ? intake.answer(n) : intake.prompt();
        return say(
          `${urgent.answer} If it is not an emergency, we can go on with your brief. ${next}`,
        );
      }
      return say(urgent.answer);
    }

    if (isGoodbye(n, this.endCallPhrases)) return { text: this.endCallMessage, endCall: true };

    if (intake?.active) {
      const intent = smallTalk(n);
      if (intent === 'repeat') return say(intake.prompt());
      if (intent === 'thanks') return say(`You are welcome. ${intake.prompt()}`);
      if (intent === 'greeting') return say(`Hello. ${intake.prompt()}`);
      if (isStopBrief(n)) {
        intake.pause();
        return say('Okay, I stopped the brief. We can go on with it later. How else can I help?');
      }
      // "No" to the brief's first question just after it started: the caller never asked
      // for it (their words were taken for a request: "leave my car" heard as "leave my
      // cough"). Whatever they said after the "no" is heard as a new question.
      if (intake.justStarted && !intake.asksYesOrNo && yesNo(n) === 'no') {
        intake.withdraw();
        const rest = n.replace(/^(?:no|nope|nah)(?: (?:no|sorry|thanks|thank you))*\s*/, '');
        const found = rest === '' ? undefined : this.kb.retrieve(rest);
        if (found?.kind === 'answer') {
          return say(`Sorry, I misunderstood. ${this.answer(found.match.entry).text}`);
        }
        return say('Sorry, I misunderstood. How else can I help?');
      }
      if (isQuestion(n)) {
        const found = this.kb.retrieve(n);
        if (found.kind === 'answer') {
          this.noteTopic(found.match.entry.id);
          return say(`${found.match.entry.answer} Now, back to your brief. ${intake.prompt()}`);
        }
        if (intent === 'capabilities') return say(`${this.capabilities()} ${intake.prompt()}`);
      }
      return say(intake.handle(n));
    }

    if (pending) {
      const turn = this.settle(n, pending);
      if (turn) return turn;
    }

    if (/\banything else\b/i.test(heard) && isNothingElse(n)) {
      return { text: this.endCallMessage, endCall: true };
    }

    const offeredFor = this.offeredFor;
    this.offeredFor = undefined;
    if (intake && yesNo(n) === 'yes' && offersBrief(heard) && intake.stage !== 'done') {
      // "Yes" to "Shall I note that …?": what they described is the brief's first answer.
      return say(intake.start(offeredFor));
    }
    if (intake && this.asksForBrief(n)) return say(intake.start());

    switch (smallTalk(n)) {
      case 'greeting':
        return say('Hello. How can I help you today?');
      case 'thanks':
        return say('You are welcome. Is there anything else I can help with?');
      case 'repeat':
        return say(heard === '' ? 'I have not said anything yet. How can I help?' : heard);
      case 'capabilities':
        return say(this.capabilities());
      default:
        break;
    }

    const retrieved = this.kb.retrieve(n);
    // Symptoms described in words no entry uses are offered the brief (below), not asked
    // about (or told) an entry they merely resemble.
    const resembles =
      ((retrieved.kind === 'clarify' && retrieved.byMeaning === true) ||
        (retrieved.kind === 'answer' && retrieved.together === true)) &&
      intake !== undefined &&
      intake.stage !== 'done' &&
      this.briefIntent.describesSymptoms(n);
    const found: Retrieval = resembles ? { kind: 'none' } : retrieved;
    const alarm = this.unsureOfUrgent(n, found, doubtful);
    if (alarm) return alarm;
    switch (found.kind) {
      case 'answer':
      case 'clarify':
        // A reading the recogniser doubted is asked about, not answered.
        if (found.kind === 'answer' && !doubtful) return this.answer(found.match.entry);
        this.pending = [found.match.entry];
        return say(
          `Sorry, I am not sure I understood. Do you mean, ${topicOf(found.match.entry)}?`,
        );
      case 'choose': {
        const [a, b] = found.matches;
        this.pending = [a.entry, b.entry];
        return say(`Do you mean, ${topicOf(a.entry)}, or ${topicOf(b.entry)}?`);
      }
      case 'none':
        break;
    }
    if (intake && intake.stage !== 'done' && this.briefIntent.describesSymptoms(n)) {
      this.offeredFor = n;
      return say(
        'I am sorry to hear that. I cannot advise on it, but I can note it in a short brief for your visit. Shall I?',
      );
    }
    const answer = yesNo(n);
    if (answer === 'yes') return say('Okay. What would you like to know?');
    if (answer === 'no') return say('Alright. Is there anything else I can help with?');
    this.couldNotAnswer = true;
    return say(`I am sorry, I do not know the answer to that. ${this.capabilities()}`);
  }

  /** Which of an utterance's readings to act on: see {@link ReadingChooser}. */
  chooseReading(
    readings: readonly string[],
    answerable = readings.length,
    independentFrom = readings.length,
  ): ReadingChoice {
    return this.readings.choose(readings, answerable, independentFrom);
  }

  /** See `LocalReplyEngine.missedEmergency`. */
  missedEmergency(answered: string, readings: readonly string[]): number {
    return this.readings.missedEmergency(answered, readings);
  }

  /** Whether the words ask for the brief (its trigger phrases, or in other words). */
  private asksForBrief(n: string): boolean {
    const intake = this.intake;
    return intake !== undefined && (intake.triggeredBy(n) || this.briefIntent.asksForBrief(n));
  }

  /**
   * The urgent entry the caller's words call for: one matched in the knowledge base, or, when
   * an emergency phrase is heard in any words, the assistant's urgent entry (the built-in
   * emergency answer when it has none).
   */
  private urgentEntry(n: string, soundSlips = false): KnowledgeEntry | undefined {
    const matched = this.kb.urgent(n);
    if (matched) return matched.entry;
    if (this.emergency.detect(n, { soundSlips }) === undefined) return undefined;
    return this.kb.urgentEntries()[0] ?? BUILT_IN_EMERGENCY;
  }

  /**
   * The caller's reply to "Do you mean …?" (one entry) or "Do you mean A, or B?" (two):
   * "yes", "the first one", "the second", "both", words that pick one of them, or "no".
   * Undefined when the reply is about something else: it is then taken as a new question.
   */
  private settle(n: string, pending: readonly KnowledgeEntry[]): Turn | undefined {
    const [first, second] = pending;
    if (!first) return undefined;
    const answer = yesNo(n);
    const ws = n.split(' ');
    if (second !== undefined) {
      const pick = pickOfTwo(n, this.lexicon);
      if (pick === 'both') {
        this.answer(second);
        return say(`${this.answer(first).text} ${second.answer}`);
      }
      if (pick === 'second') return this.answer(second);
      if (pick === 'first') return this.answer(first);
      const [best, next] = this.kb.rank(n, (e) => e === first || e === second);
      if (best && best.firmInQuestions && (next === undefined || best.score > next.score)) {
        return this.answer(best.entry);
      }
      if (answer === 'yes' || pick === 'unsure') {
        this.pending = [first, second];
        return say(`Sorry, which do you mean: ${shortTopicOf(first)}, or ${shortTopicOf(second)}?`);
      }
    } else {
      if (answer === 'yes' || (answer !== 'no' && ws.some((w) => FIRST_CHOICE.has(w)))) {
        return this.answer(first);
      }
    }
    if (answer === 'no' && this.kb.retrieve(n).kind === 'none') {
      return say('Sorry about that. Could you ask it in other words?');
    }
    return undefined;
  }

  /**
   * An urgent entry is not asked about: where the caller would be asked "Do you mean, you
   * have chest pain?" (the words only resemble it, "i am cast pain", or the recogniser
   * doubted them), they are told what to do in an emergency at once, and then asked to say
   * again what they need if it is not one (or asked about the other topic, when two were
   * close). A caller in trouble must not wait a turn for the instruction; one who was not
   * hears a conditional warning and goes on. The call is flagged urgent, as for any
   * emergency answer: the team would rather look at a call that was not one than miss one
   * that was. Not for words asked as a question ("can you call me a taxi", near a vet's
   * "call" for a pet in danger): a caller in trouble says what has happened, and a question
   * only resembling the urgent entry is asked about as any other. On the team's own lines
   * in five voices (`bench/lib/offline-own-lines.mjs`): 104 of 105 emergencies answered at
   * once instead of 103 ("my chest is hurting really badly" heard as "my chest in third
   * and really badly" had been asked about), for 1 more false alarm in 460 paraphrases and
   * 320 off-topic lines (4 more without the exception for questions).
   */
  private unsureOfUrgent(n: string, found: Retrieval, doubtful: boolean): Turn | undefined {
    if (found.kind === 'none' || (found.kind === 'answer' && !doubtful)) return undefined;
    if (isQuestion(n)) return undefined;
    const offered =
      found.kind === 'choose' ? found.matches.map((m) => m.entry) : [found.match.entry];
    const urgent = offered.find((e) => e.urgent === true);
    if (urgent === undefined) return undefined;
    const warning = this.answer(urgent).text;
    const other = offered.find((e) => e.urgent !== true);
    if (other !== undefined) {
      this.pending = [other];
      return say(`${warning} If it is not an emergency, do you mean, ${topicOf(other)}?`);
    }
    return say(`${warning} If it is not an emergency, could you tell me again what you need?`);
  }

  private answer(entry: KnowledgeEntry): Turn {
    this.noteTopic(entry.id);
    if (entry.urgent === true) this.urgentValue = true;
    return say(entry.answer);
  }

  private noteTopic(id: string): void {
    if (!this.topics.includes(id)) this.topics.push(id);
  }

  /** "I can answer questions about hours, address, parking, insurance and more…" */
  private capabilities(): string {
    const topics = this.kb.topics().map(shortTopicOf);
    const brief = this.intake ? 'take a short brief before your visit' : '';
    if (topics.length === 0) {
      return brief === '' ? 'I can take a message for the team.' : `I can ${brief}.`;
    }
    const shown = topics.length > 4 ? [...topics.slice(0, 4), 'more'] : topics;
    const list = `${shown.slice(0, -1).join(', ')}${shown.length > 1 ? ' and ' : ''}${shown[shown.length - 1] ?? ''}`;
    return `I can answer questions about ${list}${brief === '' ? '' : `, or ${brief}`}.`;
  }

  /** What the call produced. */
  conclusion(): CallConclusion {
    const brief = this.intake?.brief() ?? {};
    const confirmed = this.intake?.confirmed ?? false;
    const isUrgent = (id: string) => (this.kb.get(id) ?? BUILT_IN_EMERGENCY).urgent === true;
    const asked = this.topics.filter((id) => !isUrgent(id));
    const urgentTopics = this.topics.filter(isUrgent);
    const labels = asked.map((id) => {
      const entry = this.kb.get(id);
      return entry ? shortTopicOf(entry) : id;
    });

    let first: string;
    if (this.turns === 0) first = 'The caller did not say anything';
    else if (labels.length === 0) first = 'The caller asked no knowledge-base questions';
    else first = `The caller asked about ${joinAnd(labels)}`;
    const answered = this.intake?.answered ?? 0;
    const total = this.intake?.questions.length ?? 0;
    let briefPart: string;
    if (confirmed) briefPart = 'a pre-visit brief was taken and confirmed';
    else if (answered > 0)
      briefPart = `a pre-visit brief was started but not confirmed (${answered} of ${total} answers)`;
    else briefPart = 'no brief was taken';
    let summary = `${first}, and ${briefPart}.`;
    if (this.urgentValue) {
      summary += ` Flagged urgent: the caller mentioned ${joinAnd(urgentTopics.length > 0 ? urgentTopics : ['an urgent concern'])}.`;
    }
    return {
      summary,
      structuredData: {
        brief,
        confirmed,
        topics: [...this.topics],
        urgent: this.urgentValue,
        unanswered: [...this.unanswered],
      },
    };
  }
}

function say(text: string): Turn {
  return { text, endCall: false };
}

/** Whether the assistant's last words offered the brief ("…or take a short brief…"). */
function offersBrief(heard: string): boolean {
  return /\bbrief\b/i.test(heard);
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}
