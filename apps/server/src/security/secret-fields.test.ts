import { describe, expect, it } from 'vitest';
import { joinSecrets, mask, maskSecrets, splitSecrets } from './secret-fields.js';

const PATHS = ['serverUrlSecret', 'model.apiKey', 'voice.auth.token'];

function assistant() {
  return {
    name: 'Clinic',
    serverUrlSecret: 'server-secret-0001',
    model: { provider: 'openai', apiKey: 'sk-very-secret-1234', messages: [{ role: 'system' }] },
    voice: { provider: 'espeak' },
    knowledgeBase: [{ id: 'hours', question: 'When are you open?' }],
  };
}

describe('secret fields', () => {
  it('splits secrets off and joins them back into an equal document', () => {
    const original = assistant();
    const { open, secrets } = splitSecrets(original, PATHS);
    expect(secrets).toEqual({
      serverUrlSecret: 'server-secret-0001',
      'model.apiKey': 'sk-very-secret-1234',
    });
    expect(JSON.stringify(open)).not.toContain('secret-');
    expect(original.model.apiKey).toBe('sk-very-secret-1234');
    expect(joinSecrets(open, secrets)).toEqual(original);
  });

  it('joins a secret whose parent object the open part lacks', () => {
    expect(joinSecrets({ name: 'x' }, { 'voice.auth.token': 'tok-123456789012' })).toEqual({
      name: 'x',
      voice: { auth: { token: 'tok-123456789012' } },
    });
  });

  it('joins without changing the open document it was given', () => {
    const open = { name: 'x', model: { provider: 'openai' } };
    const joined = joinSecrets(open, { 'model.apiKey': 'sk-1' });
    expect(open).toEqual({ name: 'x', model: { provider: 'openai' } });
    expect(joined).toEqual({ name: 'x', model: { provider: 'openai', apiKey: 'sk-1' } });
  });

  it('masks every secret path holding a string, keeping the last four of long values', () => {
    const original = assistant();
    const masked = maskSecrets(original, PATHS);
    expect(masked.serverUrlSecret).toBe('••••0001');
    expect(masked.model.apiKey).toBe('••••1234');
    expect(mask('short')).toBe('••••');
    // Paths that hold nothing stay absent rather than appearing as undefined keys.
    expect('auth' in masked.voice).toBe(false);
    expect(masked.knowledgeBase).toEqual(original.knowledgeBase);
  });

  it('masks a copy: the stored document keeps its secrets', () => {
    const original = assistant();
    maskSecrets(original, PATHS);
    expect(original.serverUrlSecret).toBe('server-secret-0001');
    expect(original.model.apiKey).toBe('sk-very-secret-1234');
  });
});
