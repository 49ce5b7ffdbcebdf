/** Noise suppression on 20 ms caller frames (16 kHz, 320 samples). */
export interface NoiseSuppressor {
  /** The cleaned frame, same length and rate. May lag the input by a few milliseconds. */
  process(frame: Int16Array): Int16Array;
  dispose(): void;
}
