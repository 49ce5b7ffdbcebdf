import { describe, expect, it } from 'vitest';
import {
  JitterBuffer,
  LevelMeter,
  PlaybackEngine,
  StreamResampler,
  jitterOptionsFor,
} from './playback-worklet.js';
import type { PlaybackOptions, PlaybackOutMessage } from './worklet-protocol.js';

const OPTIONS = { startSamples: 100, maxWaitSamples: 50, capacitySamples: 1000 };

function pcm(length: number, value = 1000): Int16Array {
  return new Int16Array(length).fill(value);
}

function read(buffer: JitterBuffer, count: number): { out: Float32Array; real: number } {
  const out = new Float32Array(count);
  const real = buffer.read(out);
  return { out, real };
}

describe('JitterBuffer (playback worklet)', () => {
  it('plays silence until enough is buffered, then plays in order', () => {
    const buffer = new JitterBuffer(OPTIONS);
    buffer.push(Int16Array.from({ length: 60 }, (_, i) => i));
    expect(read(buffer, 10).real).toBe(0); // 60 < 100 buffered, waited 10 < 50
    buffer.push(Int16Array.from({ length: 60 }, (_, i) => 60 + i));
    expect(buffer.playing).toBe(false);
    const { out, real } = read(buffer, 30);
    expect(buffer.playing).toBe(true);
    expect(real).toBe(30);
    expect(Array.from(out, (v) => Math.round(v * 0x8000))).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
    expect(buffer.buffered).toBe(90);
  });

  it('starts a short utterance after the first sample waited maxWait', () => {
    const buffer = new JitterBuffer(OPTIONS);
    expect(read(buffer, 128).real).toBe(0); // nothing queued: waiting does not count
    buffer.push(pcm(20));
    expect(read(buffer, 25).real).toBe(0); // waited 25
    expect(read(buffer, 25).real).toBe(0); // waited 50
    const { real } = read(buffer, 25);
    expect(real).toBe(20); // plays what it has, then underruns
    expect(buffer.playing).toBe(false);
    expect(buffer.underruns).toBe(1);
  });

  it('goes back to buffering after running dry', () => {
    const buffer = new JitterBuffer(OPTIONS);
    buffer.push(pcm(100));
    expect(read(buffer, 100).real).toBe(100);
    expect(buffer.playing).toBe(true);
    const { out, real } = read(buffer, 10);
    expect(real).toBe(0);
    expect([...out].every((v) => v === 0)).toBe(true);
    expect(buffer.playing).toBe(false);
    buffer.push(pcm(30));
    expect(read(buffer, 10).real).toBe(0); // below the threshold again
  });

  it('clear drops everything queued at once', () => {
    const buffer = new JitterBuffer(OPTIONS);
    buffer.push(pcm(300));
    read(buffer, 50);
    expect(buffer.clear()).toBe(250);
    expect(buffer.buffered).toBe(0);
    expect(buffer.playing).toBe(false);
    const { out, real } = read(buffer, 64);
    expect(real).toBe(0);
    expect([...out].every((v) => v === 0)).toBe(true);
  });

  it('drops the oldest audio past its capacity', () => {
    const buffer = new JitterBuffer(OPTIONS);
    buffer.push(Int16Array.from({ length: 600 }, () => 1));
    buffer.push(Int16Array.from({ length: 600 }, () => 2));
    expect(buffer.buffered).toBe(1000);
    expect(buffer.overflowed).toBe(200);
    const { out } = read(buffer, 1000);
    expect(Math.round((out[0] ?? 0) * 0x8000)).toBe(1);
    expect(Math.round((out[399] ?? 0) * 0x8000)).toBe(1);
    expect(Math.round((out[400] ?? 0) * 0x8000)).toBe(2);
  });

  it('sizes its thresholds in milliseconds of the source rate', () => {
    const options: PlaybackOptions = {
      sourceRate: 22_050,
      startMs: 80,
      maxWaitMs: 80,
      capacityMs: 5000,
      levelWindowMs: 50,
    };
    expect(jitterOptionsFor(options, 22_050)).toEqual({
      startSamples: 1764,
      maxWaitSamples: 1764,
      capacitySamples: 110_250,
    });
  });
});

