import { describe, expect, it } from 'vitest';
import { describeWait, mentionsWaitTime, parseRetryAfter, withWaitTime } from './retry-after';

describe('retry-after', () => {
  it('parses seconds and HTTP dates', () => {
    expect(parseRetryAfter('900')).toBe(900);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now)).toBe(90);
  });

  it('describes waits for people', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(30)).toBe('30 seconds');
    expect(describeWait(60)).toBe('1 minute');
    expect(describeWait(900)).toBe('15 minutes');
    expect(describeWait(61)).toBe('2 minutes');
    expect(describeWait(3 * 3600)).toBe('3 hours');
  });

  it('knows whether a message already says when to retry', () => {
    expect(mentionsWaitTime('Try again in 15 minutes.')).toBe(true);
    expect(mentionsWaitTime('Wait 30s.')).toBe(true);
    expect(mentionsWaitTime('Try again in a minute.')).toBe(true);
    expect(mentionsWaitTime('Too many wrong codes.')).toBe(false);
  });

  it('adds the wait only when missing', () => {
    expect(withWaitTime('Too many wrong codes.', 900)).toBe(
      'Too many wrong codes. Try again in 15 minutes.',
    );
    expect(withWaitTime('Too many wrong codes', 30)).toBe(
      'Too many wrong codes. Try again in 30 seconds.',
    );
    expect(withWaitTime('Try again in 15 minutes.', 900)).toBe('Try again in 15 minutes.');
    expect(withWaitTime('Too many wrong codes.', null)).toBe('Too many wrong codes.');
  });
});
