import { afterEach, describe, expect, it } from 'vitest';
import { Resampler, resample } from './resampler.js';
import { concatInt16, rmsDbfs } from './pcm.js';
import { createPrng, mix, sineWave, whiteNoise } from './mix.js';

/** Indices where two sample arrays differ (a length mismatch counts every missing sample).
 * Cheaper than toEqual on long typed arrays, whose failure diff can take minutes. */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) count++;
  return count;
}

/** Power of `frequency` in the signal (Goertzel, one DFT bin), normalised by length². */
function binPower(samples: Int16Array, frequency: number, sampleRate: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s0 = samples[i]! + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / (samples.length * samples.length);
}

/** Frequency estimated from the zero-crossing rate. */
function zeroCrossingFrequency(samples: Int16Array, sampleRate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) {
    if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  }
  return (crossings / 2) * (sampleRate / samples.length);
}

const created: Resampler[] = [];
async function make(input: number, output: number, quality?: number): Promise<Resampler> {
  const resampler = await Resampler.create(input, output, quality === undefined ? {} : { quality });
  created.push(resampler);
  return resampler;
}
afterEach(() => {
  for (const r of created.splice(0)) r.dispose();
});

describe('Resampler', () => {
  it.each([
    [16_000, 48_000],
    [48_000, 16_000],
    [22_050, 16_000],
    [16_000, 22_050],
    [44_100, 8_000],
  ])('keeps a 1 kHz tone at 1 kHz and at its level from %i to %i Hz', async (inRate, outRate) => {
    const tone = sineWave(1000, inRate, inRate, -12); // one second
    const resampler = await make(inRate, outRate);
    const out = concatInt16([resampler.process(tone), resampler.flush()]);
    // One second in gives one second (plus the filter delay) out.
    expect(Math.abs(out.length - (outRate + resampler.latency))).toBeLessThanOrEqual(2);
    const steady = out.subarray(resampler.latency + 100, resampler.latency + outRate - 100);
    expect(zeroCrossingFrequency(steady, outRate)).toBeGreaterThan(995);
    expect(zeroCrossingFrequency(steady, outRate)).toBeLessThan(1005);
    // The 1 kHz bin holds the energy; a wrong rate would put it in another bin.
    const at1k = binPower(steady, 1000, outRate);
    expect(binPower(steady, 1100, outRate)).toBeLessThan(at1k / 100);
    expect(binPower(steady, (1000 * inRate) / outRate, outRate)).toBeLessThan(at1k / 100);
    expect(rmsDbfs(steady)).toBeGreaterThan(-12.5);
    expect(rmsDbfs(steady)).toBeLessThan(-11.5);
  });

  it('gives the same output whatever the chunk sizes', async () => {
    const signal = concatInt16([sineWave(440, 11_025, 22_050, -6), whiteNoise(11_025, -20, 4)]);
    const whole = await make(22_050, 16_000);
    const reference = whole.process(signal);
    const random = createPrng(11);
    for (const sizes of [[1], [7], [320], [2205], [5000], 'random'] as const) {
      const resampler = await make(22_050, 16_000);
      const parts: Int16Array[] = [];
      let offset = 0;
      while (offset < signal.length) {
        const size = sizes === 'random' ? 1 + Math.floor(random() * 3000) : sizes[0];
        parts.push(resampler.process(signal.subarray(offset, offset + size)));
        offset += size;
      }
      expect(differences(concatInt16(parts), reference)).toBe(0);
    }
  });

  it('turns each 20 ms frame into exactly 60 ms worth of 48 kHz samples and back', async () => {
    const up = await make(16_000, 48_000);
    const down = await make(48_000, 16_000);
    for (let i = 0; i < 20; i++) {
      const frame = sineWave(300, 320, 16_000, -20, i);
      const high = up.process(frame);
      expect(high.length).toBe(960);
      expect(down.process(high).length).toBe(320);
    }
  });

  it('float and Int16 paths agree', async () => {
    const tone = sineWave(700, 4000, 16_000, -10);
    const a = (await make(16_000, 24_000)).process(tone);
    const b = (await make(16_000, 24_000)).processFloat(Float32Array.from(tone));
    expect(b.length).toBe(a.length);
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(1);
  });

  it('passes audio through untouched when the rates are equal', async () => {
    const resampler = await make(16_000, 16_000);
    const noise = whiteNoise(1000, -20);
    expect(differences(resampler.process(noise), noise)).toBe(0);
    expect(resampler.latency).toBe(0);
    expect(resampler.flush().length).toBe(0);
  });

  it('rejects bad rates and quality, and use after dispose', async () => {
    await expect(Resampler.create(0, 16_000)).rejects.toThrow(RangeError);
    await expect(Resampler.create(16_000, 44_100.5)).rejects.toThrow(RangeError);
    await expect(Resampler.create(16_000, 48_000, { quality: 11 })).rejects.toThrow(RangeError);
    const resampler = await Resampler.create(16_000, 48_000);
    resampler.dispose();
    resampler.dispose();
    expect(() => resampler.process(new Int16Array(10))).toThrow(/dispose/);
  });
});

describe('resample (whole buffer)', () => {
  it('round-trips 16 kHz → 48 kHz → 16 kHz time-aligned, same length and level', async () => {
    // Several unrelated tones, so a shift of any whole number of samples shows.
    const tone = mix(
      mix(sineWave(437, 8000, 16_000, -16), sineWave(1210, 8000, 16_000, -16)),
      sineWave(2753, 8000, 16_000, -16),
    );
    const level = rmsDbfs(tone);
    const high = await resample(tone, 16_000, 48_000);
    expect(high.length).toBe(24_000);
    const back = await resample(high, 48_000, 16_000);
    expect(back.length).toBe(tone.length);
    // Time-aligned: the difference is tiny compared with the tone (away from the edges).
    const inner = (a: Int16Array) => a.subarray(200, a.length - 200);
    const diff = inner(tone).map((v, i) => v - inner(back)[i]!);
    expect(rmsDbfs(diff)).toBeLessThan(rmsDbfs(inner(tone)) - 30);
    expect(Math.abs(rmsDbfs(inner(back)) - level)).toBeLessThan(0.2);
  });

  it('puts an impulse where it belongs', async () => {
    const impulse = new Int16Array(1600);
    impulse[800] = 20_000;
    const out = await resample(impulse, 16_000, 48_000);
    let peak = 0;
    for (let i = 1; i < out.length; i++) if (Math.abs(out[i]!) > Math.abs(out[peak]!)) peak = i;
    expect(Math.abs(peak - 2400)).toBeLessThanOrEqual(1);
  });
});
