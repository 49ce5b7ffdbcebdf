import { describe, expect, it } from 'vitest';
import { EchoGuard } from './echo-guard.js';

describe('EchoGuard', () => {
  it('lets anything through when the assistant is silent', () => {
    expect(new EchoGuard().allows(1000, -60)).toBe(true);
  });

  it('holds back frames far quieter than what the assistant is playing, but not a louder voice', () => {
    const guard = new EchoGuard({ marginDb: 12, tailMs: 400, aheadMs: 250 });
    for (let t = 0; t < 1000; t += 20) guard.noteAssistant(t, -14);
    expect(guard.allows(500, -34)).toBe(false); // the echo, 20 dB down
    expect(guard.allows(500, -20)).toBe(true); // the caller, talking over it
    expect(guard.allows(1500, -34)).toBe(true); // past the echo tail
  });

  it('also holds back an echo of audio that played earlier than planned (sent ahead)', () => {
    const guard = new EchoGuard({ marginDb: 12, tailMs: 400, aheadMs: 250 });
    for (let t = 1000; t < 2000; t += 20) guard.noteAssistant(t, -14);
    expect(guard.allows(800, -34)).toBe(false);
    expect(guard.allows(700, -34)).toBe(true);
  });

  it('keeps a long utterance queued at once in view until it has played', () => {
    const guard = new EchoGuard();
    // Twenty seconds of speech, all queued ahead at once (synthesis is faster than playback).
    for (let t = 0; t < 20_000; t += 20) guard.noteAssistant(t, -14);
    expect(guard.allows(15_000, -34)).toBe(false);
  });

  it('forgets audio that will never play after a barge-in', () => {
    const guard = new EchoGuard();
    for (let t = 0; t < 2000; t += 20) guard.noteAssistant(t, -14);
    guard.dropAfter(500);
    expect(guard.allows(1500, -40)).toBe(true);
  });
});
