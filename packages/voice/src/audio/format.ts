/**
 * The audio formats of the voice engine. The caller's audio arrives as signed 16-bit
 * little-endian mono PCM at 16 kHz in 20 ms frames (the web-call wire protocol); the
 * recogniser and the voice activity detector work on exactly that.
 */
export const CALLER_SAMPLE_RATE = 16_000;
export const FRAME_MS = 20;
/** Samples in one 20 ms caller frame (320). */
export const FRAME_SAMPLES = (CALLER_SAMPLE_RATE * FRAME_MS) / 1000;
/** Bytes in one 20 ms caller frame on the wire (640). */
export const FRAME_BYTES = FRAME_SAMPLES * 2;

/** A block of mono 16-bit PCM and its sample rate. */
export interface PcmAudio {
  samples: Int16Array;
  sampleRate: number;
}
