/**
 * Speech recognition. A recogniser is prepared once per assistant (with its domain
 * language model) and opens one stream per caller utterance; audio is pushed while the
 * caller speaks, so the final result is ready moments after they stop.
 */
export interface RecognitionResult {
  text: string;
  /** Which search produced it: the assistant's domain model or the general fallback. */
  model: 'domain' | 'general';
  /**
   * Other readings of the same audio, most likely first (pocketsphinx: what the domain
   * model heard when the general model's answer was taken). A reply engine may understand
   * one of them better (see `ReplyEngine.choose`).
   */
  alternatives?: string[];
}

export interface RecognitionStream {
  /** Feeds one 20 ms frame (16 kHz, 320 samples). */
  push(frame: Int16Array): void;
  /** The best hypothesis so far ('' when nothing yet). */
  partial(): string;
  /** Ends the utterance and answers the final hypothesis. The stream is done afterwards. */
  finish(): RecognitionResult;
  /** Drops the utterance (for example when the call ends mid-sentence). */
  cancel(): void;
}

export interface SpeechRecognizer {
  /** The provider that actually runs, for the call record (e.g. `pocketsphinx`). */
  readonly provider: string;
  open(): RecognitionStream;
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
