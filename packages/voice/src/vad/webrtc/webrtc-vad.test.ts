import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VAD_MODE, WebRtcVad, type VadMode } from './webrtc-vad.js';
import { CALLER_SAMPLE_RATE, FRAME_SAMPLES } from '../../audio/format.js';
import { FrameSplitter } from '../../audio/frames.js';
import { mix, whiteNoise } from '../../audio/mix.js';
import { rmsDbfs } from '../../audio/pcm.js';
import { resample } from '../../audio/resampler.js';
import { collectSpeech } from '../../tts/collect.js';
import { EspeakSynthesizer } from '../../tts/espeak/espeak-synthesizer.js';

/** eSpeak speech at the caller rate, in 320-sample frames. */
let speechFrames: Int16Array[];
beforeAll(async () => {
  const synth = await EspeakSynthesizer.create();
  try {
    const speech = await collectSpeech(
      synth,
      'Hello, I would like to book an appointment for next Tuesday.',
      {
        voice: 'en-us',
      },
    );
    const at16k = await resample(speech.samples, speech.sampleRate, CALLER_SAMPLE_RATE);
    speechFrames = frames(at16k);
  } finally {
    synth.dispose();
  }
});

function frames(samples: Int16Array): Int16Array[] {
  return new FrameSplitter(FRAME_SAMPLES).push(samples);
}

const detectors: WebRtcVad[] = [];
async function vad(mode?: VadMode): Promise<WebRtcVad> {
  const detector = await WebRtcVad.create(mode === undefined ? {} : { mode });
  detectors.push(detector);
  return detector;
}
afterEach(() => {
  for (const d of detectors.splice(0)) d.dispose();
});

function speechShare(detector: WebRtcVad, input: Int16Array[]): number {
  return input.filter((f) => detector.isSpeech(f)).length / input.length;
}

describe('WebRtcVad', () => {
  it('hears eSpeak speech', async () => {
    const detector = await vad();
    expect(detector.mode).toBe(DEFAULT_VAD_MODE);
    const voiced = speechFrames.filter((f) => rmsDbfs(f) > -40);
    expect(voiced.length).toBeGreaterThan(50);
    expect(speechShare(detector, voiced)).toBeGreaterThan(0.9);
  });

  it.each([0, 1, 2, 3] as const)(
    'mode %i: no speech in a -60 dBFS noise floor or in silence',
    async (mode) => {
      const detector = await vad(mode);
      const decisions = frames(whiteNoise(CALLER_SAMPLE_RATE * 3, -60, 5)).map((f) =>
        detector.isSpeech(f),
      );
      // The first ~100 ms are the detector settling in (it may flag them); after that, nothing.
      expect(decisions.slice(10).filter(Boolean)).toHaveLength(0);
      expect(speechShare(detector, frames(new Int16Array(CALLER_SAMPLE_RATE)))).toBe(0);
    },
  );

  it('is more reluctant in more aggressive modes (noisy speech)', async () => {
    const noisy = mix(
      speechFramesJoined(),
      whiteNoise(speechFrames.length * FRAME_SAMPLES, -30, 2),
    );
    const shares: number[] = [];
    for (const mode of [0, 3] as const) shares.push(speechShare(await vad(mode), frames(noisy)));
    expect(shares[0]).toBeGreaterThan(shares[1]!);
  });

  it('changes mode and resets on request', async () => {
    const detector = await vad(0);
    detector.setMode(3);
    expect(detector.mode).toBe(3);
    detector.reset();
    expect(detector.mode).toBe(3);
    expect(() => detector.setMode(4 as VadMode)).toThrow(RangeError);
  });

  it('accepts 10, 20 and 30 ms frames and rejects other lengths', async () => {
    const detector = await vad();
    expect(detector.frameLengths).toEqual([160, 320, 480]);
    expect(detector.isSpeech(new Int16Array(160))).toBe(false);
    expect(detector.isSpeech(new Int16Array(480))).toBe(false);
    expect(() => detector.isSpeech(new Int16Array(321))).toThrow(RangeError);
  });

  it('rejects bad options and use after dispose', async () => {
    await expect(WebRtcVad.create({ mode: 5 as VadMode })).rejects.toThrow(RangeError);
    await expect(WebRtcVad.create({ sampleRate: 22_050 })).rejects.toThrow(RangeError);
    const detector = await WebRtcVad.create();
    detector.dispose();
    detector.dispose();
    expect(() => detector.isSpeech(new Int16Array(320))).toThrow(/dispose/);
  });
});

function speechFramesJoined(): Int16Array {
  const out = new Int16Array(speechFrames.length * FRAME_SAMPLES);
  speechFrames.forEach((f, i) => out.set(f, i * FRAME_SAMPLES));
  return out;
}
