import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { decodeWav, encodeWav } from './wav.js';
import { sineWave, whiteNoise } from './mix.js';

/** Indices where two sample arrays differ (a length mismatch counts every missing sample).
 * Cheaper than toEqual on long typed arrays, whose failure diff can take minutes. */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) count++;
  return count;
}

describe('WAV', () => {
  it('round-trips mono 16-bit PCM exactly', () => {
    const samples = whiteNoise(12_345, -12, 3);
    samples[0] = -32768;
    samples[1] = 32767;
    const wav = encodeWav({ samples, sampleRate: 22_050 });
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('ascii')).toBe('WAVE');
    expect(wav.length).toBe(44 + samples.length * 2);
    const decoded = decodeWav(wav);
    expect(decoded.sampleRate).toBe(22_050);
    expect(differences(decoded.samples, samples)).toBe(0);
  });

  it('round-trips an empty signal', () => {
    const decoded = decodeWav(encodeWav({ samples: new Int16Array(0), sampleRate: 16_000 }));
    expect(decoded.samples.length).toBe(0);
    expect(decoded.sampleRate).toBe(16_000);
  });

  it('mixes a stereo file down to mono', () => {
    const file = new wavefile.WaveFile();
    file.fromScratch(2, 8000, '16', [
      Int16Array.of(100, -200, 32767),
      Int16Array.of(300, -400, 32767),
    ]);
    const decoded = decodeWav(file.toBuffer());
    expect(decoded.sampleRate).toBe(8000);
    expect(Array.from(decoded.samples)).toEqual([200, -300, 32767]);
  });

  it('converts a 32-bit float file to 16-bit', () => {
    const file = new wavefile.WaveFile();
    file.fromScratch(1, 48_000, '32f', Float32Array.of(0, 0.5, -0.5, -1));
    const decoded = decodeWav(file.toBuffer());
    expect(decoded.sampleRate).toBe(48_000);
    const values = Array.from(decoded.samples);
    expect(values[0]).toBe(0);
    expect(Math.abs(values[1]! - 16384)).toBeLessThanOrEqual(1);
    expect(Math.abs(values[2]! + 16384)).toBeLessThanOrEqual(1);
    expect(values[3]).toBe(-32768);
  });

  it('decodes a µ-law file', () => {
    const tone = sineWave(440, 800, 8000, -10);
    const file = new wavefile.WaveFile();
    file.fromScratch(1, 8000, '16', tone);
    file.toMuLaw();
    const decoded = decodeWav(file.toBuffer());
    expect(decoded.samples.length).toBe(800);
    let maxError = 0;
    for (let i = 0; i < tone.length; i++)
      maxError = Math.max(maxError, Math.abs(decoded.samples[i]! - tone[i]!));
    expect(maxError).toBeLessThan(600); // µ-law keeps ~8 bits of a -10 dBFS tone
  });

  it('rejects data that is not a WAV file', () => {
    expect(() => decodeWav(Buffer.from('definitely not a wave file, just text'))).toThrow();
  });
});
