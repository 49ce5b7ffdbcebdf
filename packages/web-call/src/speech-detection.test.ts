import { describe, expect, it } from 'vitest';
import {
  AUDIO_LEVEL_INTERVAL_MS,
  FULL_VOLUME_LEVEL,
  SPEECH_END_DELAY_MS,
  SPEECH_LEVEL_THRESHOLD,
  SpeechDetector,
  volumeFromLevel,
} from './speech-detection.js';

describe('speech detection constants', () => {
  it('are the hosted SDK values', () => {
    expect(AUDIO_LEVEL_INTERVAL_MS).toBe(100);
    expect(SPEECH_LEVEL_THRESHOLD).toBe(0.01);
    expect(SPEECH_END_DELAY_MS).toBe(1000);
    expect(FULL_VOLUME_LEVEL).toBe(0.15);
  });
});

describe('volumeFromLevel', () => {
  it('is min(1, level / 0.15)', () => {
    expect(volumeFromLevel(0)).toBe(0);
    expect(volumeFromLevel(0.03)).toBeCloseTo(0.2, 10);
    expect(volumeFromLevel(0.075)).toBeCloseTo(0.5, 10);
    expect(volumeFromLevel(0.15)).toBe(1);
    expect(volumeFromLevel(0.6)).toBe(1);
  });

  it('is 0 for nonsense levels', () => {
    expect(volumeFromLevel(Number.NaN)).toBe(0);
    expect(volumeFromLevel(-0.5)).toBe(0);
    expect(volumeFromLevel(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('SpeechDetector', () => {
  it('starts speech on the first level above 0.01, once', () => {
    const detector = new SpeechDetector();
    expect(detector.sample(0.01, 0).speechStart).toBe(false); // not above
    expect(detector.sample(0.0101, 100).speechStart).toBe(true);
    expect(detector.sample(0.5, 200).speechStart).toBe(false);
    expect(detector.speaking).toBe(true);
  });

  it('ends speech exactly 1000 ms after the last level above 0.01', () => {
    const detector = new SpeechDetector();
    detector.sample(0.2, 0);
    detector.sample(0.2, 500);
    expect(detector.speechEndDueAt).toBe(1500);
    expect(detector.sample(0, 1400).speechEnd).toBe(false);
    expect(detector.expire(1499)).toBe(false);
    expect(detector.expire(1500)).toBe(true);
    expect(detector.speaking).toBe(false);
    expect(detector.speechEndDueAt).toBeNull();
    expect(detector.expire(2000)).toBe(false);
  });

  it('ends and restarts in one sample when speech resumes after the delay', () => {
    const detector = new SpeechDetector();
    detector.sample(0.2, 0);
    const sample = detector.sample(0.2, 1000);
    expect(sample).toEqual({ volume: 1, speechEnd: true, speechStart: true });
  });

  it('keeps speaking while loud samples come less than 1000 ms apart', () => {
    const detector = new SpeechDetector();
    const events: string[] = [];
    for (let t = 0; t <= 5000; t += 100) {
      const loud = t % 900 === 0; // loud every 900 ms only
      const result = detector.sample(loud ? 0.1 : 0.005, t);
      if (result.speechStart) events.push(`start@${t}`);
      if (result.speechEnd) events.push(`end@${t}`);
    }
    expect(events).toEqual(['start@0']);
  });

  it('reports the volume of every sample', () => {
    const detector = new SpeechDetector();
    expect(detector.sample(0.0075, 0).volume).toBeCloseTo(0.05, 10);
    expect(detector.sample(0.3, 100).volume).toBe(1);
  });

  it('reset says whether speech was going on', () => {
    const detector = new SpeechDetector();
    expect(detector.reset()).toBe(false);
    detector.sample(0.1, 0);
    expect(detector.reset()).toBe(true);
    expect(detector.speaking).toBe(false);
  });
});
