import { describe, expect, it } from 'vitest';
import { carriesOn, looksComplete, TurnDetector } from './turn-detector.js';

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

  it('keeps the voiced frames held back just before a turn, up to a limit', () => {
    // "v": sounds like speech but held back (the echo guard); "S": speech.
    const push = (detector: TurnDetector, pattern: string) =>
      [...pattern].map((c) => detector.push(frame(), c === 'S', () => false, c !== '.')).at(-1);
    const held = new TurnDetector({ frameMs: 20, prerollFrames: 2, heldFrames: 5 });
    const start = push(held, '....vvvvSSS');
    expect(start?.type === 'start' && start.frames.length).toBe(2 + 4 + 3);
    // A short unvoiced gap inside the words (a consonant's closure) keeps the run…
    const closure = new TurnDetector({ frameMs: 20, prerollFrames: 2, heldFrames: 10 });
    const afterClosure = push(closure, '....vv.vv...vSSS');
    expect(afterClosure?.type === 'start' && afterClosure.frames.length).toBe(2 + 9 + 3);
    // …a longer quiet ends it: only the usual pre-roll.
    const gap = new TurnDetector({ frameMs: 20, prerollFrames: 2, heldFrames: 5 });
    const afterGap = push(gap, '....vvvv....SSS');
    expect(afterGap?.type === 'start' && afterGap.frames.length).toBe(2 + 3);
    // No more than `heldFrames` held frames join.
    const long = new TurnDetector({ frameMs: 20, prerollFrames: 2, heldFrames: 5 });
    const capped = push(long, '.'.repeat(4) + 'v'.repeat(30) + 'SSS');
    expect(capped?.type === 'start' && capped.frames.length).toBe(2 + 5 + 3);
  });

  it("gives a turn that starts right after another the whole pre-roll, from that turn's silence only", () => {
    // Frames numbered by when they came, so the pre-roll shows where it reaches back to.
    const numbered = (detector: TurnDetector) => {
      let n = 0;
      return (pattern: string) =>
        [...pattern].map((c) => detector.push(Int16Array.of((n += 1)), c === 'S', () => false));
    };
    const push = numbered(new TurnDetector({ frameMs: 20, silenceMs: 100, prerollFrames: 4 }));
    expect(push('..SSSSS.....').at(-1)?.type).toBe('end');
    // Frames 3–7 were the first turn's speech; 8–12 its trailing silence.
    const start = push('.SSS').at(-1);
    expect(start?.type === 'start' && start.frames.map((f) => f[0])).toEqual([
      10, 11, 12, 13, 14, 15, 16,
    ]);
    // Straight after the words, the pre-roll stops at them.
    const pushTight = numbered(new TurnDetector({ frameMs: 20, silenceMs: 40, prerollFrames: 4 }));
    expect(pushTight('SSSSS..').at(-1)?.type).toBe('end');
    const next = pushTight('SSS').at(-1);
    expect(next?.type === 'start' && next.frames.map((f) => f[0])).toEqual([6, 7, 8, 9, 10]);
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

  it('says with each frame of a turn how long the caller has been quiet', () => {
    const detector = new TurnDetector({ frameMs: 20, silenceMs: 500 });
    run(detector, 'SSS');
    const quiet = [...'SS...S..'].map((c) => {
      const event = detector.push(frame(), c === 'S', () => false);
      return event.type === 'frame' ? event.silenceMs : event.type;
    });
    expect(quiet).toEqual([0, 0, 20, 40, 60, 0, 20, 40]);
  });

  it('treats a word that leaves the sentence hanging as not complete', () => {
    expect(looksComplete('what are your opening hours')).toBe(true);
    expect(looksComplete('i would like to')).toBe(false);
    expect(looksComplete('yes')).toBe(false);
  });

  it('tells words that carry on a sentence from words that begin one', () => {
    expect(carriesOn('for a flu shot')).toBe(true);
    expect(carriesOn(' And my knee')).toBe(true);
    expect(carriesOn('what are your opening hours')).toBe(false);
    expect(carriesOn('know about my cough')).toBe(false);
    expect(carriesOn('')).toBe(false);
  });
});
