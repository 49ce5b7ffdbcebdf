import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ESPEAK_SAMPLE_RATE,
  EspeakSynthesizer,
  UnknownVoiceError,
  type EspeakSynthesisOptions,
} from './espeak-synthesizer.js';
import type { VoiceResolution } from './voices.js';
import { collectSpeech } from '../collect.js';
import { concatInt16, rmsDbfs } from '../../audio/pcm.js';

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const LONG =
  'Thank you for calling the Riverside Clinic. Our opening hours are eight in the morning ' +
  'until six in the evening, Monday to Friday, and you can book, move or cancel an appointment ' +
  'with me at any time of the day.';

let synth: EspeakSynthesizer;
beforeAll(async () => {
  synth = await EspeakSynthesizer.create();
});
afterAll(() => synth.dispose());

async function speak(text: string, options: EspeakSynthesisOptions): Promise<Int16Array> {
  return (await collectSpeech(synth, text, options)).samples;
}

function seconds(samples: Int16Array): number {
  return samples.length / ESPEAK_SAMPLE_RATE;
}

/** Median fundamental frequency of the voiced 40 ms frames (autocorrelation, 60–400 Hz). */
function medianPitch(samples: Int16Array, sampleRate: number): number {
  const size = Math.round(sampleRate * 0.04);
  const pitches: number[] = [];
  for (let start = 0; start + size <= samples.length; start += size) {
    const frame = samples.subarray(start, start + size);
    if (rmsDbfs(frame) < -35) continue;
    let energy = 0;
    for (let i = 0; i < size; i++) energy += frame[i]! * frame[i]!;
    let bestLag = 0;
    let best = 0;
    for (let lag = Math.floor(sampleRate / 400); lag <= Math.ceil(sampleRate / 60); lag++) {
      let sum = 0;
      for (let i = 0; i + lag < size; i++) sum += frame[i]! * frame[i + lag]!;
      if (sum > best) {
        best = sum;
        bestLag = lag;
      }
    }
    if (best > 0.3 * energy) pitches.push(sampleRate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

/** Loudness contour: RMS dB of each 50 ms window. */
function envelope(samples: Int16Array): number[] {
  const size = Math.round(ESPEAK_SAMPLE_RATE * 0.05);
  const out: number[] = [];
  for (let start = 0; start + size <= samples.length; start += size) {
    let energy = 0;
    for (let i = start; i < start + size; i++) energy += samples[i]! * samples[i]!;
    out.push(10 * Math.log10(energy / size + 1));
  }
  return out;
}

/**
 * How alike two renditions are: correlation of their loudness contours. eSpeak adds random
 * jitter (fricative noise, timing shifts of a few ms that add up over long texts), so the
 * same request never gives identical samples, but for one sentence it gives the same
 * contour (≥0.99 measured); another accent scores ≈0.6 and another text ≈0. A variant of
 * the same voice can reach ≈0.95, so variants are told apart by pitch instead.
 */
function similarity(a: Int16Array, b: Int16Array): number {
  const x = envelope(a);
  const y = envelope(b);
  const n = Math.min(x.length, y.length);
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]! / n;
    my += y[i]! / n;
  }
  let xy = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < n; i++) {
    xy += (x[i]! - mx) * (y[i]! - my);
    xx += (x[i]! - mx) ** 2;
    yy += (y[i]! - my) ** 2;
  }
  return xy / Math.sqrt(xx * yy);
}

/** Same length, give or take eSpeak's jitter (±1.5%). */
function sameLength(a: Int16Array, b: Int16Array): boolean {
  return Math.abs(a.length - b.length) <= 0.015 * Math.max(a.length, b.length);
}

/** Same request (for a sentence), as far as eSpeak's jitter allows. */
function sameSpeech(a: Int16Array, b: Int16Array): boolean {
  return sameLength(a, b) && similarity(a, b) > 0.9;
}

