/**
 * Re-framing: audio arrives in chunks of any length (network packets, synthesiser output)
 * and the engines want exact frames (320 samples for fvad, 480 for RNNoise…).
 */
import { FRAME_SAMPLES } from './format.js';

/** Turns arbitrary-length chunks into exact `frameSize`-sample frames, carrying the rest. */
export class FrameSplitter {
  private readonly pending: Int16Array;
  private filled = 0;

  constructor(readonly frameSize: number = FRAME_SAMPLES) {
    if (!Number.isInteger(frameSize) || frameSize <= 0) {
      throw new RangeError(`frameSize must be a positive integer, got ${frameSize}`);
    }
    this.pending = new Int16Array(frameSize);
  }

  /** Samples waiting for the next frame (always less than `frameSize`). */
  get pendingSamples(): number {
    return this.filled;
  }

  /** Adds a chunk; returns the frames it completed, in order (each a new array). */
  push(chunk: Int16Array): Int16Array[] {
    const frames: Int16Array[] = [];
    let offset = 0;
    if (this.filled > 0) {
      const take = Math.min(this.frameSize - this.filled, chunk.length);
      this.pending.set(chunk.subarray(0, take), this.filled);
      this.filled += take;
      offset = take;
      if (this.filled < this.frameSize) return frames;
      frames.push(this.pending.slice());
      this.filled = 0;
    }
    while (chunk.length - offset >= this.frameSize) {
      frames.push(chunk.slice(offset, offset + this.frameSize));
      offset += this.frameSize;
    }
    if (offset < chunk.length) {
      this.pending.set(chunk.subarray(offset), 0);
      this.filled = chunk.length - offset;
    }
    return frames;
  }

  /**
   * Ends the stream: returns the leftover samples as a last frame, zero-padded to
   * `frameSize` (or as they are with `pad: false`), or `null` when nothing is left.
   */
  flush(options: { pad?: boolean } = {}): Int16Array | null {
    if (this.filled === 0) return null;
    const pad = options.pad ?? true;
    const out = pad ? new Int16Array(this.frameSize) : new Int16Array(this.filled);
    out.set(this.pending.subarray(0, this.filled));
    this.filled = 0;
    return out;
  }

  /** Drops any pending samples. */
  reset(): void {
    this.filled = 0;
  }
}
