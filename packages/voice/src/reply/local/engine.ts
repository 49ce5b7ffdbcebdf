import type { AssistantDto } from '@talkbooth/protocol';
import { splitSentences } from '../sentences.js';
import { greetingOf } from '../template.js';
import type { CallConclusion, ChatMessage, ReplyEngine, ReplyEvent } from '../types.js';
import { Dialog, type RespondOptions, type Turn } from './dialog.js';
import { BriefIntent } from './brief-intent.js';
import { EmergencyDetector } from './emergency.js';
import { IntakeFlow } from './intake.js';
import { isGoodbye, smallTalk, yesNo } from './intents.js';
import { KnowledgeBase } from './knowledge/knowledge-base.js';
import type { RetrievalThresholds } from './knowledge/tuning.js';
import { sentenceEncoder, type SentenceEncoder } from './semantic/sentence-encoder.js';
import { normalize, STOP_WORDS, stripFillers } from './text.js';

export interface LocalReplyEngineOptions {
  assistant: AssistantDto;
  /** Values for `{{variable}}` in the first message. */
  variableValues?: Record<string, unknown>;
  /** Overrides of the retrieval thresholds (0–1). */
  thresholds?: Partial<RetrievalThresholds>;
  /**
   * What weighs the meaning of a caller's sentence beside its words (default: the
   * process's Universal Sentence Encoder); `null` matches by words alone.
   */
  encoder?: SentenceEncoder | null;
}

/**
 * The embedded reply engine: answers from the assistant's knowledge base (`model.knowledge`)
 * by ranked retrieval, takes the pre-visit brief (`model.intake`), and handles small talk.
 * Deterministic and offline.
 *
 * Each call of `reply` replays the caller's turns of the history through a {@link Dialog},
 * so it can also take over a call half-way (when a hosted engine fails) and `conclude`
 * sees exactly what the replies did. It remembers which caller turns were readings it
 * chose with doubt (see `choose`), so a replay asks about them again rather than
 * answering, and the dialog its last replay left, which the next one carries on from when
 * the history only adds turns to the one it heard (see `replay`).
 */
export class LocalReplyEngine implements ReplyEngine {
  readonly provider = 'local';
  private readonly assistant: AssistantDto;
  private readonly greetingText: string | null;
  private readonly knowledge: KnowledgeBase;
  private readonly emergency = EmergencyDetector.default();
  private readonly briefIntent = new BriefIntent();
  /** Caller turns (their order among the history's user messages) read with doubt. */
  private readonly doubtfulTurns = new Set<number>();
  /** Caller turns whose reading is a spelling recogniser's (see `ReadingChoice.spelled`). */
  private readonly spelledTurns = new Set<number>();
  /** The dialog the last replay left, and the caller turns it heard (see `replay`). */
  private replayed: Replayed | null = null;

  constructor(options: LocalReplyEngineOptions) {
    this.assistant = options.assistant;
    this.greetingText = greetingOf(options.assistant.firstMessage, options.variableValues);
    const encoder = options.encoder === undefined ? sentenceEncoder() : options.encoder;
    this.knowledge = new KnowledgeBase(options.assistant.model?.knowledge ?? [], {
      thresholds: options.thresholds,
      ...(encoder === null ? {} : { encoder }),
    });
  }

  greeting(): string | null {
    return this.greetingText;
  }

  /**
   * Encodes the knowledge base's entries (kept for every later engine of the same
   * knowledge base), which the first caller's first turn would otherwise wait for: about
   * half a second for the demo clinic.
   */
  warm(): Promise<void> {
    return this.knowledge.prepare([]);
  }

