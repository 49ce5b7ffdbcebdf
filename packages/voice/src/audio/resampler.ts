/**
 * Streaming sample-rate conversion with the Speex resampler (SpeexDSP, compiled to WASM by
 * `@echogarden/speex-resampler-wasm`). Mono only.
 *
 * A {@link Resampler} keeps its filter state between calls, so feeding a signal in chunks of
 * any size gives exactly the same output as feeding it whole. The price of a streaming
 * filter is a fixed delay ({@link Resampler.latency}); {@link resample} converts a whole
 * buffer with that delay removed.
 */
import { concatInt16 } from './pcm.js';
import { loadEmscriptenModule, once, type EmscriptenModule } from './emscripten.js';

interface SpeexModule extends EmscriptenModule {
  _speex_resampler_init(
    channels: number,
    inRate: number,
    outRate: number,
    quality: number,
    errorPointer: number,
  ): number;
  _speex_resampler_destroy(state: number): void;
  _speex_resampler_process_int(
    state: number,
    channel: number,
    input: number,
    inputLengthPointer: number,
    output: number,
    outputLengthPointer: number,
  ): number;
  _speex_resampler_process_float(
    state: number,
    channel: number,
    input: number,
    inputLengthPointer: number,
    output: number,
    outputLengthPointer: number,
  ): number;
  _speex_resampler_get_input_latency(state: number): number;
  _speex_resampler_get_output_latency(state: number): number;
  _speex_resampler_skip_zeros(state: number): number;
  _speex_resampler_reset_mem(state: number): number;
  _speex_resampler_strerror(code: number): number;
}

const SPEEX_EXPORTS = [
  '_speex_resampler_init',
  '_speex_resampler_destroy',
  '_speex_resampler_process_int',
  '_speex_resampler_process_float',
  '_speex_resampler_get_input_latency',
  '_speex_resampler_get_output_latency',
  '_speex_resampler_skip_zeros',
  '_speex_resampler_reset_mem',
  '_speex_resampler_strerror',
];

/**
 * One Speex WASM module for the whole process (each resampler only allocates its own state
 * in it). The SIMD build is about 4× faster; the plain build is the fallback for runtimes
 * without WASM SIMD.
 */
const loadSpeex = once(async (): Promise<SpeexModule> => {
  try {
    return await loadEmscriptenModule<SpeexModule>(
      '@echogarden/speex-resampler-wasm/simd',
      SPEEX_EXPORTS,
    );
  } catch {
    return await loadEmscriptenModule<SpeexModule>(
      '@echogarden/speex-resampler-wasm',
      SPEEX_EXPORTS,
    );
  }
});

/** Speex's own default quality ("VoIP-plus"): good enough for speech, cheap. */
export const DEFAULT_RESAMPLER_QUALITY = 4;

export interface ResamplerOptions {
  /** Speex quality 0 (fastest) … 10 (best); default {@link DEFAULT_RESAMPLER_QUALITY}. */
  quality?: number;
}

/** Input samples handed to Speex per call; bounds the WASM buffers. */
const MAX_BLOCK = 4096;

/** A streaming mono resampler from `inputRate` to `outputRate`. */
export class Resampler {
  /** The filter delay in output samples (0 when the rates are equal). */
  readonly latency: number;
  /** The filter delay in input samples (0 when the rates are equal). */
  readonly inputLatency: number;

  private readonly module: SpeexModule | undefined;
  private state = 0;
  private inputPointer = 0;
  private outputPointer = 0;
  private lengthsPointer = 0;
  private readonly outputCapacity: number;
  private disposed = false;

  /**
   * Loads the Speex WASM module (once per process) and makes a resampler.
   * Rates are positive integers in Hz; throws a RangeError otherwise.
   */
  static async create(
    inputRate: number,
    outputRate: number,
    options: ResamplerOptions = {},
  ): Promise<Resampler> {
    const quality = options.quality ?? DEFAULT_RESAMPLER_QUALITY;
    checkRate(inputRate, 'inputRate');
    checkRate(outputRate, 'outputRate');
    if (!Number.isInteger(quality) || quality < 0 || quality > 10) {
      throw new RangeError(`Resampler quality must be an integer 0–10, got ${quality}`);
    }
    const module = inputRate === outputRate ? undefined : await loadSpeex();
    return new Resampler(module, inputRate, outputRate, quality);
  }

  private constructor(
    module: SpeexModule | undefined,
    readonly inputRate: number,
    readonly outputRate: number,
    readonly quality: number,
  ) {
    this.module = module;
    this.outputCapacity = Math.ceil((MAX_BLOCK * outputRate) / inputRate) + 64;
    if (!module) {
      this.latency = 0;
      this.inputLatency = 0;
      return;
    }
    const errorPointer = module._malloc(4);
    try {
      this.state = module._speex_resampler_init(1, inputRate, outputRate, quality, errorPointer);
      const code = module.HEAP32[errorPointer >> 2]!;
      if (this.state === 0 || code !== 0) {
        throw new Error(`Speex resampler init failed: ${speexError(module, code)}`);
      }
    } finally {
      module._free(errorPointer);
    }
    this.inputLatency = module._speex_resampler_get_input_latency(this.state);
    this.latency = module._speex_resampler_get_output_latency(this.state);
    // 4 bytes a sample so the same buffers serve the Int16 and the Float32 paths.
    this.inputPointer = module._malloc(MAX_BLOCK * 4);
    this.outputPointer = module._malloc(this.outputCapacity * 4);
    this.lengthsPointer = module._malloc(8);
  }

