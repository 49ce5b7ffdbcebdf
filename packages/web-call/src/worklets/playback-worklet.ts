/**
 * The playback worklet: the assistant's PCM s16 at the server's rate (22 050 Hz) in, through
 * a small jitter buffer and a resampler, out at the context's rate. A `clear` message drops
 * everything queued at once (barge-in). It reports the loudness of what it actually outputs,
 * which drives the client's speech and volume events.
 *
 * This module must stay a single self-contained file (no runtime imports): see
 * capture-worklet.ts. Its pure classes are exported for the unit tests.
 */
import type { PlaybackInMessage, PlaybackOptions, PlaybackOutMessage } from './worklet-protocol.js';

/** Must equal PLAYBACK_PROCESSOR in worklet-protocol.ts (a test checks). */
const PROCESSOR_NAME = 'talkbooth-playback';

export interface JitterBufferOptions {
  /** Start playing once this many samples are buffered. */
  startSamples: number;
  /** ...or once the first buffered sample has waited this many samples of output time. */
  maxWaitSamples: number;
  /** Never hold more than this many samples: the oldest are dropped past it. */
  capacitySamples: number;
}

/**
 * A FIFO of samples with a start threshold. It starts "buffering": reads give silence until
 * `startSamples` are queued (or the first queued sample has waited `maxWaitSamples`, so a
 * short last utterance still plays). Then it plays; when it runs dry it goes back to
 * buffering (an underrun). `clear` drops everything at once. Time is counted in samples
 * read, so the class needs no clock.
 */
export class JitterBuffer {
  private readonly chunks: Float32Array[] = [];
  /** Read offset into chunks[0]. */
  private offset = 0;
  private queued = 0;
  private waited = 0;
  private isPlaying = false;
  /** Times playback ran dry after starting. */
  underruns = 0;
  /** Samples dropped because the buffer was full. */
  overflowed = 0;

  constructor(private options: JitterBufferOptions) {}

  /** Changes the thresholds (a new source rate); keeps what is queued. */
  configure(options: JitterBufferOptions): void {
    this.options = options;
  }

  get buffered(): number {
    return this.queued;
  }

  get playing(): boolean {
    return this.isPlaying;
  }

  /** Queues PCM s16 samples. */
  push(samples: Int16Array): void {
    if (samples.length === 0) return;
    const chunk = new Float32Array(samples.length);
    for (let i = 0; i < samples.length; i += 1) chunk[i] = (samples[i] ?? 0) / 0x8000;
    this.chunks.push(chunk);
    this.queued += chunk.length;
    const excess = this.queued - this.options.capacitySamples;
    if (excess > 0) {
      this.skip(excess);
      this.overflowed += excess;
    }
  }

  /** Drops everything queued and goes back to buffering; returns how many samples it dropped. */
  clear(): number {
    const dropped = this.queued;
    this.chunks.length = 0;
    this.offset = 0;
    this.queued = 0;
    this.waited = 0;
    this.isPlaying = false;
    return dropped;
  }

  /**
   * Fills `out` with the next samples, silence where there are none; returns how many were
   * real samples (the rest of `out` is zero).
   */
  read(out: Float32Array): number {
    if (!this.isPlaying) {
      if (this.queued === 0) {
        out.fill(0);
        return 0;
      }
      if (this.queued >= this.options.startSamples || this.waited >= this.options.maxWaitSamples) {
        this.isPlaying = true;
      } else {
        this.waited += out.length;
        out.fill(0);
        return 0;
      }
    }
    let written = 0;
    while (written < out.length && this.chunks.length > 0) {
      const chunk = this.chunks[0] as Float32Array;
      const count = Math.min(out.length - written, chunk.length - this.offset);
      out.set(chunk.subarray(this.offset, this.offset + count), written);
      written += count;
      this.offset += count;
      this.queued -= count;
      if (this.offset === chunk.length) {
        this.chunks.shift();
        this.offset = 0;
      }
    }
    if (written < out.length) {
      out.fill(0, written);
      this.isPlaying = false;
      this.waited = 0;
      this.underruns += 1;
    }
    return written;
  }

  private skip(count: number): void {
    let left = count;
    while (left > 0 && this.chunks.length > 0) {
      const chunk = this.chunks[0] as Float32Array;
      const available = chunk.length - this.offset;
      if (available <= left) {
        this.chunks.shift();
        this.offset = 0;
        left -= available;
      } else {
        this.offset += left;
        left = 0;
      }
    }
    this.queued -= count - left;
  }
}

/**
 * A streaming resampler with 4-point cubic (Catmull-Rom) interpolation, for the assistant's
 * voice from the server's rate up to the context's (22 050 → 48 000 Hz). Cubic rather than
 * linear interpolation keeps the images of the upsampled speech low at no real cost.
 */
export class StreamResampler {
  /** Source samples per output sample. */
  private readonly step: number;
  /** The four source samples around the current position: x[-1], x[0], x[1], x[2]. */
  private h0 = 0;
  private h1 = 0;
  private h2 = 0;
  private h3 = 0;
  /** Position between h1 and h2, 0 ≤ fraction < 1. */
  private fraction = 0;
  private source = new Float32Array(0);

  constructor(
    readonly inputRate: number,
    readonly outputRate: number,
  ) {
    this.step = inputRate / outputRate;
  }

