/**
 * Keeps a caller's audio at the speed of speech. A microphone makes 1 s of audio per
 * second; a client that sends faster (a bug, or somebody flooding) would have the server
 * denoise, detect and recognise many seconds per second for one call, and every other
 * call would stall behind it (10× for 15 s stalled the others for 4–5 s before this).
 *
 * A token bucket in milliseconds of audio: it fills at real time up to `burstMs`, the lead
 * a client may build up after a network stall (a burst of buffered frames). Audio beyond
 * that is dropped unprocessed; once more than `maxDroppedMs` has been dropped in all, the
 * client is not a microphone, and the call should end.
 */

export interface AudioPacerOptions {
  /** How far ahead of real time a caller may get (the bucket's size). Default 2000 ms. */
  burstMs?: number;
  /** Audio dropped in all before the caller counts as too fast. Default 5000 ms. */
  maxDroppedMs?: number;
  /** The clock, in ms (performance.now by default). */
  now?: () => number;
}

export type PacerVerdict = 'accept' | 'drop' | 'too-fast';

export const DEFAULT_BURST_MS = 2000;
export const DEFAULT_MAX_DROPPED_MS = 5000;

export class AudioPacer {
  private readonly burstMs: number;
  private readonly maxDroppedMs: number;
  private readonly now: () => number;
  private tokensMs: number;
  private last: number;
  /** Audio dropped so far, ms. */
  droppedMs = 0;

  constructor(options: AudioPacerOptions = {}) {
    this.burstMs = options.burstMs ?? DEFAULT_BURST_MS;
    this.maxDroppedMs = options.maxDroppedMs ?? DEFAULT_MAX_DROPPED_MS;
    this.now = options.now ?? (() => performance.now());
    this.tokensMs = this.burstMs;
    this.last = this.now();
  }

  /** Whether `durationMs` of audio arriving now may be processed. */
  take(durationMs: number): PacerVerdict {
    const at = this.now();
    this.tokensMs = Math.min(this.burstMs, this.tokensMs + (at - this.last));
    this.last = at;
    if (durationMs <= this.tokensMs) {
      this.tokensMs -= durationMs;
      return 'accept';
    }
    this.droppedMs += durationMs;
    return this.droppedMs > this.maxDroppedMs ? 'too-fast' : 'drop';
  }
}