  /** Resamples the next chunk of the stream; the output may be a few samples short or long
   * of `length × ratio` since the filter state carries over to the next call. */
  process(input: Int16Array): Int16Array {
    const module = this.checkUsable();
    if (!module) return input.slice();
    return this.run(module, input, false) as Int16Array;
  }

  /** Like {@link process} on float samples (any scale: Speex's float path does not clip). */
  processFloat(input: Float32Array): Float32Array {
    const module = this.checkUsable();
    if (!module) return input.slice();
    return this.run(module, input, true) as Float32Array;
  }

  /**
   * Ends the stream: pushes the samples still inside the filter out (by feeding silence
   * worth the filter delay) and resets, ready for an unrelated stream.
   */
  flush(): Int16Array {
    const module = this.checkUsable();
    if (!module) return new Int16Array(0);
    const tail = this.run(module, new Int16Array(this.inputLatency), false) as Int16Array;
    this.reset();
    return tail;
  }

  /** Forgets the stream so far (the filter history), without a tail. */
  reset(): void {
    const module = this.checkUsable();
    if (module) module._speex_resampler_reset_mem(this.state);
  }

  /** Frees the WASM memory; the resampler is unusable afterwards. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const module = this.module;
    if (!module) return;
    module._speex_resampler_destroy(this.state);
    module._free(this.inputPointer);
    module._free(this.outputPointer);
    module._free(this.lengthsPointer);
    this.state = 0;
  }

  private checkUsable(): SpeexModule | undefined {
    if (this.disposed) throw new Error('Resampler used after dispose()');
    return this.module;
  }

  private run(
    module: SpeexModule,
    input: Int16Array | Float32Array,
    float: boolean,
  ): Int16Array | Float32Array {
    const parts: (Int16Array | Float32Array)[] = [];
    const inLen = this.lengthsPointer >> 2;
    const outLen = inLen + 1;
    let offset = 0;
    while (offset < input.length) {
      const block = input.subarray(offset, Math.min(input.length, offset + MAX_BLOCK));
      if (float) module.HEAPF32.set(block, this.inputPointer >> 2);
      else module.HEAP16.set(block, this.inputPointer >> 1);
      module.HEAPU32[inLen] = block.length;
      module.HEAPU32[outLen] = this.outputCapacity;
      const code = float
        ? module._speex_resampler_process_float(
            this.state,
            0,
            this.inputPointer,
            this.lengthsPointer,
            this.outputPointer,
            this.lengthsPointer + 4,
          )
        : module._speex_resampler_process_int(
            this.state,
            0,
            this.inputPointer,
            this.lengthsPointer,
            this.outputPointer,
            this.lengthsPointer + 4,
          );
      if (code !== 0) throw new Error(`Speex resampler failed: ${speexError(module, code)}`);
      const consumed = module.HEAPU32[inLen]!;
      const produced = module.HEAPU32[outLen]!;
      if (produced > 0) {
        parts.push(
          float
            ? module.HEAPF32.slice(this.outputPointer >> 2, (this.outputPointer >> 2) + produced)
            : module.HEAP16.slice(this.outputPointer >> 1, (this.outputPointer >> 1) + produced),
        );
      }
      if (consumed === 0 && produced === 0) {
        throw new Error('Speex resampler made no progress');
      }
      offset += consumed;
    }
    if (float) return concatFloat32(parts as Float32Array[]);
    return concatInt16(parts as Int16Array[]);
  }
}

/**
 * Resamples a whole buffer, delay-compensated: the output is time-aligned with the input
 * and `round(length × outputRate / inputRate)` samples long.
 */
export async function resample(
  samples: Int16Array,
  inputRate: number,
  outputRate: number,
  options: ResamplerOptions = {},
): Promise<Int16Array> {
  const resampler = await Resampler.create(inputRate, outputRate, options);
  try {
    const expected = Math.round((samples.length * outputRate) / inputRate);
    if (inputRate === outputRate) return samples.slice();
    const body = resampler.process(samples);
    const tail = resampler.flush();
    const full = concatInt16([body, tail]);
    const out = new Int16Array(expected);
    out.set(full.subarray(resampler.latency, resampler.latency + expected));
    return out;
  } finally {
    resampler.dispose();
  }
}

function checkRate(rate: number, name: string): void {
  if (!Number.isInteger(rate) || rate <= 0 || rate > 1_000_000) {
    throw new RangeError(`${name} must be a positive integer sample rate in Hz, got ${rate}`);
  }
}

function speexError(module: SpeexModule, code: number): string {
  const pointer = module._speex_resampler_strerror(code);
  if (!pointer) return `code ${code}`;
  const heap = module.HEAPU8;
  let end = pointer;
  while (end < heap.length && heap[end] !== 0 && end - pointer < 256) end++;
  return `${new TextDecoder().decode(heap.subarray(pointer, end))} (code ${code})`;
}

function concatFloat32(chunks: readonly Float32Array[]): Float32Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Float32Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
