/**
 * Keeps the assistant's own voice, coming back through the caller's microphone, from
 * counting as the caller speaking. While the assistant is audible (and for a short echo
 * tail after), a caller frame counts as speech only when it is louder than the assistant's
 * recent output minus a margin: an echo arrives attenuated (typically 15–30 dB down), a
 * caller talking over the assistant does not.
 */
export interface EchoGuardOptions {
  /** How much quieter than the assistant's output a caller frame may be and still count. */
  marginDb?: number;
  /** How long after an assistant sound its echo may still arrive. */
  tailMs?: number;
  /**
   * How much earlier than planned a sound may play: audio is sent ahead of its playback
   * time, and a client may start it as soon as it arrives.
   */
  aheadMs?: number;
}

export class EchoGuard {
  private readonly marginDb: number;
  private readonly tailMs: number;
  private readonly aheadMs: number;
  /** (playback time in ms, level in dBFS) of recent assistant audio, oldest first. */
  private readonly levels: { at: number; db: number }[] = [];

  constructor(options: EchoGuardOptions = {}) {
    this.marginDb = options.marginDb ?? 12;
    this.tailMs = options.tailMs ?? 400;
    this.aheadMs = options.aheadMs ?? 250;
  }

  /** Notes that assistant audio of `db` level plays at time `at` (ms). */
  noteAssistant(at: number, db: number): void {
    this.levels.push({ at, db });
  }

  /** Whether a caller frame at time `now` with level `callerDb` may count as the caller speaking. */
  allows(now: number, callerDb: number): boolean {
    // Whole utterances are queued ahead at once, so forget by time, never by count.
    let stale = 0;
    while (stale < this.levels.length && now - this.levels[stale]!.at > this.tailMs) stale += 1;
    if (stale > 0) this.levels.splice(0, stale);
    let loudest = -Infinity;
    for (const { at, db } of this.levels) {
      if (at - now <= this.aheadMs && now - at <= this.tailMs && db > loudest) loudest = db;
    }
    return loudest === -Infinity || callerDb > loudest - this.marginDb;
  }

  /** Forgets queued assistant audio that will never play (after a barge-in). */
  dropAfter(now: number): void {
    for (let i = this.levels.length - 1; i >= 0 && this.levels[i]!.at > now; i -= 1)
      this.levels.pop();
  }
}
