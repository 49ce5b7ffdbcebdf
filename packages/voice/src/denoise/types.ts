/** Noise suppression on 20 ms caller frames (16 kHz, 320 samples), on the calling thread. */
export interface NoiseSuppressor {
  /** The cleaned frame, same length and rate. May lag the input by a few milliseconds. */
  process(frame: Int16Array): Int16Array;
  dispose(): void;
}

/**
 * Noise suppression done elsewhere (a worker thread, see `threads/denoise-threads.ts`): each
 * frame comes back cleaned, later, in the order it was given. It never fails a frame: one it
 * could not clean (its thread died) comes back as it was.
 */
export interface OffThreadNoiseSuppressor {
  clean(frame: Int16Array): Promise<Int16Array>;
  dispose(): void;
}

export type AnyNoiseSuppressor = NoiseSuppressor | OffThreadNoiseSuppressor;

export function cleansOffThread(
  suppressor: AnyNoiseSuppressor,
): suppressor is OffThreadNoiseSuppressor {
  return 'clean' in suppressor;
}
