import { describe, expect, it } from 'vitest';
import { AudioOutput } from './audio-output.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('AudioOutput', () => {
  it('sends at playback speed with a lead, and reports what was heard', async () => {
    const sent: number[] = [];
    const output = new AudioOutput({
      sampleRate: 1000,
      leadMs: 100,
      tickMs: 10,
      send: (c) => sent.push(c.length),
    });
    output.enqueue(new Int16Array(1000)); // one second of audio
    const first = sent.reduce((a, b) => a + b, 0);
    expect(first).toBe(100); // only the lead goes out at once
    await wait(300);
    const total = sent.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(total).toBeLessThanOrEqual(460);
    const heard = output.clear();
    expect(heard).toBeGreaterThanOrEqual(250);
    expect(heard).toBeLessThanOrEqual(total);
    const after = sent.length;
    await wait(50);
    expect(sent.length).toBe(after); // cleared: nothing more is sent
  });

  it('resolves drained once everything has played', async () => {
    const output = new AudioOutput({
      sampleRate: 1000,
      leadMs: 50,
      tickMs: 10,
      send: () => undefined,
    });
    const started = performance.now();
    output.enqueue(new Int16Array(200));
    await output.drained();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(output.isActive()).toBe(false);
  });

  it('consumes audio but sends nothing while muted', async () => {
    const sent: number[] = [];
    const output = new AudioOutput({
      sampleRate: 1000,
      leadMs: 50,
      tickMs: 10,
      send: (c) => sent.push(c.length),
    });
    output.muted = true;
    output.enqueue(new Int16Array(100));
    await output.drained();
    expect(sent).toEqual([]);
  });
});
