/** WAV files ↔ {@link PcmAudio}, via the `wavefile` package. */
import wavefile from 'wavefile';
import type { PcmAudio } from './format.js';

const { WaveFile } = wavefile;

/** Encodes mono 16-bit PCM as a canonical RIFF/WAVE file. */
export function encodeWav(audio: PcmAudio): Buffer {
  const { samples, sampleRate } = audio;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`sampleRate must be a positive integer, got ${sampleRate}`);
  }
  const wav = new WaveFile();
  wav.fromScratch(1, sampleRate, '16', samples);
  const bytes = wav.toBuffer();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Decodes a WAV file into mono 16-bit PCM at the file's own rate. Accepts integer PCM of any
 * bit depth, 32/64-bit float, µ-law, A-law and IMA-ADPCM; several channels are averaged to
 * one. Throws when the data is not a WAV file wavefile can read.
 */
export function decodeWav(data: Uint8Array): PcmAudio {
  const wav = new WaveFile(data);
  const fmt = wav.fmt as { numChannels?: number; sampleRate?: number };
  const channels = fmt.numChannels ?? 0;
  const sampleRate = fmt.sampleRate ?? 0;
  if (channels < 1 || sampleRate <= 0) {
    throw new Error(`Unsupported WAV: ${channels} channels at ${sampleRate} Hz`);
  }
  if (wav.bitDepth === '8m') wav.fromMuLaw('16');
  else if (wav.bitDepth === '8a') wav.fromALaw('16');
  else if (wav.bitDepth === '4') wav.fromIMAADPCM('16');
  if (wav.bitDepth !== '16') wav.toBitDepth('16');
  const interleaved = wav.getSamples(true, Int16Array) as unknown as Int16Array;
  if (channels === 1) return { samples: Int16Array.from(interleaved), sampleRate };
  const frames = Math.floor(interleaved.length / channels);
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += interleaved[i * channels + c]!;
    samples[i] = Math.round(sum / channels);
  }
  return { samples, sampleRate };
}
