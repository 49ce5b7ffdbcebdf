/**
 * RNNoise noise suppression (xiph/rnnoise, compiled to WASM by `@echogarden/rnnoise-wasm`)
 * on the caller's 16 kHz, 20 ms frames.
 *
 * RNNoise only runs at 48 kHz on 480-sample (10 ms) frames, with float samples in the
 * 16-bit range (±32768, not ±1). Each 320-sample frame is therefore:
 *
 *   16 kHz ─Speex ×3→ 960 samples at 48 kHz ─RNNoise ×2 frames→ ─Speex ÷3→ 320 samples
 *
 * The 16↔48 kHz ratio is an integer, so every call returns exactly one frame and the delay
 * is constant: the two resampler filters plus RNNoise's own one-frame (10 ms) overlap-add
 * delay. At the default resampler quality (4) that is 224 samples = 14 ms; see
 * {@link RnnoiseSuppressor.latencySamples}. The samples stay floats between the stages (no
 * extra rounding or clipping until the last step).
 */
import { CALLER_SAMPLE_RATE, FRAME_SAMPLES } from '../../audio/format.js';
import { loadEmscriptenModule, once, type EmscriptenModule } from '../../audio/emscripten.js';
import { clampInt16 } from '../../audio/pcm.js';
import { DEFAULT_RESAMPLER_QUALITY, Resampler } from '../../audio/resampler.js';
import type { NoiseSuppressor } from '../types.js';

interface RnnoiseModule extends EmscriptenModule {
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_get_frame_size(): number;
  _rnnoise_process_frame(state: number, output: number, input: number): number;
}

const loadRnnoise = once(() =>
  loadEmscriptenModule<RnnoiseModule>('@echogarden/rnnoise-wasm', [
    '_rnnoise_create',
    '_rnnoise_destroy',
    '_rnnoise_get_frame_size',
    '_rnnoise_process_frame',
  ]),
);

const RNNOISE_RATE = 48_000;
const RNNOISE_FRAME = 480;
const UPSAMPLE = RNNOISE_RATE / CALLER_SAMPLE_RATE;

export interface RnnoiseOptions {
  /** Speex quality of the 16↔48 kHz conversions (0–10, default 4): higher is a little
   * cleaner, slower and adds latency (≈0.5 ms per step of quality, both ways together). */
  resamplerQuality?: number;
}

/** RNNoise on 16 kHz, 320-sample frames; each instance keeps one call's state. */
export class RnnoiseSuppressor implements NoiseSuppressor {
  /** Constant delay of the output behind the input, in 16 kHz samples. */
  readonly latencySamples: number;
  private state: number;
  private readonly input: number;
  private readonly output: number;
  private readonly high = new Float32Array(FRAME_SAMPLES * UPSAMPLE);
  private voiceProbability = 0;
  private disposed = false;

  /** Loads the WASM modules (once per process) and makes a suppressor. */
  static async create(options: RnnoiseOptions = {}): Promise<RnnoiseSuppressor> {
    const quality = options.resamplerQuality ?? DEFAULT_RESAMPLER_QUALITY;
    const module = await loadRnnoise();
    const up = await Resampler.create(CALLER_SAMPLE_RATE, RNNOISE_RATE, { quality });
    const down = await Resampler.create(RNNOISE_RATE, CALLER_SAMPLE_RATE, { quality });
    return new RnnoiseSuppressor(module, up, down);
  }

  private constructor(
    private readonly module: RnnoiseModule,
    private readonly up: Resampler,
    private readonly down: Resampler,
  ) {
    if (module._rnnoise_get_frame_size() !== RNNOISE_FRAME) {
      throw new Error(`Unexpected RNNoise frame size ${module._rnnoise_get_frame_size()}`);
    }
    this.state = module._rnnoise_create(0);
    this.input = module._malloc(RNNOISE_FRAME * 4);
    this.output = module._malloc(RNNOISE_FRAME * 4);
    this.latencySamples = up.inputLatency + RNNOISE_FRAME / UPSAMPLE + down.latency;
  }

  /** {@link latencySamples} in milliseconds. */
  get latencyMs(): number {
    return (this.latencySamples * 1000) / CALLER_SAMPLE_RATE;
  }

  /** RNNoise's own speech probability (0–1) for the last frame processed, the higher of its
   * two 10 ms halves. A by-product, not a replacement for the VAD. */
  get lastVoiceProbability(): number {
    return this.voiceProbability;
  }

  /**
   * Cleans one 320-sample frame; returns a new 320-sample frame that lags the input by
   * {@link latencySamples}. Throws a RangeError for any other frame length.
   */
  process(frame: Int16Array): Int16Array {
    if (this.disposed) throw new Error('RnnoiseSuppressor used after dispose()');
    if (frame.length !== FRAME_SAMPLES) {
      throw new RangeError(
        `Noise suppression frames must be ${FRAME_SAMPLES} samples, got ${frame.length}`,
      );
    }
    const module = this.module;
    const scaled = Float32Array.from(frame); // RNNoise wants 16-bit scale, as floats
    const high = this.up.processFloat(scaled);
    if (high.length !== this.high.length) {
      throw new Error(`Upsampler returned ${high.length} samples for one frame`);
    }
    let probability = 0;
    for (let offset = 0; offset < high.length; offset += RNNOISE_FRAME) {
      module.HEAPF32.set(high.subarray(offset, offset + RNNOISE_FRAME), this.input >> 2);
      const p = module._rnnoise_process_frame(this.state, this.output, this.input);
      if (p > probability) probability = p;
      this.high.set(
        module.HEAPF32.subarray(this.output >> 2, (this.output >> 2) + RNNOISE_FRAME),
        offset,
      );
    }
    this.voiceProbability = probability;
    const low = this.down.processFloat(this.high);
    if (low.length !== FRAME_SAMPLES) {
      throw new Error(`Downsampler returned ${low.length} samples for one frame`);
    }
    const out = new Int16Array(FRAME_SAMPLES);
    for (let i = 0; i < FRAME_SAMPLES; i++) out[i] = clampInt16(low[i]!);
    return out;
  }

  /** Frees the WASM memory; the suppressor is unusable afterwards. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.module._rnnoise_destroy(this.state);
    this.module._free(this.input);
    this.module._free(this.output);
    this.state = 0;
    this.up.dispose();
    this.down.dispose();
  }
}
