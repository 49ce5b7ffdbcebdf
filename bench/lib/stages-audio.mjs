// The stages benchmark's caller audio, and the audio stages timed alone: RNNoise and WebRTC
// VAD per 20 ms caller frame, the Speex resampler on the synthesiser's 22.05 kHz output.
import { NOISE_DBFS, spoken, voice } from './speech.mjs';
import { quantile } from './stats.mjs';

const FRAME = voice.FRAME_SAMPLES;
export const FRAME_MS = voice.FRAME_MS;
/** Noise floor around each utterance: about what the session's pre-roll and end-of-turn silence give the recogniser. */
const PAD_MS = 300;
/** Frames run before timing, so WASM and JIT are warm. */
const WARM_UP_FRAMES = 100;
/** The synthesiser's chunks are about 100 ms; the resampler is fed the same way. */
const TTS_CHUNK = Math.round(voice.ESPEAK_SAMPLE_RATE / 10);

const hrtimeUs = () => Number(process.hrtime.bigint()) / 1000;

/** Each line in each voice, as a caller sends it: 16 kHz, a noise floor, 20 ms frames. */
export async function callerUtterances(lines, voices) {
  const utterances = [];
  for (const speaker of voices) {
    for (const line of lines) {
      const speech = await spoken(line.text, speaker);
      utterances.push({
        ...line,
        voice: speaker,
        frames: toFrames(padded(speech, utterances.length)),
      });
    }
  }
  return utterances;
}

function padded(speech, seed) {
  const pad = (PAD_MS * voice.CALLER_SAMPLE_RATE) / 1000;
  const noise = (n) => voice.whiteNoise(pad, NOISE_DBFS, seed * 2 + n);
  return voice.concatInt16([noise(0), speech, noise(1)]);
}

/** 20 ms frames, the last one zero-padded (the wire only carries whole frames). */
function toFrames(samples) {
  const frames = [];
  for (let offset = 0; offset < samples.length; offset += FRAME) {
    const frame = new Int16Array(FRAME);
    frame.set(samples.subarray(offset, offset + FRAME));
    frames.push(frame);
  }
  return frames;
}

/**
 * Times `step(frame)` on every frame, one at a time as the session calls it. Answers the
 * total compute, the real-time factor (compute ÷ audio) and the per-frame distribution.
 */
export function timePerFrame(frames, step) {
  for (let i = 0; i < WARM_UP_FRAMES; i += 1) step(frames[i % frames.length]);
  const us = frames.map((frame) => {
    const started = hrtimeUs();
    step(frame);
    return hrtimeUs() - started;
  });
  return frameCost(us);
}

/** Cost figures from per-frame compute times (µs). */
export function frameCost(us) {
  const computeMs = us.reduce((sum, t) => sum + t, 0) / 1000;
  const audioMs = us.length * FRAME_MS;
  return {
    frames: us.length,
    audioSeconds: audioMs / 1000,
    computeMs,
    rtf: computeMs / audioMs,
    meanUs: (computeMs * 1000) / us.length,
    p95Us: quantile(us, 0.95),
    maxUs: us.reduce((max, t) => Math.max(max, t), 0),
  };
}

export async function timeRnnoise(frames) {
  const suppressor = await voice.RnnoiseSuppressor.create();
  try {
    return {
      ...timePerFrame(frames, (frame) => suppressor.process(frame)),
      latencyMs: suppressor.latencyMs,
    };
  } finally {
    suppressor.dispose();
  }
}

export async function timeVad(frames) {
  const vad = await voice.WebRtcVad.create();
  try {
    return { ...timePerFrame(frames, (frame) => vad.isSpeech(frame)), mode: vad.mode };
  } finally {
    vad.dispose();
  }
}

/** The 22.05 → 16 kHz resampler, streaming `samples` (eSpeak output) in 100 ms chunks. */
export async function timeTtsResampler(samples) {
  const resampler = await voice.Resampler.create(
    voice.ESPEAK_SAMPLE_RATE,
    voice.CALLER_SAMPLE_RATE,
  );
  try {
    resampler.process(samples.subarray(0, voice.ESPEAK_SAMPLE_RATE)); // warm-up
    resampler.reset();
    let computeUs = 0;
    const chunks = [];
    for (let offset = 0; offset < samples.length; offset += TTS_CHUNK) {
      const started = hrtimeUs();
      resampler.process(samples.subarray(offset, offset + TTS_CHUNK));
      const us = hrtimeUs() - started;
      computeUs += us;
      chunks.push(us);
    }
    const audioSeconds = samples.length / voice.ESPEAK_SAMPLE_RATE;
    return {
      quality: resampler.quality,
      audioSeconds,
      computeMs: computeUs / 1000,
      rtf: computeUs / 1e6 / audioSeconds,
      chunks: chunks.length,
      meanUsPerChunk: computeUs / chunks.length,
    };
  } finally {
    resampler.dispose();
  }
}