  async *reply(history: readonly ChatMessage[], signal: AbortSignal): AsyncGenerator<ReplyEvent> {
    if (signal.aborted) return;
    const last = history[history.length - 1];
    if (last?.role !== 'user') return;
    // The meaning of every caller turn, so the replay weighs it (earlier turns are cached).
    await this.knowledge.prepare(
      history.filter((m) => m.role === 'user').map((m) => stripFillers(normalize(m.content))),
    );
    if (signal.aborted) return;
    const { turn } = this.replay(history);
    if (!turn) return;
    const sentences = splitSentences(turn.text, { clean: false });
    for (const [i, sentence] of sentences.entries()) {
      if (signal.aborted) return;
      // Deltas: the sentences joined must read as the whole reply.
      yield { type: 'text', text: i < sentences.length - 1 ? `${sentence} ` : sentence };
    }
    if (turn.endCall && !signal.aborted) yield { type: 'end-call' };
  }

  /**
   * Whether the caller's words so far already make a whole turn, so the session may end it
   * after a shorter silence: a short yes or no, a goodbye, small talk, or a knowledge
   * question it is sure of that does not stop on a little word ("where is the…").
   * Answers to the brief are free text: they get the normal silence.
   */
  isComplete(text: string): boolean {
    const n = stripFillers(normalize(text));
    if (n === '') return false;
    const ws = n.split(' ');
    if (ws.length <= 3 && yesNo(n) !== undefined) return true;
    if (isGoodbye(n, this.assistant.endCallPhrases) || smallTalk(n) !== undefined) return true;
    if (STOP_WORDS.has(ws[ws.length - 1] ?? '')) return false;
    return (
      this.knowledge.urgent(n) !== undefined ||
      this.emergency.detect(n) !== undefined ||
      this.knowledge.retrieve(n).kind === 'answer'
    );
  }

  /**
   * The meaning of the readings `choose` may answer: the recogniser's best and its
   * alternatives, and the second recogniser's readings. Without it `choose` weighs their
   * words alone, and a question the words only ask about but meaning settles ("my
   * prescription is about to run out") was heard right by Moonshine yet not answered. (The
   * second recogniser's other readings cost about 15–20 ms more to encode, on the turns it
   * reads; by their words alone they answered 2 more of our own questions instead of 14.)
   */
  prepareReadings(
    readings: readonly string[],
    answerable = readings.length,
    independentFrom = readings.length,
  ): Promise<void> {
    const candidates = [...readings.slice(0, answerable), ...readings.slice(independentFrom)];
    return this.knowledge.prepare(candidates.map((r) => stripFillers(normalize(r))));
  }

  /**
   * Of several readings of one utterance, the one this engine can act on: an emergency in
   * any reading first (safety over precision; but one only the first recogniser's later
   * readings guessed is held back when the second recogniser heard a question), then a
   * sure knowledge-base answer, when the recogniser's best reading gets none (the second
   * recogniser's best, or another of its readings whose words the knowledge base knows).
   * Otherwise the best reading (index 0). While the brief is active its answers are free
   * speech: the best reading stands, unless the second recogniser's is more like the
   * answers to the question asked. A knowledge
   * answer found only in a later reading whose topic the best reading does not share is
   * chosen with doubt: its reply asks "Do you mean …?" instead of answering; where a second
   * recogniser read the utterance too, such a reading is only ever asked about, and only
   * when the second's reading would ask about the same entry. Meaning counts for the
   * readings readied by `prepareReadings`; the others are weighed by their words.
   */
  choose(
    readings: readonly string[],
    history: readonly ChatMessage[],
    answerable = readings.length,
    independentFrom = readings.length,
  ): number {
    const { dialog } = this.replay(history);
    const choice = dialog.chooseReading(readings, answerable, independentFrom);
    const turn = history.filter((message) => message.role === 'user').length;
    if (choice.doubtful === true) this.doubtfulTurns.add(turn);
    else this.doubtfulTurns.delete(turn);
    if (choice.spelled === true) this.spelledTurns.add(turn);
    else this.spelledTurns.delete(turn);
    return choice.index;
  }

