/**
 * Decides which caller frames are worth denoising. Between turns most of a call is the
 * caller listening: frames of their background noise that the voice-activity check turns
 * away on their level alone, before it looks at what the denoiser made of them. Denoising
 * them cost 2.5 % of a core per call (RNNoise on every frame, silence included), the largest
 * share of a call's work after recognition.
 *
 * A frame is denoised while the caller is in a turn, when it stands above the noise floor
 * by `openMarginDb` (less than speech needs, so a turn's first syllable finds the denoiser
 * already running), and for `holdFrames` after either. Otherwise it is passed on quieter by
 * `quietGainDb`, about what RNNoise makes of steady noise, and the denoiser never sees it.
 *
 * The denoiser keeps state (its resamplers' filters, RNNoise's recurrent network): when the
 * gate opens it is first given the last `primeFrames` quiet frames, so it resumes on the
 * sound just before, not on the sound of the caller's previous turn. Their output is thrown
 * away.
 */
import { dbToGain } from '../audio/mix.js';

export interface QuietGateOptions {
  /** How far above the noise floor a frame opens the gate (dB). */
  openMarginDb?: number;
  /** Frames the gate stays open after the last frame that opened it. */
  holdFrames?: number;
  /** Quiet frames given to the denoiser, output thrown away, when the gate opens. */
  primeFrames?: number;
  /** The gain of frames passed on without denoising (dB). */
  quietGainDb?: number;
}

export type GateDecision =
  /** Denoise this frame, after giving the denoiser `prime` (and throwing their output away). */
  | { denoise: true; prime: Int16Array[] }
  /** Do not denoise it; `frame` is what to hear instead. */
  | { denoise: false; frame: Int16Array };

const NO_PRIME: Int16Array[] = [];

export class QuietGate {
  private readonly openMarginDb: number;
  private readonly holdFrames: number;
  private readonly primeFrames: number;
  private readonly quietGain: number;
  /** The latest frames passed on without the denoiser, oldest first (for priming). */
  private readonly passed: Int16Array[] = [];
  /** Frames the gate stays open for (0: closed). */
  private open = 0;

  constructor(options: QuietGateOptions = {}) {
    this.openMarginDb = options.openMarginDb ?? 3;
    this.holdFrames = options.holdFrames ?? 15;
    this.primeFrames = options.primeFrames ?? 3;
    this.quietGain = dbToGain(options.quietGainDb ?? -12);
  }

  /**
   * One caller frame: its level (dBFS), the noise floor before it, and whether the caller
   * is in a turn.
   */
  next(frame: Int16Array, levelDb: number, floorDb: number, inTurn: boolean): GateDecision {
    const wasOpen = this.open > 0;
    if (inTurn || levelDb > floorDb + this.openMarginDb) this.open = this.holdFrames + 1;
    if (this.open > 0) {
      this.open -= 1;
      if (wasOpen || this.passed.length === 0) return { denoise: true, prime: NO_PRIME };
      const prime = this.passed.splice(0);
      return { denoise: true, prime };
    }
    // A copy: the caller may reuse its buffer.
    this.passed.push(frame.slice());
    if (this.passed.length > this.primeFrames) this.passed.shift();
    const quiet = new Int16Array(frame.length);
    for (let i = 0; i < frame.length; i += 1) quiet[i] = Math.round(frame[i]! * this.quietGain);
    return { denoise: false, frame: quiet };
  }
}
