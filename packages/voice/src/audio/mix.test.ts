import { describe, expect, it } from 'vitest';
import {
  addNoiseFloor,
  applyGain,
  createPrng,
  dbToGain,
  gainToDb,
  mix,
  sineWave,
  whiteNoise,
} from './mix.js';
import { rmsDbfs } from './pcm.js';

/** Indices where two sample arrays differ (a length mismatch counts every missing sample).
 * Cheaper than toEqual on long typed arrays, whose failure diff can take minutes. */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) count++;
  return count;
}

describe('seeded noise', () => {
  it('is repeatable for a seed and differs between seeds', () => {
    expect(differences(whiteNoise(1000, -30, 42), whiteNoise(1000, -30, 42))).toBe(0);
    expect(differences(whiteNoise(1000, -30, 42), whiteNoise(1000, -30, 43))).toBeGreaterThan(900);
    const a = createPrng(5);
    const b = createPrng(5);
    for (let i = 0; i < 10; i++) expect(a()).toBe(b());
  });

  it('has the requested RMS level and no DC offset', () => {
    for (const level of [-60, -40, -20]) {
      const noise = whiteNoise(48_000, level, 9);
      expect(rmsDbfs(noise)).toBeCloseTo(level, 0);
      const mean = noise.reduce((s, v) => s + v, 0) / noise.length;
      expect(Math.abs(mean)).toBeLessThan(0.05 * Math.pow(10, level / 20) * 32768);
    }
  });

  it('adds a floor that leaves silence at the floor level', () => {
    const out = addNoiseFloor(new Int16Array(16_000), -50, 1);
    expect(rmsDbfs(out)).toBeCloseTo(-50, 0);
  });
});

describe('mix and gain', () => {
  it('adds the overlay with its gain at an offset, extending the result', () => {
    const out = mix(Int16Array.of(100, 100), Int16Array.of(1000, 1000, 1000), {
      gainDb: gainToDb(0.5),
      offset: 1,
    });
    expect(Array.from(out)).toEqual([100, 600, 500, 500]);
  });

  it('saturates instead of wrapping', () => {
    expect(Array.from(mix(Int16Array.of(30000, -30000), Int16Array.of(30000, -30000)))).toEqual([
      32767, -32768,
    ]);
  });

  it('-6 dB halves the level; dB and gain conversions agree', () => {
    const tone = sineWave(500, 16_000, 16_000, -10);
    expect(rmsDbfs(applyGain(tone, -6))).toBeCloseTo(-16, 1);
    expect(dbToGain(gainToDb(0.25))).toBeCloseTo(0.25, 10);
    expect(gainToDb(0)).toBe(-Infinity);
  });

  it('mixing uncorrelated equal-level signals raises the level by 3 dB', () => {
    const a = whiteNoise(32_000, -30, 1);
    const b = whiteNoise(32_000, -30, 2);
    expect(rmsDbfs(mix(a, b))).toBeCloseTo(-30 + 3.01, 0);
  });
});
