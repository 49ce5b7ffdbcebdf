import { describe, expect, it } from 'vitest';
import { AudioPacer } from './audio-pacer.js';

/** A pacer on a clock the test moves: nothing here depends on real time. */
function pacerAt(options: { burstMs?: number; maxDroppedMs?: number } = {}) {
  let clock = 0;
  const pacer = new AudioPacer({ ...options, now: () => clock });
  return {
    pacer,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** Sends `frames` 20 ms frames, `speed` times faster than real time; counts the verdicts. */
function send(
  p: ReturnType<typeof pacerAt>,
  frames: number,
  speed: number,
): Record<'accept' | 'drop' | 'too-fast', number> {
  const counts = { accept: 0, drop: 0, 'too-fast': 0 };
  for (let i = 0; i < frames; i += 1) {
    counts[p.pacer.take(20)] += 1;
    p.advance(20 / speed);
  }
  return counts;
}

describe('AudioPacer (the caller may run only slightly ahead of real time)', () => {
  it('accepts a microphone at real time for as long as it speaks', () => {
    const p = pacerAt();
    expect(send(p, 50 * 600, 1)).toEqual({ accept: 30_000, drop: 0, 'too-fast': 0 });
  });

  it('accepts a burst of buffered audio up to the lead, after a network stall', () => {
    const p = pacerAt({ burstMs: 2000 });
    send(p, 100, 1);
    // Two seconds of audio arrive at once (the network held them): all accepted.
    expect(send(p, 100, 1_000_000)).toEqual({ accept: 100, drop: 0, 'too-fast': 0 });
    // One more frame at once is beyond the lead: dropped, not processed.
    expect(p.pacer.take(20)).toBe('drop');
    // Real time refills the lead.
    p.advance(20);
    expect(p.pacer.take(20)).toBe('accept');
  });

  it('drops what a 10× sender sends beyond real time, then calls it too fast', () => {
    const p = pacerAt({ burstMs: 2000, maxDroppedMs: 5000 });
    const counts = send(p, 500, 10);
    // 500 frames in 1 s: the 2 s lead plus 1 s of real time is 150 frames at most.
    expect(counts.accept).toBeLessThanOrEqual(150);
    expect(counts.accept).toBeGreaterThanOrEqual(140);
    expect(p.pacer.droppedMs).toBeGreaterThan(5000);
    expect(counts['too-fast']).toBeGreaterThan(0);
  });

  it('a short burst beyond the lead drops a little audio but does not end the call', () => {
    const p = pacerAt({ burstMs: 2000, maxDroppedMs: 5000 });
    expect(send(p, 150, 1_000_000)).toEqual({ accept: 100, drop: 50, 'too-fast': 0 });
    expect(p.pacer.droppedMs).toBe(1000);
  });
});
