/**
 * Building test and benchmark signals: mixing, gains, tones and noise. Noise comes from a
 * seeded PRNG so every run produces the same samples.
 */
import { clampInt16, dbfsToAmplitude } from './pcm.js';

/** Decibels → linear gain. */
export function dbToGain(db: number): number {
  return Math.pow(10, db / 20);
}

/** Linear gain → decibels (`-Infinity` for 0). */
export function gainToDb(gain: number): number {
  return gain > 0 ? 20 * Math.log10(gain) : -Infinity;
}

/** A small seeded PRNG (mulberry32): returns uniform numbers in [0, 1). */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface MixOptions {
  /** Gain applied to `overlay` before adding it, in dB (default 0). */
  gainDb?: number;
  /** Sample index in `base` where `overlay` starts (default 0, may be past its end). */
  offset?: number;
}

/**
 * `base + overlay × gain`, saturating to Int16. The result is as long as the longer of
 * `base` and the shifted `overlay`.
 */
export function mix(base: Int16Array, overlay: Int16Array, options: MixOptions = {}): Int16Array {
  const gain = dbToGain(options.gainDb ?? 0);
  const offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new RangeError(`offset must be a non-negative integer, got ${offset}`);
  }
  const out = new Int16Array(Math.max(base.length, offset + overlay.length));
  out.set(base);
  for (let i = 0; i < overlay.length; i++) {
    out[offset + i] = clampInt16(out[offset + i]! + overlay[i]! * gain);
  }
  return out;
}

/** Multiplies by a gain in dB, saturating to Int16. */
export function applyGain(samples: Int16Array, gainDb: number): Int16Array {
  const gain = dbToGain(gainDb);
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = clampInt16(samples[i]! * gain);
  return out;
}

/**
 * Gaussian white noise whose RMS level is `levelDbfs` (dBFS re 32768), from a seeded PRNG:
 * the same arguments always give the same samples.
 */
export function whiteNoise(length: number, levelDbfs: number, seed = 1): Int16Array {
  const random = createPrng(seed);
  const sigma = dbfsToAmplitude(levelDbfs);
  const out = new Int16Array(length);
  for (let i = 0; i < length; i += 2) {
    // Box–Muller: two independent normals per pair of uniforms.
    const u1 = 1 - random();
    const u2 = random();
    const radius = sigma * Math.sqrt(-2 * Math.log(u1));
    out[i] = clampInt16(radius * Math.cos(2 * Math.PI * u2));
    if (i + 1 < length) out[i + 1] = clampInt16(radius * Math.sin(2 * Math.PI * u2));
  }
  return out;
}

/** Adds a white-noise floor at `levelDbfs` to a signal (see {@link whiteNoise}). */
export function addNoiseFloor(signal: Int16Array, levelDbfs: number, seed = 1): Int16Array {
  return mix(signal, whiteNoise(signal.length, levelDbfs, seed));
}

/** A sine tone of `frequency` Hz whose RMS level is `levelDbfs` (peak 3 dB higher). */
export function sineWave(
  frequency: number,
  length: number,
  sampleRate: number,
  levelDbfs: number,
  phase = 0,
): Int16Array {
  const amplitude = dbfsToAmplitude(levelDbfs) * Math.SQRT2;
  const out = new Int16Array(length);
  const step = (2 * Math.PI * frequency) / sampleRate;
  for (let i = 0; i < length; i++) out[i] = clampInt16(amplitude * Math.sin(phase + step * i));
  return out;
}
