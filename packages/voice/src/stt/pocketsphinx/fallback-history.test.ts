import { describe, expect, it } from 'vitest';
import { FallbackHistory } from './fallback-history.js';

describe('FallbackHistory', () => {
  it('guesses every call needs a general decoder until it has heard enough utterances', () => {
    const history = new FallbackHistory({ size: 10, minHeard: 3 });
    expect(history.share).toBe(1);
    history.record(false);
    history.record(false);
    expect(history.share).toBe(1);
    history.record(false);
    expect(history.share).toBe(0);
  });

  it('answers the share of its recent utterances that needed one, forgetting the oldest', () => {
    const history = new FallbackHistory({ size: 4, minHeard: 2 });
    for (const needed of [true, true, false, false]) history.record(needed);
    expect(history.share).toBe(0.5);
    // Two more sure ones push the two that needed one out.
    history.record(false);
    history.record(false);
    expect(history.share).toBe(0);
    history.record(true);
    expect(history.share).toBe(0.25);
  });
});
