import { describe, expect, it } from 'vitest';
import {
  Downsampler,
  FrameAssembler,
  lowPassKernel,
  mixToMono,
  toInt16,
} from './capture-worklet.js';

function sine(frequency: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i += 1) {
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / rate);
  }
  return out;
}

/** Runs a signal through in 128-sample blocks, as the audio thread does. */
function downsampleInBlocks(downsampler: Downsampler, input: Float32Array): Float32Array {
  const parts: number[] = [];
  for (let i = 0; i < input.length; i += 128) {
    parts.push(...downsampler.process(input.subarray(i, i + 128)));
  }
  return Float32Array.from(parts);
}

function rms(samples: Float32Array, from = 0): number {
  let sum = 0;
  for (let i = from; i < samples.length; i += 1) sum += (samples[i] ?? 0) ** 2;
  return Math.sqrt(sum / (samples.length - from));
}

describe('Downsampler (capture worklet)', () => {
  it('turns 48 kHz into 16 kHz: a third of the samples, in any block size', () => {
    const downsampler = new Downsampler(48_000, 16_000);
    const out = downsampleInBlocks(downsampler, sine(440, 48_000, 1));
    // The filter looks 31 input samples ahead, so ~10 outputs are still pending.
    expect(out.length).toBeGreaterThanOrEqual(16_000 - 12);
    expect(out.length).toBeLessThanOrEqual(16_000);
  });

  it('keeps speech-band tones at their level', () => {
    for (const frequency of [200, 1000, 3000, 6000]) {
      const out = downsampleInBlocks(new Downsampler(48_000, 16_000), sine(frequency, 48_000, 0.5));
      expect(rms(out, 100)).toBeCloseTo(0.5 / Math.SQRT2, 1);
    }
  });

  it('keeps a 1 kHz tone a 1 kHz tone (same samples as computing it at 16 kHz)', () => {
    const out = downsampleInBlocks(new Downsampler(48_000, 16_000), sine(1000, 48_000, 0.2));
    const expected = sine(1000, 16_000, 0.2);
    // The filter is centred on each output's input position: no delay, only look-ahead.
    let worst = 0;
    for (let n = 50; n < out.length - 50; n += 1) {
      const ideal = 0.5 * Math.sin((2 * Math.PI * 1000 * n) / 16_000);
      worst = Math.max(worst, Math.abs((out[n] ?? 0) - ideal));
    }
    expect(expected.length).toBe(3200);
    expect(worst).toBeLessThan(0.02);
  });

  it('removes what would alias: a 12 kHz tone comes out at least 30 dB down', () => {
    const out = downsampleInBlocks(new Downsampler(48_000, 16_000), sine(12_000, 48_000, 0.5));
    expect(20 * Math.log10(rms(out, 100) / (0.5 / Math.SQRT2))).toBeLessThan(-30);
  });

  it('handles 44.1 kHz (a fractional step)', () => {
    const downsampler = new Downsampler(44_100, 16_000);
    const out = downsampleInBlocks(downsampler, sine(1000, 44_100, 1));
    expect(out.length).toBeGreaterThanOrEqual(16_000 - 13);
    expect(out.length).toBeLessThanOrEqual(16_000);
    expect(rms(out, 100)).toBeCloseTo(0.5 / Math.SQRT2, 1);
  });

  it('passes equal rates through', () => {
    const input = Float32Array.from([0.1, -0.2, 0.3]);
    expect([...new Downsampler(16_000, 16_000).process(input)]).toEqual([...input]);
  });

  it('has a low-pass kernel with unity gain at DC', () => {
    const kernel = lowPassKernel(63, 0.15);
    expect(kernel.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(kernel[0]).toBeCloseTo(kernel[62] ?? Number.NaN, 9); // symmetric
  });
});

describe('FrameAssembler (capture worklet)', () => {
  it('cuts any input into exact 320-sample Int16 frames', () => {
    const frames = new FrameAssembler(320);
    const out: Int16Array[] = [];
    for (const size of [100, 300, 5, 555, 320, 1]) {
      out.push(...frames.push(new Float32Array(size).fill(0.5)));
    }
    // 1281 samples: 4 whole frames, 1 sample waiting.
    expect(out).toHaveLength(4);
    for (const frame of out) {
      expect(frame).toBeInstanceOf(Int16Array);
      expect(frame.length).toBe(320);
      expect(frame.byteLength).toBe(640);
      expect(frame[0]).toBe(16_384);
    }
    expect(new Set(out.map((f) => f.buffer)).size).toBe(4); // each its own buffer (transferable)
  });

  it('converts to s16 with clipping', () => {
    expect(toInt16(0)).toBe(0);
    expect(toInt16(1)).toBe(32_767);
    expect(toInt16(-1)).toBe(-32_768);
    expect(toInt16(2)).toBe(32_767);
    expect(toInt16(-3)).toBe(-32_768);
    expect(toInt16(0.5)).toBe(16_384);
  });
});

describe('mixToMono', () => {
  it('averages channels and passes mono through', () => {
    const left = Float32Array.from([1, 0]);
    const right = Float32Array.from([0, 1]);
    expect([...(mixToMono([left, right]) ?? [])]).toEqual([0.5, 0.5]);
    expect(mixToMono([left])).toBe(left);
    expect(mixToMono([])).toBeNull();
  });
});
