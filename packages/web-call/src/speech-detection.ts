/**
 * The assistant's speech and loudness, from its audio level, with the hosted SDK's rules:
 * the level is sampled every 100 ms; a sample above 0.01 is speech (speech-start once, until
 * speech-end); speech ends 1000 ms after the last sample above 0.01; the volume is the level
 * scaled so that 0.15 (loud speech) is full scale.
 */

/** How often the assistant's audio level is sampled (ms). */
export const AUDIO_LEVEL_INTERVAL_MS = 100;
/** A level above this is the assistant speaking. */
export const SPEECH_LEVEL_THRESHOLD = 0.01;
/** Speech ends this long after the last sample above the threshold (ms). */
export const SPEECH_END_DELAY_MS = 1000;
/** The level that is full volume (1) in `volume-level`. */
export const FULL_VOLUME_LEVEL = 0.15;

/** `volume-level`'s value for a level: min(1, level / 0.15), 0 for nonsense. */
export function volumeFromLevel(level: number): number {
  if (!Number.isFinite(level) || level <= 0) return 0;
  return Math.min(1, level / FULL_VOLUME_LEVEL);
}

/** What one sample changed. */
export interface SpeechSample {
  /** The `volume-level` to report for this sample. */
  volume: number;
  /** Speech that had gone quiet for the delay ended (reported before any new start). */
  speechEnd: boolean;
  /** Speech started with this sample. */
  speechStart: boolean;
}

/**
 * The speech rules as a small state machine driven by `(level, nowMs)`; no timers of its
 * own. The owner calls `sample` for every level sample and, to end speech on time when the
 * samples stop, `expire` at `speechEndDueAt`.
 */
export class SpeechDetector {
  private lastSpeechAt: number | null = null;

  /** True between speech-start and speech-end. */
  get speaking(): boolean {
    return this.lastSpeechAt !== null;
  }

  /** When speech ends if no louder sample comes (ms, the clock of `nowMs`); null when quiet. */
  get speechEndDueAt(): number | null {
    return this.lastSpeechAt === null ? null : this.lastSpeechAt + SPEECH_END_DELAY_MS;
  }

  sample(level: number, nowMs: number): SpeechSample {
    const speechEnd = this.expire(nowMs);
    let speechStart = false;
    if (Number.isFinite(level) && level > SPEECH_LEVEL_THRESHOLD) {
      speechStart = this.lastSpeechAt === null;
      this.lastSpeechAt = nowMs;
    }
    return { volume: volumeFromLevel(level), speechEnd, speechStart };
  }

  /** Ends speech if its delay has passed; true when it ended now. */
  expire(nowMs: number): boolean {
    const due = this.speechEndDueAt;
    if (due === null || nowMs < due) return false;
    this.lastSpeechAt = null;
    return true;
  }

  /** Forgets everything; true if speech was going on (the owner may report its end). */
  reset(): boolean {
    const was = this.speaking;
    this.lastSpeechAt = null;
    return was;
  }
}
