import { describe, expect, it } from 'vitest';
import {
  bytesToInt16,
  clampInt16,
  concatInt16,
  dbfsToAmplitude,
  float32ToInt16,
  int16ToBytes,
  int16ToFloat32,
  peakDbfs,
  rms,
  rmsDbfs,
} from './pcm.js';
import { sineWave } from './mix.js';

/** Indices where two sample arrays differ (a length mismatch counts every missing sample).
 * Cheaper than toEqual on long typed arrays, whose failure diff can take minutes. */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) count++;
  return count;
}

describe('Int16 ↔ Float32', () => {
  it('round-trips every edge value exactly', () => {
    const samples = Int16Array.from([
      -32768, -32767, -16385, -1, 0, 1, 16383, 16384, 16385, 32766, 32767,
    ]);
    const floats = int16ToFloat32(samples);
    expect(floats[0]).toBe(-1);
    expect(floats[4]).toBe(0);
    expect(Math.max(...floats)).toBeLessThan(1);
    expect(Array.from(float32ToInt16(floats))).toEqual(Array.from(samples));
  });

  it('round-trips a full ramp exactly', () => {
    const ramp = new Int16Array(65536);
    for (let i = 0; i < ramp.length; i++) ramp[i] = i - 32768;
    expect(differences(float32ToInt16(int16ToFloat32(ramp)), ramp)).toBe(0);
  });

  it('clips out-of-range floats and rounds', () => {
    expect(Array.from(float32ToInt16([1, 1.5, -1, -2, 0.5, NaN]))).toEqual([
      32767, 32767, -32768, -32768, 16384, 0,
    ]);
    expect(clampInt16(1.4)).toBe(1);
    expect(clampInt16(-1.6)).toBe(-2);
  });
});

describe('bytes ↔ Int16', () => {
  it('reads little-endian samples from a Buffer at an odd byte offset', () => {
    const backing = Buffer.from([0xff, 0x01, 0x00, 0xff, 0x7f, 0x00, 0x80, 0xfe, 0xff]);
    const bytes = backing.subarray(1, 9); // byteOffset 1: an Int16Array view would throw
    expect(bytes.byteOffset % 2).toBe(1);
    expect(Array.from(bytesToInt16(bytes))).toEqual([1, 0x7fff, -32768, -2]);
  });

  it('copies, so later changes to the bytes do not leak into the samples', () => {
    const bytes = Buffer.from([0x01, 0x00, 0x02, 0x00]);
    const samples = bytesToInt16(bytes);
    bytes[0] = 0x09;
    expect(Array.from(samples)).toEqual([1, 2]);
  });

  it('rejects an odd number of bytes', () => {
    expect(() => bytesToInt16(new Uint8Array(3))).toThrow(RangeError);
  });

  it('writes little-endian bytes and round-trips from a subarray view', () => {
    const big = Int16Array.from([7, -2, 0x1234, -32768, 32767]);
    const view = big.subarray(1, 4);
    const bytes = int16ToBytes(view);
    expect(Array.from(bytes)).toEqual([0xfe, 0xff, 0x34, 0x12, 0x00, 0x80]);
    expect(Array.from(bytesToInt16(bytes))).toEqual([-2, 0x1234, -32768]);
  });
});

describe('levels', () => {
  it('measures a full-scale square wave as 0 dBFS and silence as -Infinity', () => {
    const square = Int16Array.from({ length: 320 }, (_, i) => (i % 2 === 0 ? 32767 : -32768));
    expect(rmsDbfs(square)).toBeCloseTo(0, 3);
    expect(rmsDbfs(new Int16Array(320))).toBe(-Infinity);
    expect(rmsDbfs(new Int16Array(0))).toBe(-Infinity);
    expect(rms(new Int16Array(0))).toBe(0);
  });

  it('measures a sine at its RMS level and its peak 3 dB higher', () => {
    const tone = sineWave(1000, 16000, 16000, -20);
    expect(rmsDbfs(tone)).toBeCloseTo(-20, 1);
    expect(peakDbfs(tone)).toBeCloseTo(-20 + 3.01, 1);
    expect(dbfsToAmplitude(0)).toBe(32768);
  });

  it('concatenates chunks in order', () => {
    expect(
      Array.from(concatInt16([Int16Array.of(1, 2), new Int16Array(0), Int16Array.of(3)])),
    ).toEqual([1, 2, 3]);
  });
});
