/**
 * Tracks the level of the caller's background noise, so only frames clearly above it can
 * count as speech. The WebRTC detector alone takes steady noise for speech until it has
 * adapted to it (seconds, at the start of every call); real microphones always hiss.
 * The floor is a low percentile of the last few seconds of frame levels.
 */
export interface NoiseFloorOptions {
  /** Frames remembered (150 × 20 ms = 3 s). */
  windowFrames?: number;
  /** The percentile of remembered levels taken as the floor. */
  percentile?: number;
  /** How far above the floor a frame must be to count as speech. */
  marginDb?: number;
  /** Frames needed before the floor is trusted; until then nothing counts as speech. */
  warmupFrames?: number;
}

export class NoiseFloor {
  /** The remembered levels, oldest first, and the same levels in order (kept so, not sorted
   * on every frame: sorting 150 levels 50 times a second per call was 2 % of the event loop
   * at a dozen calls). */
  private readonly levels: number[] = [];
  private readonly sorted: number[] = [];
  private readonly windowFrames: number;
  private readonly percentile: number;
  private readonly marginDb: number;
  private readonly warmupFrames: number;

  constructor(options: NoiseFloorOptions = {}) {
    this.windowFrames = options.windowFrames ?? 150;
    this.percentile = options.percentile ?? 0.1;
    this.marginDb = options.marginDb ?? 9;
    this.warmupFrames = options.warmupFrames ?? 5;
  }

  /** Notes a frame's level (dBFS) and answers whether it stands clear of the noise. */
  loudEnough(db: number): boolean {
    const level = Number.isFinite(db) ? db : -120;
    this.levels.push(level);
    this.sorted.splice(this.rank(level), 0, level);
    if (this.levels.length > this.windowFrames) {
      const oldest = this.levels.shift()!;
      this.sorted.splice(this.rank(oldest), 1);
    }
    if (this.levels.length < this.warmupFrames) return false;
    return level > this.floor() + this.marginDb;
  }

  /** The current noise floor in dBFS. */
  floor(): number {
    const sorted = this.sorted;
    return sorted[Math.floor((sorted.length - 1) * this.percentile)] ?? -120;
  }

  /** Where `level` goes in `sorted` (the first place not below it). */
  private rank(level: number): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sorted[mid]! < level) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
