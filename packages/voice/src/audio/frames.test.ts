import { describe, expect, it } from 'vitest';
import { FrameSplitter } from './frames.js';
import { FRAME_SAMPLES } from './format.js';
import { concatInt16 } from './pcm.js';
import { createPrng } from './mix.js';

/** Indices where two sample arrays differ (a length mismatch counts every missing sample).
 * Cheaper than toEqual on long typed arrays, whose failure diff can take minutes. */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) count++;
  return count;
}

function ramp(length: number): Int16Array {
  return Int16Array.from({ length }, (_, i) => (i % 30000) + 1);
}

describe('FrameSplitter', () => {
  it('turns random-sized chunks into exact frames carrying the remainder', () => {
    const input = ramp(10_000);
    const random = createPrng(7);
    const splitter = new FrameSplitter();
    const frames: Int16Array[] = [];
    let offset = 0;
    while (offset < input.length) {
      const size = Math.floor(random() * 900); // includes 0 and sizes above one frame
      frames.push(...splitter.push(input.subarray(offset, offset + size)));
      offset += size;
    }
    expect(splitter.frameSize).toBe(FRAME_SAMPLES);
    expect(frames.every((f) => f.length === FRAME_SAMPLES)).toBe(true);
    expect(frames.length).toBe(Math.floor(10_000 / 320));
    expect(splitter.pendingSamples).toBe(10_000 % 320);
    const tail = splitter.flush();
    expect(tail?.length).toBe(320);
    expect(differences(concatInt16([...frames, tail!]).subarray(0, 10_000), input)).toBe(0);
    expect(Array.from(tail!.subarray(10_000 % 320))).toEqual(
      new Array(320 - (10_000 % 320)).fill(0),
    );
    expect(splitter.pendingSamples).toBe(0);
    expect(splitter.flush()).toBeNull();
  });

  it('returns nothing until a frame is complete, then exactly one', () => {
    const splitter = new FrameSplitter(480);
    expect(splitter.push(ramp(479))).toEqual([]);
    const frames = splitter.push(Int16Array.of(-5, 9));
    expect(frames).toHaveLength(1);
    expect(frames[0]![479]).toBe(-5);
    expect(splitter.pendingSamples).toBe(1);
    expect(Array.from(splitter.flush({ pad: false })!)).toEqual([9]);
  });

  it('emits copies that do not change when the input buffer is reused', () => {
    const splitter = new FrameSplitter(4);
    const buffer = Int16Array.of(1, 2, 3, 4, 5, 6);
    const first = splitter.push(buffer);
    buffer.fill(0);
    expect(Array.from(first[0]!)).toEqual([1, 2, 3, 4]);
    buffer.set([7, 8]);
    const second = splitter.push(buffer.subarray(0, 2));
    expect(Array.from(second[0]!)).toEqual([5, 6, 7, 8]);
  });

  it('reset drops pending samples; bad sizes are rejected', () => {
    const splitter = new FrameSplitter(4);
    splitter.push(Int16Array.of(1, 2));
    splitter.reset();
    expect(Array.from(splitter.push(Int16Array.of(3, 4, 5, 6))[0]!)).toEqual([3, 4, 5, 6]);
    expect(() => new FrameSplitter(0)).toThrow(RangeError);
    expect(() => new FrameSplitter(2.5)).toThrow(RangeError);
  });
});
