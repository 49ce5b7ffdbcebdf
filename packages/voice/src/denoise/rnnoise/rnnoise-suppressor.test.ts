import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RnnoiseSuppressor } from './rnnoise-suppressor.js';
import { CALLER_SAMPLE_RATE, FRAME_SAMPLES } from '../../audio/format.js';
import { FrameSplitter } from '../../audio/frames.js';
import { mix, whiteNoise } from '../../audio/mix.js';
import { concatInt16, rmsDbfs } from '../../audio/pcm.js';
import { resample } from '../../audio/resampler.js';
import { collectSpeech } from '../../tts/collect.js';
import { EspeakSynthesizer } from '../../tts/espeak/espeak-synthesizer.js';

const LEAD = CALLER_SAMPLE_RATE * 1.5; // noise-only stretch before and after the speech
let speech: Int16Array;
/** LEAD of silence, the speech, LEAD of silence (clean). */
let clean: Int16Array;

beforeAll(async () => {
  const synth = await EspeakSynthesizer.create();
  try {
    const spoken = await collectSpeech(
      synth,
      'Could you tell me when the pharmacy opens tomorrow morning?',
      {
        voice: 'en-us',
      },
    );
    speech = await resample(spoken.samples, spoken.sampleRate, CALLER_SAMPLE_RATE);
  } finally {
    synth.dispose();
  }
  clean = concatInt16([new Int16Array(LEAD), speech, new Int16Array(LEAD)]);
});

const suppressors: RnnoiseSuppressor[] = [];
async function suppressor(): Promise<RnnoiseSuppressor> {
  const s = await RnnoiseSuppressor.create();
  suppressors.push(s);
  return s;
}
afterEach(() => {
  for (const s of suppressors.splice(0)) s.dispose();
});

function run(s: RnnoiseSuppressor, input: Int16Array): Int16Array {
  const out = new FrameSplitter(FRAME_SAMPLES).push(input).map((frame) => {
    const cleaned = s.process(frame);
    expect(cleaned.length).toBe(FRAME_SAMPLES);
    return cleaned;
  });
  return concatInt16(out);
}

describe('RnnoiseSuppressor', () => {
  it('removes white noise from a silent stretch and keeps the speech level', async () => {
    const s = await suppressor();
    const noisy = mix(clean, whiteNoise(clean.length, -40, 3));
    const out = run(s, noisy);
    const lag = s.latencySamples;
    // The trailing noise-only stretch (RNNoise has adapted by then), skipping 250 ms after the speech.
    const tailStart = LEAD + speech.length + 4000;
    const tailEnd = clean.length - FRAME_SAMPLES * 2;
    const noiseIn = rmsDbfs(noisy.subarray(tailStart, tailEnd));
    const noiseOut = rmsDbfs(out.subarray(tailStart + lag, tailEnd));
    expect(noiseIn).toBeCloseTo(-40, 0);
    expect(noiseOut).toBeLessThan(noiseIn - 15);
    // The speech keeps its level (within 3 dB of the clean speech).
    const speechIn = rmsDbfs(speech);
    const speechOut = rmsDbfs(out.subarray(LEAD + lag, LEAD + lag + speech.length));
    expect(Math.abs(speechOut - speechIn)).toBeLessThan(3);
  });

  it('has the constant latency it reports (cross-correlation with the clean speech)', async () => {
    const s = await suppressor();
    expect(s.latencySamples).toBe(224);
    expect(s.latencyMs).toBe(14);
    const out = run(s, mix(clean, whiteNoise(clean.length, -50, 4)));
    let bestLag = -1;
    let best = -Infinity;
    for (let lag = 0; lag < 640; lag++) {
      let sum = 0;
      for (let i = LEAD; i < LEAD + speech.length; i += 2) sum += clean[i]! * (out[i + lag] ?? 0);
      if (sum > best) {
        best = sum;
        bestLag = lag;
      }
    }
    expect(Math.abs(bestLag - s.latencySamples)).toBeLessThanOrEqual(2);
  });

  it("reports RNNoise's voice probability: high in speech, low in noise", async () => {
    const s = await suppressor();
    const input = new FrameSplitter(FRAME_SAMPLES).push(
      mix(clean, whiteNoise(clean.length, -50, 6)),
    );
    const probabilities = input.map((frame) => {
      s.process(frame);
      return s.lastVoiceProbability;
    });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const firstSpeech = Math.ceil(LEAD / FRAME_SAMPLES) + 5;
    const inSpeech = probabilities.slice(
      firstSpeech,
      firstSpeech + Math.floor(speech.length / FRAME_SAMPLES) - 10,
    );
    const inNoise = probabilities.slice(-40);
    expect(mean(inSpeech)).toBeGreaterThan(0.5);
    expect(mean(inNoise)).toBeLessThan(0.2);
  });

  it('keeps separate state per instance and rejects bad frames and use after dispose', async () => {
    const a = await suppressor();
    const b = await suppressor();
    const other = await suppressor();
    const input = new FrameSplitter(FRAME_SAMPLES).push(
      mix(speech, whiteNoise(speech.length, -35, 8)),
    );
    const noise = whiteNoise(FRAME_SAMPLES, -20, 1);
    let differences = 0;
    for (const frame of input) {
      const fromA = a.process(frame);
      other.process(noise); // interleaved work on another instance must not leak into a or b
      const fromB = b.process(frame);
      for (let i = 0; i < FRAME_SAMPLES; i++) if (fromA[i] !== fromB[i]) differences++;
    }
    expect(differences).toBe(0);
    expect(() => a.process(new Int16Array(160))).toThrow(RangeError);
    a.dispose();
    a.dispose();
    expect(() => a.process(noise)).toThrow(/dispose/);
  });
});