describe('EspeakSynthesizer', () => {
  it('describes itself', () => {
    expect(synth.provider).toBe('espeak-ng');
    expect(synth.sampleRate).toBe(22_050);
    expect(synth.voices.length).toBeGreaterThan(50);
    expect(synth.variants).toContain('f3');
  });

  it('speaks a sentence: non-silent audio of a plausible duration', async () => {
    const audio = await speak(SENTENCE, { voice: 'en-us' });
    // Nine words at 175 words per minute: about three seconds.
    expect(seconds(audio)).toBeGreaterThan(1.5);
    expect(seconds(audio)).toBeLessThan(5);
    expect(rmsDbfs(audio)).toBeGreaterThan(-30);
    // Speech, not a constant: a good share of 20 ms windows is loud, some are quiet.
    const windows = Math.floor(audio.length / 441);
    let loud = 0;
    for (let w = 0; w < windows; w++)
      if (rmsDbfs(audio.subarray(w * 441, (w + 1) * 441)) > -30) loud++;
    expect(loud / windows).toBeGreaterThan(0.4);
    expect(loud / windows).toBeLessThan(1);
  });

  it('speaks longer at a slower rate and shorter at a faster one', async () => {
    const normal = seconds(await speak(SENTENCE, { voice: 'en-us' }));
    const slow = seconds(await speak(SENTENCE, { voice: 'en-us', rate: 100 }));
    const fast = seconds(await speak(SENTENCE, { voice: 'en-us', rate: 300 }));
    expect(slow).toBeGreaterThan(normal * 1.4);
    expect(fast).toBeLessThan(normal * 0.8);
    await expect(speak(SENTENCE, { voice: 'en-us', rate: 20 })).rejects.toThrow(RangeError);
  });

  it('streams ~100 ms chunks, the first long before the sentence is done', async () => {
    const started = performance.now();
    let firstAt = 0;
    const chunks: Int16Array[] = [];
    for await (const chunk of synth.synthesize(LONG, { voice: 'en-us' })) {
      if (chunks.length === 0) firstAt = performance.now() - started;
      chunks.push(chunk);
    }
    const totalAt = performance.now() - started;
    expect(chunks.length).toBeGreaterThan(50);
    const sizes = chunks.map((c) => c.length).sort((a, b) => a - b);
    expect(sizes[Math.floor(sizes.length / 2)]).toBe(2205 + 1); // eSpeak's 100 ms buffer
    expect(sizes.at(-1)).toBeLessThanOrEqual(2206);
    // Streaming: the first chunk arrives in a small fraction of the whole synthesis time.
    // (A whole-utterance implementation delivers everything at ~totalAt.)
    expect(firstAt).toBeLessThan(totalAt / 3);
  });

  it('gives different audio for different voices and variants', async () => {
    const us = await speak(SENTENCE, { voice: 'en-us' });
    const usAgain = await speak(SENTENCE, { voice: 'en-us' });
    const gb = await speak(SENTENCE, { voice: 'en-gb' });
    const female = await speak(SENTENCE, { voice: 'en-us+f3' });
    expect(sameSpeech(usAgain, us)).toBe(true);
    expect(similarity(gb, us)).toBeLessThan(0.9);
    // The f3 variant is a female voice: clearly higher pitched.
    expect(medianPitch(female, ESPEAK_SAMPLE_RATE)).toBeGreaterThan(
      1.3 * medianPitch(us, ESPEAK_SAMPLE_RATE),
    );
  });

  it('resolves voice names and falls back to en-us for unknown ones', async () => {
    expect(synth.resolveVoice('en-us')).toEqual({
      requested: 'en-us',
      voice: 'gmw/en-US',
      fallback: false,
    });
    expect(synth.resolveVoice('EN-GB').voice).toBe('gmw/en');
    expect(synth.resolveVoice('en-us+f3').voice).toBe('gmw/en-US+f3');
    expect(synth.resolveVoice('English (America)').voice).toBe('gmw/en-US');

    const notes: VoiceResolution[] = [];
    const unknown = await speak(SENTENCE, {
      voice: 'tlh-klingon',
      onVoiceFallback: (r) => notes.push(r),
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      requested: 'tlh-klingon',
      voice: 'gmw/en-US',
      fallback: true,
    });
    expect(notes[0]!.reason).toMatch(/tlh-klingon/);
    expect(sameSpeech(unknown, await speak(SENTENCE, { voice: 'en-us' }))).toBe(true);

    const variant = synth.resolveVoice('en-gb+nosuchvariant');
    expect(variant).toMatchObject({ voice: 'gmw/en', fallback: true });

    await expect(
      speak(SENTENCE, { voice: 'tlh-klingon', strictVoice: true }),
    ).rejects.toBeInstanceOf(UnknownVoiceError);
  });

  it('tells the synthesiser-wide listener about fallbacks too', async () => {
    const notes: VoiceResolution[] = [];
    const other = await EspeakSynthesizer.create({ onVoiceFallback: (r) => notes.push(r) });
    try {
      await collectSpeech(other, 'Hi.', { voice: 'zz-nothing' });
      await collectSpeech(other, 'Hi.', { voice: 'en-us' });
      expect(notes.map((n) => n.requested)).toEqual(['zz-nothing']);
    } finally {
      other.dispose();
    }
  });

  it('speaks markup characters as text instead of failing', async () => {
    const audio = await speak('Is 3 < 5 & 7 > 2? <b>yes</b>', { voice: 'en-us' });
    expect(seconds(audio)).toBeGreaterThan(1);
    expect(await speak('   ', { voice: 'en-us' })).toHaveLength(0);
  });

  it('stops promptly when aborted, and keeps working afterwards', async () => {
    const controller = new AbortController();
    const chunks: Int16Array[] = [];
    for await (const chunk of synth.synthesize(LONG, {
      voice: 'en-us',
      signal: controller.signal,
    })) {
      chunks.push(chunk);
      if (chunks.length === 2) controller.abort();
    }
    // Nothing after the abort (the whole reply is over 10 s, i.e. 100+ chunks).
    expect(chunks).toHaveLength(2);
    expect(seconds(concatInt16(chunks))).toBeLessThan(0.25);

    // Already aborted: nothing at all.
    expect(await speak(LONG, { voice: 'en-us', signal: AbortSignal.abort() })).toHaveLength(0);

    // Breaking out of the loop stops it too, and the engine is free for the next call.
    for await (const _chunk of synth.synthesize(LONG, { voice: 'en-us' })) break;
    expect(
      sameSpeech(
        await speak(SENTENCE, { voice: 'en-us' }),
        await speak(SENTENCE, { voice: 'en-us' }),
      ),
    ).toBe(true);
  });

  it('aborting a queued call drops it without disturbing the running one', async () => {
    const controller = new AbortController();
    const running = speak(LONG, { voice: 'en-us' });
    const queued = speak(LONG, { voice: 'en-gb', signal: controller.signal });
    controller.abort();
    expect(await queued).toHaveLength(0);
    expect(seconds(await running)).toBeGreaterThan(5);
  });

  it('serialises concurrent calls: each gets its own audio', async () => {
    const alone = [
      await speak(LONG, { voice: 'en-us' }),
      await speak(SENTENCE, { voice: 'en-gb+m3', rate: 120 }),
      await speak('Goodbye.', { voice: 'en-us+f3' }),
    ];
    const together = await Promise.all([
      speak(LONG, { voice: 'en-us' }),
      speak(SENTENCE, { voice: 'en-gb+m3', rate: 120 }),
      speak('Goodbye.', { voice: 'en-us+f3' }),
    ]);
    // Each has the length of its own request (they differ by far more than eSpeak's
    // jitter, so a chunk from another call would show)…
    expect(together.map((audio, i) => sameLength(audio, alone[i]!))).toEqual([true, true, true]);
    expect(sameSpeech(together[1]!, alone[1]!)).toBe(true);
    // …and its own voice: the m3 line is far lower pitched than the f3 one.
    expect(medianPitch(together[1]!, ESPEAK_SAMPLE_RATE)).toBeLessThan(
      0.7 * medianPitch(together[2]!, ESPEAK_SAMPLE_RATE),
    );
  });

  it('reuses the loaded engine and refuses use after dispose', async () => {
    const second = await EspeakSynthesizer.create();
    second.dispose();
    second.dispose();
    await expect(collectSpeech(second, 'Hi.', { voice: 'en-us' })).rejects.toThrow(/dispose/);
    // The first synthesiser still works: the shared engine stays up while it is in use.
    expect((await speak('Still here.', { voice: 'en-us' })).length).toBeGreaterThan(0);
  });
});
