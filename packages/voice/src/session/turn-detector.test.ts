import { describe, expect, it } from 'vitest';
import { looksComplete, TurnDetector } from './turn-detector.js';

const frame = () => new Int16Array(320);

function run(detector: TurnDetector, pattern: string, complete = false) {
  return [...pattern].map((c) => detector.push(frame(), c === 'S', () => complete).type);
}

describe('TurnDetector', () => {
  it('starts a turn after three speech frames, with the pre-roll', () => {
    const detector = new TurnDetector({ frameMs: 20, prerollFrames: 2 });
    const events = run(detector, '..SS.SSS');
    expect(events).toEqual(['idle', 'idle', 'idle', 'idle', 'idle', 'idle', 'idle', 'start']);
    const again = new TurnDetector({ frameMs: 20, prerollFrames: 2 });
    run(again, '....SS');
    const start = again.push(frame(), true, () => false);
    expect(start).toMatchObject({ type: 'start' });
    expect(start.type === 'start' && start.frames.length).toBe(5);
  });

  it('ends a turn after the silence wait, earlier when the words are complete', () => {
    const slow = new TurnDetector({ frameMs: 20, silenceMs: 500, earlySilenceMs: 200 });
    run(slow, 'SSS');
    const silence = run(slow, '.'.repeat(25));
    expect(silence.indexOf('end')).toBe(24);

    const quick = new TurnDetector({ frameMs: 20, silenceMs: 500, earlySilenceMs: 200 });
    run(quick, 'SSS');
    expect(run(quick, '.'.repeat(25), true).indexOf('end')).toBe(9);
  });

  it('treats a word that leaves the sentence hanging as not complete', () => {
    expect(looksComplete('what are your opening hours')).toBe(true);
    expect(looksComplete('i would like to')).toBe(false);
    expect(looksComplete('yes')).toBe(false);
  });
});
