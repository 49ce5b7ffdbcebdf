/**
 * Replies: what the assistant says. Engines stream text so speech can start with the first
 * sentence; the session speaks sentence by sentence.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ReplyEvent =
  /** More of the reply's text. */
  | { type: 'text'; text: string }
  /** End the call once everything said so far has been spoken. */
  | { type: 'end-call' };

export interface ReplyEngine {
  /** The provider that actually runs, for the call record (`local`, `openai`, `custom-llm`). */
  readonly provider: string;
  /** The first thing the assistant says (`firstMessage` with variables filled), if anything. */
  greeting(): string | null;
  /**
   * The reply to what the caller just said. `history` is the conversation so far, the
   * caller's new message last. Stops early when `signal` aborts (barge-in, hang-up).
   */
  reply(history: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<ReplyEvent>;
  /** What the call produced, for the call record, once it is over. */
  conclude(history: readonly ChatMessage[]): CallConclusion;
  /**
   * Optional: true when `text` (the caller's words so far) is already a complete turn,
   * so the session may end the turn after a shorter silence.
   */
  isComplete?(text: string): boolean;
  /**
   * Optional: which of several readings of the caller's words (the recogniser's best first,
   * then its alternatives) this engine understands best, as an index. `history` is the
   * conversation before these words. The session records and answers that reading.
   * Readings from index `answerable` on (default: none) are the recogniser's less likely
   * hypotheses: only an emergency heard in them may make one the choice. Readings from
   * index `independentFrom` on (default: none) are a second recogniser's: an emergency
   * heard in one of them is enough on its own (a word of it a phone off a phrase's word
   * included), one sounding most like an emergency among the first recogniser's readings
   * makes that one the choice, and the first of them, when it is a question answered
   * outright and the best reading answers nothing outright, is answered (and holds back
   * an alarm heard only in the hypotheses).
   */
  choose?(
    readings: readonly string[],
    history: readonly ChatMessage[],
    answerable?: number,
    independentFrom?: number,
  ): number;
  /**
   * Optional: an emergency heard only in a second recogniser's later `readings` of the
   * caller's last turn (`RecognitionResult.recheck`), which was answered as `answered`:
   * the index of the reading that calls for the urgent answer `answered` did not get, or
   * -1. `history` is the conversation before that turn. The same rule as `choose` for a
   * second recogniser's readings: one emergency heard in one of them is enough.
   */
  missedEmergency?(
    answered: string,
    readings: readonly string[],
    history: readonly ChatMessage[],
  ): number;
  /**
   * Optional: readies what `choose` weighs for the same readings, so that `choose` itself
   * can stay synchronous (the local engine: the sentence meaning of each reading it might
   * answer). The session awaits it first; when it fails, `choose` goes without.
   */
  prepareReadings?(
    readings: readonly string[],
    answerable?: number,
    independentFrom?: number,
  ): Promise<void>;
}

export interface CallConclusion {
  /** A short summary of the call for the record. */
  summary: string;
  /** Structured results, e.g. the pre-visit brief by question id. */
  structuredData?: Record<string, unknown>;
}