  /**
   * An emergency heard only in the second recogniser's reading of the whole turn, after
   * the turn was answered as `answered` (see `ReplyEngine.missedEmergency`): the reading
   * with one, unless the answered words already had one. As in `choose`, a word of its
   * phrase that sounds a phone off counts, and the turn's reply hears it so.
   */
  missedEmergency(
    answered: string,
    readings: readonly string[],
    history: readonly ChatMessage[],
  ): number {
    const turn = history.filter((message) => message.role === 'user').length;
    if (this.spelledTurns.has(turn)) return -1;
    const { dialog } = this.replay(history);
    const index = dialog.missedEmergency(answered, readings);
    if (index >= 0) {
      this.spelledTurns.add(turn);
      this.doubtfulTurns.delete(turn);
    }
    return index;
  }

  conclude(history: readonly ChatMessage[]): CallConclusion {
    return this.replay(history).dialog.conclusion();
  }

  /**
   * The dialog that heard every caller turn of the history, and its reply to the last.
   * A call asks for the same turns two or three times a turn (`choose`, `reply`,
   * `missedEmergency`) and for one more each turn, so replaying them all each time made a
   * reply's cost grow with the call's length (about 2 ms after 13 turns, against 0.2 ms on
   * the first): the dialog the last replay left carries on when the history is the one it
   * heard with turns added, and a fresh dialog replays it all otherwise (a turn's words
   * corrected, its reading's doubt changed, an assistant message in between edited, or
   * another history). The dialog is deterministic, so both give the same replies.
   */
  private replay(history: readonly ChatMessage[]): { dialog: Dialog; turn: Turn | undefined } {
    const turns = this.callerTurns(history);
    let replayed = this.replayed;
    // Cleared while the dialog is advanced: a turn that throws leaves no half-heard dialog.
    this.replayed = null;
    // It carries on only where every turn it heard is the history's turn in its place.
    if (replayed === null || replayed.heard.some((key, i) => key !== turns[i]?.key)) {
      replayed = { dialog: this.newDialog(), heard: [], turn: undefined };
    }
    for (const turn of turns.slice(replayed.heard.length)) {
      replayed.turn = replayed.dialog.respond(turn.text, turn.lastAssistant, turn.options);
      replayed.heard.push(turn.key);
    }
    this.replayed = replayed;
    return { dialog: replayed.dialog, turn: replayed.turn };
  }

  /** The caller turns of a history, each with all that its reply depends on (its `key`). */
  private callerTurns(history: readonly ChatMessage[]): CallerTurn[] {
    const turns: CallerTurn[] = [];
    let lastAssistant: string | undefined;
    for (const message of history) {
      if (message.role === 'assistant') {
        // An empty message (a reply cut off before its first word) said nothing.
        if (message.content.trim() !== '') lastAssistant = message.content;
      } else if (message.role === 'user') {
        const options = {
          doubtful: this.doubtfulTurns.has(turns.length),
          spelled: this.spelledTurns.has(turns.length),
        };
        const key = JSON.stringify([message.content, lastAssistant ?? null, options]);
        turns.push({ text: message.content, lastAssistant, options, key });
        lastAssistant = undefined;
      }
    }
    return turns;
  }

  private newDialog(): Dialog {
    const model = this.assistant.model;
    return new Dialog({
      knowledge: this.knowledge,
      emergency: this.emergency,
      briefIntent: this.briefIntent,
      // An intake without questions is no brief: asking for one is not understood as such.
      intake:
        model?.intake && model.intake.questions.length > 0
          ? new IntakeFlow(model.intake)
          : undefined,
      greeting: this.greetingText,
      endCallMessage: this.assistant.endCallMessage,
      endCallPhrases: this.assistant.endCallPhrases,
    });
  }
}

/** A dialog and the caller turns it has heard, by their `CallerTurn.key`. */
interface Replayed {
  dialog: Dialog;
  heard: string[];
  /** Its reply to the last of them. */
  turn: Turn | undefined;
}

interface CallerTurn {
  text: string;
  /** What the assistant said last before it (its non-empty message since the previous turn). */
  lastAssistant: string | undefined;
  options: RespondOptions;
  /** The turn's words, what it followed and its reading's doubt: all its reply depends on. */
  key: string;
}
