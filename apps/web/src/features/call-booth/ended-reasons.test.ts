import { describe, expect, it } from 'vitest';
import { endedReasonNote } from './ended-reasons';

describe('endedReasonNote', () => {
  it('explains endings the visitor did not choose, and not their own hang-up', () => {
    expect(endedReasonNote('server-shutdown')).toBe(
      'The call ended because the service was stopped or restarted.',
    );
    expect(endedReasonNote('silence-timed-out')).toBe(
      'The call ended because nobody spoke for a while.',
    );
    expect(endedReasonNote('customer-ended-call')).toBeNull();
    expect(endedReasonNote(undefined)).toBeNull();
  });
});
