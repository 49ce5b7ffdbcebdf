/**
 * Speech recognition. A recogniser is prepared once per assistant (with its domain
 * language model) and opens one stream per caller utterance; audio is pushed while the
 * caller speaks, so the final result is ready moments after they stop.
 */
/**
 * Which model produced a reading: pocketsphinx's search with the assistant's domain
 * language model or its general fallback, or the neural recogniser (Moonshine).
 */
export type RecognitionModel = 'domain' | 'general' | 'neural';

export interface RecognitionResult {
  text: string;
  /** Which model produced it. */
  model: RecognitionModel;
  /**
   * Other readings of the same audio, most likely first (pocketsphinx: what the domain
   * model heard when the general model's answer was taken). A reply engine may understand
   * one of them better (see `ReplyEngine.choose`).
   */
  alternatives?: string[];
  /**
   * Less likely readings still (pocketsphinx: the domain model's N-best list), for checks
   * that must not miss anything, such as an emergency; never a reading to answer from.
   */
  hypotheses?: string[];
  /**
   * Readings of the same audio by a second, independent recogniser (Moonshine, on an
   * utterance pocketsphinx doubted: its best, then where it nearly heard otherwise; one
   * the first recogniser also gave included, as both hearing it is evidence), for
   * the emergency check: an emergency heard in one of them is enough, as two different
   * recognisers rarely make the same slip. The reply engine answers a question from the
   * first when the recogniser's own best reading answers none outright.
   */
  secondOpinion?: string[];
  /**
   * The recogniser did not trust `text` and had no better reading to give (pocketsphinx
   * with its general model off: a domain reading below its bar). A second recogniser's
   * reading, when there is one, should be answered before it (`SecondOpinionRecognizer`).
   */
  unsure?: boolean;
  /**
   * The second recogniser's readings of the whole utterance, settling after this result
   * (never rejecting; [] when there are none new): where `secondOpinion` was read at the
   * caller's latest pause, so the turn could be answered at once, this reading of every
   * frame, the quiet that ended the turn included, is for the emergency check only. The
   * session raises an emergency heard only in it (`ReplyEngine.missedEmergency`), cutting
   * short the reply it already began.
   */
  recheck?: Promise<string[]>;
  /**
   * Where the wait for this result went after the turn ended, when it was measured: what
   * the session's `recognitionMs` is made of (see `RecognitionWaits`).
   */
  waits?: RecognitionWaits;
  /**
   * What the recogniser learned about the caller's channel (microphone, level, voice)
   * from this utterance, to hand to the next `open()` of the same call.
   */
  channel?: ChannelEstimate;
}

/**
 * The parts of the wait between the end of a caller's turn and its recognition, each in ms
 * and present only where that part exists.
 */
export interface RecognitionWaits {
  /**
   * A recogniser on a thread of its own: how long the turn's end waited behind that
   * thread's earlier work (the frames of this and the other calls on it) before its
   * decoding could finish. Long when the thread cannot keep up with its calls.
   */
  queuedMs?: number;
  /**
   * The same thread's own finishing of the turn: waiting for a general decoder, catching
   * up on audio it had not decoded yet, the last decoding.
   */
  decodingMs?: number;
  /**
   * A second recogniser's reading (`secondOpinion`) waited for after the first's result
   * was in: its thread was busy with other calls' readings, or it began late.
   */
  secondOpinionMs?: number;
}

/**
 * A recogniser's estimate of a caller's channel, opaque to everyone else. It belongs to
 * one call: passed from an utterance's result to the call's next `open()`, never to
 * another call, so what one caller sounded like never shapes how another is heard.
 */
export interface ChannelEstimate {
  /** The recogniser that made it (another ignores it). */
  readonly provider: string;
  readonly values: readonly number[];
}

export interface RecognitionOptions {
  /** The channel estimate of the call's previous utterance, if any. */
  channel?: ChannelEstimate;
  /**
   * What the assistant said just before (its question): a recogniser may expect an
   * answer to it (pocketsphinx: the question's own language model, for intake questions).
   */
  question?: string;
  /**
   * The call's previous utterance was not heard by the recogniser's first model (its
   * `model` was not `domain`): a caller who says things in their own words tends to go on
   * doing so, so a recogniser with a fallback may run it from the start of this one instead
   * of waiting to doubt the first (pocketsphinx: the general decoder decodes beside the
   * domain one, and is not a whole utterance behind when the turn ends).
   */
  expectFallback?: boolean;
}

export interface RecognitionStream {
  /** Feeds one 20 ms frame (16 kHz, 320 samples). */
  push(frame: Int16Array): void;
  /** The best hypothesis so far ('' when nothing yet). */
  partial(): string;
  /**
   * Optional: how sure the recogniser is of the words so far (0–1; pocketsphinx: its domain
   * model's confidence, 0 once it doubted them); undefined when it cannot tell yet.
   */
  confidenceSoFar?(): number | undefined;
  /**
   * Optional: the caller has been quiet for `quietMs` (the end of the audio so far) and the
   * utterance may be over. Called again after each new stretch of speech, so when
   * `finish()` follows, nothing after the latest pause was speech. A recogniser may start
   * reading the utterance here rather than at `finish()`; it then answers the readings it
   * expects `finish()` to give should the turn end at this pause (its best first; never
   * rejecting, [] when it has none), so the session can ready what it will need to answer
   * them while the quiet that ends the turn goes by.
   */
  pause?(quietMs: number): Promise<string[]> | void;
  /**
   * Ends the utterance and answers the final hypothesis. The stream is done afterwards.
   * A recogniser that reads the whole utterance at once (Moonshine) answers a promise;
   * one that decoded while the caller spoke (pocketsphinx) answers at once.
   */
  finish(): RecognitionResult | Promise<RecognitionResult>;
  /** Drops the utterance (for example when the call ends mid-sentence). */
  cancel(): void;
}

export interface SpeechRecognizer {
  /** The provider that actually runs, for the call record (e.g. `pocketsphinx`). */
  readonly provider: string;
  /** Opens one utterance; the same audio with the same options gives the same words. */
  open(options?: RecognitionOptions): RecognitionStream;
  /**
   * Optional: readies what one more live call will need (pocketsphinx: a decoder pair,
   * made off the event loop) so its first `open()` does not make it on the spot. Answers
   * the function that gives the reservation back when the call ends.
   */
  reserve?(): () => void;
  dispose(): void;
}

/** What the domain language model is built from. */
export interface DomainVocabulary {
  /** Sentences the caller is likely to say (knowledge-base questions, intake answers…). */
  sentences: string[];
  /** Extra words or phrases to favour (`transcriber.keywords`, without boosts). */
  keywords: string[];
  /**
   * Questions the assistant asks the caller (intake questions…): the caller's likely
   * answers to them ("do you have any allergies" → "no i do not have any allergies") are
   * added to the model. Optional.
   */
  assistantQuestions?: string[];
}
