/** Speech synthesis, streamed: the first chunk is playable long before the sentence ends. */
export interface SpeechSynthesizer {
  readonly provider: string;
  /** Rate of every chunk this synthesiser produces. */
  readonly sampleRate: number;
  /**
   * Speaks `text` with `voice` (provider-specific, e.g. eSpeak's `en-us`); yields mono
   * 16-bit chunks of about 100 ms. Stops early when `signal` aborts.
   */
  synthesize(
    text: string,
    options: { voice: string; signal?: AbortSignal },
  ): AsyncIterable<Int16Array>;
  dispose(): void;
}