describe('StreamResampler (playback worklet)', () => {
  it('consumes source samples at the rate ratio', () => {
    const resampler = new StreamResampler(22_050, 48_000);
    let consumed = 0;
    const out = new Float32Array(128);
    for (let block = 0; block < 375; block += 1) {
      resampler.render(out, (into) => {
        consumed += into.length;
        into.fill(0);
      });
    }
    // 375 blocks of 128 = 1 s at 48 kHz.
    expect(Math.abs(consumed - 22_050)).toBeLessThanOrEqual(1);
  });

  it('upsamples a tone faithfully', () => {
    const resampler = new StreamResampler(22_050, 48_000);
    let t = 0;
    const output: number[] = [];
    const out = new Float32Array(128);
    for (let block = 0; block < 100; block += 1) {
      resampler.render(out, (into) => {
        for (let i = 0; i < into.length; i += 1) {
          into[i] = 0.5 * Math.sin((2 * Math.PI * 500 * t) / 22_050);
          t += 1;
        }
      });
      output.push(...out);
    }
    // Output sample n is source position n·(22050/48000) − 3 (the interpolator's history).
    let worst = 0;
    for (let n = 100; n < output.length; n += 1) {
      const position = (n * 22_050) / 48_000 - 3;
      const ideal = 0.5 * Math.sin((2 * Math.PI * 500 * position) / 22_050);
      worst = Math.max(worst, Math.abs((output[n] ?? 0) - ideal));
    }
    expect(worst).toBeLessThan(0.01);
  });
});

describe('LevelMeter (playback worklet)', () => {
  it('reports the sum of squares once per window', () => {
    const meter = new LevelMeter(256);
    expect(meter.add(new Float32Array(128).fill(0.5))).toBeNull();
    expect(meter.add(new Float32Array(128).fill(0.5))).toEqual({ sumSquares: 64, frames: 256 });
    expect(meter.add(new Float32Array(128))).toBeNull();
  });
});

describe('PlaybackEngine (playback worklet)', () => {
  const options: PlaybackOptions = {
    sourceRate: 24_000,
    startMs: 10,
    maxWaitMs: 10,
    capacityMs: 5000,
    levelWindowMs: 10,
  };

  it('plays queued audio and reports its loudness', () => {
    const posted: PlaybackOutMessage[] = [];
    const engine = new PlaybackEngine(options, 48_000, (m) => posted.push(m));
    engine.handle({ type: 'audio', samples: pcm(2400, 16_384) }); // 100 ms at 0.5
    const out = new Float32Array(128);
    for (let i = 0; i < 8; i += 1) engine.render(out);
    expect(out[64]).toBeCloseTo(0.5, 5);
    const level = posted.find((m) => m.type === 'level');
    expect(level).toBeDefined();
    if (level?.type === 'level') {
      expect(Math.sqrt(level.sumSquares / level.frames)).toBeGreaterThan(0.4);
    }
  });

  it('clear silences the output on the next block and says what it dropped', () => {
    const posted: PlaybackOutMessage[] = [];
    const engine = new PlaybackEngine(options, 48_000, (m) => posted.push(m));
    engine.handle({ type: 'audio', samples: pcm(24_000, 16_384) }); // 1 s
    const out = new Float32Array(128);
    engine.render(out);
    engine.render(out);
    expect(out[127]).toBeCloseTo(0.5, 5);
    engine.handle({ type: 'clear' });
    const cleared = posted.find((m) => m.type === 'cleared');
    expect(cleared).toEqual({ type: 'cleared', dropped: expect.any(Number) });
    if (cleared?.type === 'cleared') expect(cleared.dropped).toBeGreaterThan(23_000);
    engine.render(out);
    expect([...out].every((v) => v === 0)).toBe(true);
    expect(engine.buffer.buffered).toBe(0);
  });

  it('switches to the announced source rate', () => {
    const engine = new PlaybackEngine(options, 48_000, () => undefined);
    engine.handle({ type: 'format', sampleRate: 16_000 });
    engine.handle({ type: 'audio', samples: pcm(1600, 16_384) }); // 100 ms at 16 kHz
    const out = new Float32Array(128);
    let blocks = 0;
    let played = 0;
    do {
      engine.render(out);
      blocks += 1;
      played += out.filter((v) => v !== 0).length;
    } while (engine.buffer.buffered > 0 || engine.buffer.playing);
    // 100 ms at 48 kHz is 4800 output samples (± the interpolator's edges).
    expect(played).toBeGreaterThan(4700);
    expect(played).toBeLessThan(4900);
    expect(blocks).toBeLessThan(60);
  });
});
