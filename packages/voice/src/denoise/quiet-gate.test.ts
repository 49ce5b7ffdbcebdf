import { describe, expect, it } from 'vitest';
import { QuietGate } from './quiet-gate.js';

/** A frame whose every sample is `value`. */
function frame(value: number): Int16Array {
  return new Int16Array(320).fill(value);
}

const FLOOR = -60;

describe('QuietGate', () => {
  it('keeps steady noise from the denoiser once its hold has run out, passing it on 12 dB quieter', () => {
    const gate = new QuietGate({ holdFrames: 5 });
    // A turn, then quiet.
    const decisions = Array.from({ length: 20 }, () => gate.next(frame(400), FLOOR, FLOOR, true));
    expect(decisions.every((d) => d.denoise)).toBe(true);
    const after = Array.from({ length: 20 }, () => gate.next(frame(400), FLOOR, FLOOR, false));
    expect(after.map((d) => d.denoise)).toEqual([
      ...Array<boolean>(5).fill(true),
      ...Array<boolean>(15).fill(false),
    ]);
    const passed = after[10]!;
    if (passed.denoise) throw new Error('expected the frame passed on');
    // 400 × 10^(-12/20) = 100.5
    expect([...new Set(passed.frame)]).toEqual([100]);
  });

  it('opens on a frame clear of the floor, giving the denoiser the quiet frames just before it first', () => {
    const gate = new QuietGate({ holdFrames: 2, primeFrames: 3, openMarginDb: 3 });
    const quiet = [1, 2, 3, 4, 5, 6].map((n) => frame(n));
    for (const f of quiet) gate.next(f, FLOOR, FLOOR, false);
    // 2 dB above the floor does not open it; 4 dB does.
    expect(gate.next(frame(7), FLOOR + 2, FLOOR, false).denoise).toBe(false);
    const opened = gate.next(frame(8), FLOOR + 4, FLOOR, false);
    expect(opened).toEqual({ denoise: true, prime: [quiet[4], quiet[5], frame(7)] });
    // While it stays open nothing is primed again, and the primed frames are not kept.
    expect(gate.next(frame(9), FLOOR, FLOOR, false)).toEqual({ denoise: true, prime: [] });
    expect(gate.next(frame(10), FLOOR, FLOOR, false)).toEqual({ denoise: true, prime: [] });
    expect(gate.next(frame(11), FLOOR, FLOOR, false).denoise).toBe(false);
    expect(gate.next(frame(12), FLOOR + 10, FLOOR, false)).toEqual({
      denoise: true,
      prime: [frame(11)],
    });
  });

  it('denoises every frame of a turn, its quiet pauses too', () => {
    const gate = new QuietGate({ holdFrames: 3 });
    for (let i = 0; i < 10; i += 1) gate.next(frame(100), FLOOR, FLOOR, false);
    const turn = Array.from({ length: 50 }, (_, i) =>
      gate.next(frame(i % 10 < 5 ? 8000 : 100), i % 10 < 5 ? -12 : FLOOR, FLOOR, true),
    );
    expect(turn.every((d) => d.denoise)).toBe(true);
  });

  it('primes nothing when it was never closed, and nothing it was not given', () => {
    const gate = new QuietGate({ primeFrames: 0, holdFrames: 0 });
    expect(gate.next(frame(1), FLOOR, FLOOR, false).denoise).toBe(false);
    expect(gate.next(frame(9000), -10, FLOOR, false)).toEqual({ denoise: true, prime: [] });
  });
});
