/** Voice activity detection on 20 ms caller frames (16 kHz, 320 samples). */
export interface VoiceActivityDetector {
  /** True when the frame holds speech. */
  isSpeech(frame: Int16Array): boolean;
  /** Frees native or WASM memory; the detector is unusable afterwards. */
  dispose(): void;
}
