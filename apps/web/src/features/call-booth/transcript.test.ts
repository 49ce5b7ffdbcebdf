import { describe, expect, it } from 'vitest';
import { formatElapsed } from './CallTimer';
import { createLevelStore } from './level-store';
import { EMPTY_TRANSCRIPT, addTranscript } from './transcript';

describe('transcript', () => {
  it('keeps one partial per side and turns it into a line when final', () => {
    let t = addTranscript(EMPTY_TRANSCRIPT, 'user', 'partial', 'Hel');
    t = addTranscript(t, 'assistant', 'partial', 'One moment');
    t = addTranscript(t, 'user', 'partial', 'Hello th');
    expect(t.partial).toEqual({ user: 'Hello th', assistant: 'One moment' });
    t = addTranscript(t, 'user', 'final', ' Hello there ');
    expect(t.lines).toEqual([{ id: 1, role: 'user', text: 'Hello there' }]);
    expect(t.partial).toEqual({ user: null, assistant: 'One moment' });
  });

  it('drops an empty final with its partial, and ignores a repeated partial', () => {
    const partial = addTranscript(EMPTY_TRANSCRIPT, 'user', 'partial', 'uh');
    expect(addTranscript(partial, 'user', 'partial', 'uh')).toBe(partial);
    const dropped = addTranscript(partial, 'user', 'final', '  ');
    expect(dropped.lines).toEqual([]);
    expect(dropped.partial.user).toBeNull();
  });
});

describe('formatElapsed', () => {
  it('writes mm:ss, with minutes past an hour', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(83.9)).toBe('01:23');
    expect(formatElapsed(4_502)).toBe('75:02');
    expect(formatElapsed(-3)).toBe('00:00');
  });
});

describe('level store', () => {
  it('clamps the level and tells subscribers only about changes', () => {
    const store = createLevelStore();
    let changes = 0;
    const unsubscribe = store.subscribe(() => (changes += 1));
    store.set(0.5);
    store.set(0.5);
    store.set(3);
    expect(store.get()).toBe(1);
    store.set(Number.NaN);
    expect(store.get()).toBe(0);
    expect(changes).toBe(3);
    unsubscribe();
    store.set(0.2);
    expect(changes).toBe(3);
  });
});