  /** Source samples the next `outputCount` outputs consume. */
  needed(outputCount: number): number {
    let fraction = this.fraction;
    let count = 0;
    for (let i = 0; i < outputCount; i += 1) {
      fraction += this.step;
      while (fraction >= 1) {
        fraction -= 1;
        count += 1;
      }
    }
    return count;
  }

  /**
   * Fills `out`, taking the source samples it needs from `read` (which fills the array it
   * is given and may leave silence in it).
   */
  render(out: Float32Array, read: (into: Float32Array) => void): void {
    const count = this.needed(out.length);
    if (this.source.length < count) this.source = new Float32Array(count * 2);
    const source = this.source.subarray(0, count);
    read(source);
    let next = 0;
    for (let i = 0; i < out.length; i += 1) {
      out[i] = catmullRom(this.h0, this.h1, this.h2, this.h3, this.fraction);
      this.fraction += this.step;
      while (this.fraction >= 1) {
        this.fraction -= 1;
        this.h0 = this.h1;
        this.h1 = this.h2;
        this.h2 = this.h3;
        this.h3 = source[next] ?? 0;
        next += 1;
      }
    }
  }

  /** Forgets the history (after a clear, so no old sample is interpolated in). */
  reset(): void {
    this.h0 = this.h1 = this.h2 = this.h3 = 0;
    this.fraction = 0;
  }
}

function catmullRom(p0: number, p1: number, p2: number, p3: number, t: number): number {
  const a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3;
  const b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3;
  const c = -0.5 * p0 + 0.5 * p2;
  return ((a * t + b) * t + c) * t + p1;
}

/** Sums the squares of output samples and reports them once per window. */
export class LevelMeter {
  private sumSquares = 0;
  private frames = 0;

  constructor(private readonly windowFrames: number) {}

  /** Adds a block; returns a report when a window is complete. */
  add(block: Float32Array): { sumSquares: number; frames: number } | null {
    for (let i = 0; i < block.length; i += 1) {
      const value = block[i] ?? 0;
      this.sumSquares += value * value;
    }
    this.frames += block.length;
    if (this.frames < this.windowFrames) return null;
    const report = { sumSquares: this.sumSquares, frames: this.frames };
    this.sumSquares = 0;
    this.frames = 0;
    return report;
  }
}

/** The jitter buffer's thresholds for a source rate. */
export function jitterOptionsFor(options: PlaybackOptions, rate: number): JitterBufferOptions {
  const samples = (ms: number) => Math.max(1, Math.round((ms * rate) / 1000));
  return {
    startSamples: samples(options.startMs),
    maxWaitSamples: samples(options.maxWaitMs),
    capacitySamples: samples(options.capacityMs),
  };
}

/**
 * The playback pipeline of the processor, without the AudioWorklet parts: messages in,
 * blocks of output out, reports back. Exported for the tests.
 */
export class PlaybackEngine {
  private readonly jitter: JitterBuffer;
  private resampler: StreamResampler;
  private readonly meter: LevelMeter;

  constructor(
    private readonly options: PlaybackOptions,
    private readonly outputRate: number,
    private readonly post: (message: PlaybackOutMessage) => void,
  ) {
    this.jitter = new JitterBuffer(jitterOptionsFor(options, options.sourceRate));
    this.resampler = new StreamResampler(options.sourceRate, outputRate);
    this.meter = new LevelMeter(
      Math.max(1, Math.round((options.levelWindowMs * outputRate) / 1000)),
    );
  }

  get buffer(): JitterBuffer {
    return this.jitter;
  }

  handle(message: PlaybackInMessage): void {
    switch (message.type) {
      case 'format':
        if (message.sampleRate > 0 && message.sampleRate !== this.resampler.inputRate) {
          this.resampler = new StreamResampler(message.sampleRate, this.outputRate);
          this.jitter.configure(jitterOptionsFor(this.options, message.sampleRate));
        }
        break;
      case 'audio':
        this.jitter.push(message.samples);
        break;
      case 'clear': {
        const dropped = this.jitter.clear();
        this.resampler.reset();
        this.post({ type: 'cleared', dropped });
        break;
      }
    }
  }

  /** Renders one block of output. */
  render(out: Float32Array): void {
    this.resampler.render(out, (into) => this.jitter.read(into));
    const report = this.meter.add(out);
    if (report !== null) this.post({ type: 'level', ...report });
  }
}

if (typeof registerProcessor === 'function') {
  registerProcessor(
    PROCESSOR_NAME,
    class PlaybackProcessor extends AudioWorkletProcessor {
      private readonly engine: PlaybackEngine;

      constructor(options: AudioWorkletNodeOptions) {
        super(options);
        const post = (message: PlaybackOutMessage) => this.port.postMessage(message);
        this.engine = new PlaybackEngine(
          options.processorOptions as PlaybackOptions,
          sampleRate,
          post,
        );
        this.port.onmessage = (event: MessageEvent<PlaybackInMessage>) =>
          this.engine.handle(event.data);
        post({ type: 'ready' });
      }

      process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
        const channels = outputs[0] ?? [];
        const first = channels[0];
        if (first === undefined) return true;
        this.engine.render(first);
        for (let c = 1; c < channels.length; c += 1) channels[c]?.set(first);
        return true;
      }
    },
  );
}
