/**
 * The local engine's conversation: one `respond` per caller utterance, in order. It keeps
 * what the call has produced (topics asked, the brief, the urgent flag). Deterministic, so
 * the engine can rebuild it from the history at any turn.
 *
 * Order of precedence for an utterance:
 *   1. goodbye / end-call phrases          → end-call message, end the call
 *   2. an urgent entry (lower threshold)   → its answer, always (the brief goes on after it)
 *   3. the brief, while it is active       → repeat / stop / a knowledge question / the brief
 *   4. "yes" or "no" to "Do you mean …?"   → that entry's answer / ask to rephrase
 *   5. "no" to "anything else?"            → end the call
 *   6. a brief trigger, or "yes" to an offer of the brief → start (or resume) the brief
 *   7. small talk                          → greeting, thanks, repeat, what I can do
 *   8. the knowledge base                  → answer / "Do you mean …?" / "I do not know"
 */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import type { CallConclusion } from '../types.js';
import type { IntakeFlow } from './intake.js';
import { isGoodbye, isNothingElse, isQuestion, isStopBrief, smallTalk, yesNo } from './intents.js';
import { type KnowledgeBase, shortTopicOf, topicOf } from './knowledge.js';
import { normalize, stripFillers } from './text.js';

export interface DialogConfig {
  knowledge: KnowledgeBase;
  intake?: IntakeFlow;
  greeting: string | null;
  endCallMessage?: string;
  endCallPhrases?: readonly string[];
}

export interface Turn {
  text: string;
  endCall: boolean;
}

const DEFAULT_END_CALL_MESSAGE = 'Thank you for calling. Goodbye.';

export class Dialog {
  private readonly kb: KnowledgeBase;
  private readonly intake: IntakeFlow | undefined;
  private readonly endCallMessage: string;
  private readonly endCallPhrases: readonly string[];
  /** Entry ids answered, in order, once each. */
  private readonly topics: string[] = [];
  private urgentValue = false;
  /** The entry offered in "Do you mean …?", waiting for yes or no. */
  private pending: KnowledgeEntry | undefined;
  private lastSaid: string;
  private turns = 0;

  constructor(config: DialogConfig) {
    this.kb = config.knowledge;
    this.intake = config.intake;
    this.endCallMessage = config.endCallMessage?.trim() || DEFAULT_END_CALL_MESSAGE;
    this.endCallPhrases = config.endCallPhrases ?? [];
    this.lastSaid = config.greeting ?? '';
  }

  /**
   * The reply to one caller utterance. `lastAssistant` is what the assistant said just
   * before it, when the caller's history has it (else the dialog's own last reply).
   */
  respond(utterance: string, lastAssistant?: string): Turn {
    this.turns += 1;
    const heard = lastAssistant ?? this.lastSaid;
    const pending = this.pending;
    this.pending = undefined;
    const turn = this.decide(stripFillers(normalize(utterance)), heard, pending);
    this.lastSaid = turn.text;
    return turn;
  }

  private decide(n: string, heard: string, pending: KnowledgeEntry | undefined): Turn {
    const intake = this.intake;
    if (n === '') return say('Sorry, I did not catch that. Could you say it again?');

    if (isGoodbye(n, this.endCallPhrases)) return { text: this.endCallMessage, endCall: true };

    const urgent = this.kb.urgent(n);
    if (urgent) {
      this.urgentValue = true;
      this.noteTopic(urgent.entry.id);
      if (intake?.active) {
        // Urgent first; the brief keeps what they said (it is usually the reason).
        const next =
          intake.stage === 'asking' && !isQuestion(n) ? intake.answer(n) : intake.prompt();
        return say(
          `${urgent.entry.answer} If it is not an emergency, we can go on with your brief. ${next}`,
        );
      }
      return say(urgent.entry.answer);
    }

    if (intake?.active) {
      const intent = smallTalk(n);
      if (intent === 'repeat') return say(intake.prompt());
      if (intent === 'thanks') return say(`You are welcome. ${intake.prompt()}`);
      if (intent === 'greeting') return say(`Hello. ${intake.prompt()}`);
      if (isStopBrief(n)) {
        intake.pause();
        return say('Okay, I stopped the brief. We can go on with it later. How else can I help?');
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
      const answer = yesNo(n);
      if (answer === 'yes') return this.answer(pending);
      if (answer === 'no' && this.kb.retrieve(n).kind === 'none') {
        return say('Sorry about that. Could you ask it in other words?');
      }
    }

    if (/\banything else\b/i.test(heard) && isNothingElse(n)) {
      return { text: this.endCallMessage, endCall: true };
    }

    if (
      intake &&
      (intake.triggeredBy(n) ||
        (yesNo(n) === 'yes' && offersBrief(heard) && intake.stage !== 'done'))
    ) {
      return say(intake.start());
    }

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

    const found = this.kb.retrieve(n);
    switch (found.kind) {
      case 'answer':
        return this.answer(found.match.entry);
      case 'clarify':
        this.pending = found.match.entry;
        return say(
          `Sorry, I am not sure I understood. Do you mean, ${topicOf(found.match.entry)}?`,
        );
      case 'none':
        break;
    }
    const answer = yesNo(n);
    if (answer === 'yes') return say('Okay. What would you like to know?');
    if (answer === 'no') return say('Alright. Is there anything else I can help with?');
    return say(`I am sorry, I do not know the answer to that. ${this.capabilities()}`);
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
    const asked = this.topics.filter((id) => this.kb.get(id)?.urgent !== true);
    const urgentTopics = this.topics.filter((id) => this.kb.get(id)?.urgent === true);
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
      structuredData: { brief, confirmed, topics: [...this.topics], urgent: this.urgentValue },
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
