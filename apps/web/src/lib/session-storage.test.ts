import { describe, expect, it } from 'vitest';
import { readAssistantId } from '../features/call-booth/stored-session';
import { saveApiResponse } from './session-storage';

describe('session storage', () => {
  it('stores the answer whole and reads the assistant id back', () => {
    const session = { assistantId: 'a-1', assistantName: 'Helper', product: 'medibrief' };
    expect(saveApiResponse(session)).toBe(true);
    expect(sessionStorage.getItem('apiResponse')).toBe(JSON.stringify(session));
    expect(readAssistantId()).toBe('a-1');
  });

  it('gives null without a session, and null plus a log line for a broken one', () => {
    expect(readAssistantId()).toBeNull();
    sessionStorage.setItem('apiResponse', 'not json');
    expect(readAssistantId()).toBeNull();
    expect(console.error).toHaveBeenCalledTimes(1);
  });

  it('gives null for JSON that is not a session object', () => {
    for (const value of ['[]', 'null', '"x"', '{"assistantId":""}', '{"assistantId":{}}']) {
      sessionStorage.setItem('apiResponse', value);
      expect(readAssistantId()).toBeNull();
    }
  });
});
