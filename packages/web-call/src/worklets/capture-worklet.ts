/**
 * The capture worklet: the microphone at the context's rate (usually 48 kHz) in, exact
 * 20 ms frames of PCM s16 at 16 kHz out (posted to the main thread, which sends them).
 *
 * This module must stay a single self-contained file (no runtime imports): it is loaded
 * with `audioWorklet.addModule(new URL('./worklets/capture-worklet.js', import.meta.url))`
 * and bundlers copy such a file as an asset without following its imports. Its pure
 * classes are exported for the unit tests; the processor is registered only inside an
 * AudioWorkletGlobalScope.
 */
import type { CaptureOptions } from './worklet-protocol.js';

/** Must equal CAPTURE_PROCESSOR in worklet-protocol.ts (a test checks). */
const PROCESSOR_NAME = 'talkbooth-capture';

/**
 * A streaming sample-rate converter for downsampling speech: a windowed-sinc low-pass
 * (Hamming, cutoff a little under the output's Nyquist rate) evaluated only at the input
 * samples around each output position, then linear interpolation between the two filtered
 * values. For 48 kHz → 16 kHz the positions are whole (every third sample), so it is plain
 * filtered decimation; for 44.1 kHz the interpolation handles the fraction (the signal is
 * band-limited to under a third of the input rate by then, so the error is small).
 * Equal rates pass through; a higher output rate is linear interpolation.
 */
export class Downsampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /** Input samples per output sample. */
  private readonly step: number;
  private readonly kernel: Float32Array;
  /** Half the kernel length: the filter looks this far back and ahead. */
  private readonly half: number;
  private buffer: Float32Array;
  private length = 0;
  /** Absolute input index of buffer[0]. */
  private bufferStart = 0;
  /** Absolute input position of the next output sample. */
  private position = 0;
  private output = new Float32Array(256);

  constructor(inputRate: number, outputRate: number, taps = 63) {
    if (!(inputRate > 0) || !(outputRate > 0)) throw new RangeError('Rates must be positive.');
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.step = inputRate / outputRate;
    if (inputRate > outputRate) {
      const length = taps | 1; // odd: symmetric around a centre tap
      this.half = (length - 1) / 2;
      // Cutoff as a fraction of the input rate: 90 % of the output's Nyquist frequency
      // (7.2 kHz for 16 kHz output), so little aliases back into the speech band.
      this.kernel = lowPassKernel(length, (0.45 * outputRate) / inputRate);
    } else {
      this.half = 0;
      this.kernel = new Float32Array([1]);
    }
    this.buffer = new Float32Array(4096 + 2 * this.half);
    // Zeros before the first sample, so the filter has history from the start.
    this.length = this.half;
    this.bufferStart = -this.half;
  }

  /**
   * Converts the next input samples; returns the output samples they complete, as a view
   * that stays valid until the next call (the audio thread should not allocate per block).
   */
  process(input: Float32Array): Float32Array {
    this.append(input);
    const end = this.bufferStart + this.length; // one past the last input index we have
    const capacity = Math.ceil(input.length / this.step) + 2;
    if (this.output.length < capacity) this.output = new Float32Array(capacity * 2);
    const { step, half, output } = this;
    let count = 0;
    for (;;) {
      const index = Math.floor(this.position);
      const fraction = this.position - index;
      const needed = fraction === 0 ? index + half : index + 1 + half;
      if (needed >= end) break;
      let value = this.filteredAt(index);
      if (fraction !== 0) value += (this.filteredAt(index + 1) - value) * fraction;
      if (count === output.length) break; // cannot happen with the capacity above
      output[count] = value;
      count += 1;
      this.position += step;
    }
    this.discardBefore(Math.floor(this.position) - half);
    return output.subarray(0, count);
  }

  /** The low-pass output centred on absolute input index `index`. */
  private filteredAt(index: number): number {
    const { kernel, buffer, half } = this;
    const start = index - half - this.bufferStart;
    let sum = 0;
    for (let k = 0; k < kernel.length; k += 1) sum += (kernel[k] ?? 0) * (buffer[start + k] ?? 0);
    return sum;
  }

  private append(input: Float32Array): void {
    if (this.length + input.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.length + input.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(input, this.length);
    this.length += input.length;
  }

  private discardBefore(absoluteIndex: number): void {
    const drop = Math.min(this.length, Math.max(0, absoluteIndex - this.bufferStart));
    if (drop === 0) return;
    this.buffer.copyWithin(0, drop, this.length);
    this.length -= drop;
    this.bufferStart += drop;
  }
}

/** A Hamming-windowed sinc low-pass with unity gain at DC; `cutoff` in cycles per sample. */
export function lowPassKernel(length: number, cutoff: number): Float32Array {
  const kernel = new Float32Array(length);
  const middle = (length - 1) / 2;
  let sum = 0;
  for (let i = 0; i < length; i += 1) {
    const x = i - middle;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const window = length === 1 ? 1 : 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (length - 1));
    kernel[i] = sinc * window;
    sum += sinc * window;
  }
  for (let i = 0; i < length; i += 1) kernel[i] = (kernel[i] ?? 0) / sum;
  return kernel;
}

/** Float samples (−1..1) to PCM s16, clipped and rounded. */
export function toInt16(sample: number): number {
  const clipped = sample > 1 ? 1 : sample < -1 ? -1 : sample;
  return Math.round(clipped < 0 ? clipped * 0x8000 : clipped * 0x7fff);
}

/** Cuts a stream of float samples into exact frames of PCM s16. */
export class FrameAssembler {
  private frame: Int16Array;
  private filled = 0;

  constructor(readonly frameSamples: number) {
    this.frame = new Int16Array(frameSamples);
  }

  /** Adds samples; returns every frame they complete (each a fresh Int16Array). */
  push(samples: Float32Array): Int16Array[] {
    const frames: Int16Array[] = [];
    for (let i = 0; i < samples.length; i += 1) {
      this.frame[this.filled] = toInt16(samples[i] ?? 0);
      this.filled += 1;
      if (this.filled === this.frameSamples) {
        frames.push(this.frame);
        this.frame = new Int16Array(this.frameSamples);
        this.filled = 0;
      }
    }
    return frames;
  }
}

/** Mixes a block's channels to mono (a mono input is returned as is). */
export function mixToMono(channels: Float32Array[]): Float32Array | null {
  const first = channels[0];
  if (first === undefined) return null;
  if (channels.length === 1) return first;
  const mono = new Float32Array(first.length);
  for (const channel of channels) {
    for (let i = 0; i < mono.length; i += 1) mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0);
  }
  for (let i = 0; i < mono.length; i += 1) mono[i] = (mono[i] ?? 0) / channels.length;
  return mono;
}

if (typeof registerProcessor === 'function') {
  registerProcessor(
    PROCESSOR_NAME,
    class CaptureProcessor extends AudioWorkletProcessor {
      private readonly downsampler: Downsampler;
      private readonly frames: FrameAssembler;

      constructor(options: AudioWorkletNodeOptions) {
        super(options);
        const settings = options.processorOptions as CaptureOptions;
        this.downsampler = new Downsampler(sampleRate, settings.targetRate);
        this.frames = new FrameAssembler(settings.frameSamples);
      }

      process(inputs: Float32Array[][]): boolean {
        const mono = mixToMono(inputs[0] ?? []);
        if (mono === null) return true; // no input connected (yet)
        for (const frame of this.frames.push(this.downsampler.process(mono))) {
          this.port.postMessage(frame, [frame.buffer]);
        }
        return true;
      }
    },
  );
}
