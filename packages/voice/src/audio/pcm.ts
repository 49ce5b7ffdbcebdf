/**
 * Plain PCM helpers: sample-format conversion, byte (wire) conversion and levels.
 *
 * Conventions used across the voice engine:
 * - Float samples are in [-1, 1), scaled by 32768 (so Int16 → Float32 → Int16 is exact).
 * - Levels are RMS levels in dBFS relative to 32768 (a full-scale square wave is 0 dBFS,
 *   a full-scale sine about -3 dBFS); silence is `-Infinity`.
 */
import { endianness } from 'node:os';

const LITTLE_ENDIAN_HOST = endianness() === 'LE';

/** Int16 PCM → float samples in [-1, 1). */
export function int16ToFloat32(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    out[i] = samples[i]! / 32768;
  }
  return out;
}

/** Float samples (nominally [-1, 1]) → Int16 PCM, rounded and clipped. */
export function float32ToInt16(samples: ArrayLike<number>): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    out[i] = clampInt16(samples[i]! * 32768);
  }
  return out;
}

/** Rounds and saturates a value to the Int16 range (NaN becomes 0). */
export function clampInt16(value: number): number {
  if (Number.isNaN(value)) return 0;
  const rounded = Math.round(value);
  return rounded > 32767 ? 32767 : rounded < -32768 ? -32768 : rounded;
}

/**
 * Little-endian 16-bit PCM bytes (a Buffer or any Uint8Array, at any byte offset) → a new
 * Int16Array. Always copies, so the result never aliases Node's shared Buffer pool and an
 * odd `byteOffset` is harmless. Throws a RangeError on an odd byte count.
 */
export function bytesToInt16(bytes: Uint8Array): Int16Array {
  if (bytes.byteLength % 2 !== 0) {
    throw new RangeError(`16-bit PCM needs an even number of bytes, got ${bytes.byteLength}`);
  }
  const out = new Int16Array(bytes.byteLength / 2);
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(out.buffer).set(bytes);
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  }
  return out;
}

/** Int16 PCM → a new Buffer of little-endian bytes (the wire format). */
export function int16ToBytes(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  if (LITTLE_ENDIAN_HOST) {
    out.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
  } else {
    for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, i * 2);
  }
  return out;
}

/** Root-mean-square of Int16 samples, in sample units (0 for an empty array). */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    sum += s * s;
  }
  return Math.sqrt(sum / samples.length);
}

/** RMS level in dBFS (re 32768); `-Infinity` for silence or an empty array. */
export function rmsDbfs(samples: Int16Array): number {
  return amplitudeToDbfs(rms(samples));
}

/** Peak level in dBFS (re 32768); `-Infinity` for silence. */
export function peakDbfs(samples: Int16Array): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const a = Math.abs(samples[i]!);
    if (a > peak) peak = a;
  }
  return amplitudeToDbfs(peak);
}

/** An amplitude in sample units → dBFS (re 32768). */
export function amplitudeToDbfs(amplitude: number): number {
  return amplitude > 0 ? 20 * Math.log10(amplitude / 32768) : -Infinity;
}

/** A dBFS level → amplitude in sample units (re 32768). */
export function dbfsToAmplitude(dbfs: number): number {
  return 32768 * Math.pow(10, dbfs / 20);
}

/** Concatenates Int16 chunks into one new array. */
export function concatInt16(chunks: readonly Int16Array[]): Int16Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Int16Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Duration of `sampleCount` samples at `sampleRate`, in milliseconds. */
export function samplesToMs(sampleCount: number, sampleRate: number): number {
  return (sampleCount * 1000) / sampleRate;
}
