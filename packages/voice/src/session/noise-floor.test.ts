import { describe, expect, it } from 'vitest';
import { NoiseFloor } from './noise-floor.js';

describe('NoiseFloor', () => {
  it('does not let steady noise count as speech, but lets a voice above it through', () => {
    const floor = new NoiseFloor();
    const noise = Array.from({ length: 100 }, (_, i) => -55 + Math.sin(i) * 1.5);
    expect(noise.map((db) => floor.loudEnough(db)).filter(Boolean)).toEqual([]);
    expect(floor.floor()).toBeCloseTo(-56.4, 0);
    expect(floor.loudEnough(-25)).toBe(true);
    expect(floor.loudEnough(-50)).toBe(false);
  });

  it('keeps the floor low while the caller talks for a while', () => {
    const floor = new NoiseFloor();
    for (let i = 0; i < 50; i += 1) floor.loudEnough(-55);
    const talk = Array.from({ length: 100 }, (_, i) => (i % 10 < 8 ? -22 : -50));
    expect(talk.filter((db, i) => floor.loudEnough(db) !== i % 10 < 8).length).toBe(0);
  });

  it('is the chosen percentile of exactly the last window of levels, frame after frame', () => {
    const floor = new NoiseFloor({ windowFrames: 40, percentile: 0.25 });
    const seen: number[] = [];
    let state = 7;
    for (let i = 0; i < 500; i++) {
      state = (state * 48_271) % 2_147_483_647;
      // Repeated levels too (whole dB), and silence (-Infinity is taken as -120).
      const db = i % 50 === 0 ? -Infinity : -90 + (state % 70);
      floor.loudEnough(db);
      seen.push(Number.isFinite(db) ? db : -120);
      const window = seen.slice(-40).sort((a, b) => a - b);
      expect(floor.floor()).toBe(window[Math.floor((window.length - 1) * 0.25)]);
    }
  });
});
