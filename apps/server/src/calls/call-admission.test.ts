import { afterEach, describe, expect, it, vi } from 'vitest';
import { admissionMessage, CallAdmission } from './call-admission.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('CallAdmission (places for live calls)', () => {
  it('refuses past the total, then takes a call again once one ends', () => {
    const admission = new CallAdmission({ maxCalls: 2, maxPerAddress: 10 });
    expect(admission.admit('a', null, null)).toBeNull();
    expect(admission.admit('b', '192.0.2.1', null)).toBeNull();
    expect(admission.full).toBe(true);
    expect(admission.admit('c', null, null)).toEqual({ problem: 'full', limit: 2 });
    admission.release('a');
    admission.release('a'); // idempotent
    expect(admission.count).toBe(1);
    expect(admission.admit('c', null, null)).toBeNull();
  });

  it('refuses past the per-address cap, for that address only', () => {
    const admission = new CallAdmission({ maxCalls: 10, maxPerAddress: 2 });
    expect(admission.admit('a', '192.0.2.1', null)).toBeNull();
    expect(admission.admit('b', '192.0.2.1', null)).toBeNull();
    expect(admission.admit('c', '192.0.2.1', null)).toEqual({ problem: 'address', limit: 2 });
    expect(admission.admit('d', '198.51.100.7', null)).toBeNull();
    // Not counted per address: the operator's own servers.
    expect(admission.admit('e', null, null)).toBeNull();
    admission.release('b');
    expect(admission.admit('c', '192.0.2.1', null)).toBeNull();
  });

  it('gives a place back when its link is never opened, and keeps it once the caller connects', () => {
    vi.useFakeTimers();
    const admission = new CallAdmission({ maxCalls: 2, maxPerAddress: 10 });
    admission.admit('unopened', '192.0.2.1', 65_000);
    admission.admit('opened', '192.0.2.1', 65_000);
    expect(admission.connected('opened')).toBe(true);
    expect(admission.connected('never-admitted')).toBe(false);
    vi.advanceTimersByTime(65_000);
    expect(admission.count).toBe(1);
    expect(admission.connected('unopened')).toBe(false);
    vi.advanceTimersByTime(10 * 60_000);
    expect(admission.count).toBe(1);
  });

  it('says in words why a call was refused', () => {
    expect(admissionMessage({ problem: 'full', limit: 12 })).toBe(
      'All lines are busy (this server takes 12 calls at a time). Please try again in a minute.',
    );
    expect(admissionMessage({ problem: 'address', limit: 4 })).toBe(
      'Your network already has 4 calls open, the most allowed at once. End one of them, or try again in a minute.',
    );
    expect(admissionMessage({ problem: 'address', limit: 1 })).toBe(
      'Your network already has a call open, the most allowed at once. End it, or try again in a minute.',
    );
  });
});
