/**
 * What the event loop and a denoise thread say to each other (see `denoise-threads.ts`).
 * Suppressors (one per call) are numbered by the event loop. Frames travel in batches: every
 * frame any call gave in one turn of the event loop, in one message each way.
 */

export interface FrameBatch {
  /** Whose each frame is, in order. */
  ids: Int32Array<ArrayBuffer>;
  /** The frames, 320 samples each, one after another (its buffer is transferred). */
  samples: Int16Array<ArrayBuffer>;
}

export type ToDenoiser =
  /** Suppressors to make, then frames to clean, then suppressors to free, in that order. */
  { type: 'batch'; opens: number[]; frames: FrameBatch; closes: number[] } | { type: 'close' };

export type FromDenoiser =
  /** The thread is up, RNNoise loaded. */
  | { type: 'ready' }
  /** A batch's frames cleaned, in the order they came (one that failed comes back as it was). */
  | { type: 'cleaned'; frames: FrameBatch; failures: string[] };
