import type { AssistantDto } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { createReplyEngine } from './factory.js';
import { LocalReplyEngine } from './local/engine.js';
import { OpenAiCompatibleReplyEngine } from './openai/engine.js';

const withModel = (model: AssistantDto['model']): AssistantDto => ({
  firstMessage: 'Hi {{name}}.',
  model,
});

describe('createReplyEngine', () => {
  it('runs the local engine for local assistants and assistants without a model', () => {
    for (const assistant of [
      withModel({ provider: 'local', model: 'knowledge-base' }),
      { firstMessage: 'Hi' },
    ]) {
      const created = createReplyEngine(assistant, { credentials: () => 'unused' });
      expect(created.engine).toBeInstanceOf(LocalReplyEngine);
      expect(created.engine.provider).toBe('local');
      expect(created.fallbackReason).toBeUndefined();
    }
  });

  it('runs openai with its key, and falls back to local without one', () => {
    const assistant = withModel({ provider: 'openai', model: 'gpt-4o-mini' });
    const asked: string[] = [];
    const created = createReplyEngine(assistant, {
      variableValues: { name: 'Ann' },
      credentials: (provider) => {
        asked.push(provider);
        return 'sk-1';
      },
    });
    expect(asked).toEqual(['openai']);
    expect(created.engine).toBeInstanceOf(OpenAiCompatibleReplyEngine);
    expect(created.engine.provider).toBe('openai');
    expect(created.engine.greeting()).toBe('Hi Ann.');
    expect(created.fallbackReason).toBeUndefined();

    const fallback = createReplyEngine(assistant, { credentials: () => undefined });
    expect(fallback.engine).toBeInstanceOf(LocalReplyEngine);
    expect(fallback.fallbackReason).toBe('no credential for openai');
    expect(fallback.engine.greeting()).toBe('Hi.');
  });

  it('runs custom-llm on its url, with or without a key', () => {
    const created = createReplyEngine(
      withModel({ provider: 'custom-llm', model: 'llama', url: 'http://127.0.0.1:9/v1' }),
      { credentials: () => undefined },
    );
    expect(created.engine).toBeInstanceOf(OpenAiCompatibleReplyEngine);
    expect(created.engine.provider).toBe('custom-llm');
    const noUrl = createReplyEngine(withModel({ provider: 'custom-llm', model: 'llama' }), {
      credentials: () => 'k',
    });
    expect(noUrl.engine.provider).toBe('local');
    expect(noUrl.fallbackReason).toBe('custom-llm has no model.url');
  });

  it('falls back to local for providers it does not run', () => {
    const created = createReplyEngine(withModel({ provider: 'anthropic', model: 'claude' }), {
      credentials: () => 'k',
    });
    expect(created.engine.provider).toBe('local');
    expect(created.fallbackReason).toBe('model provider anthropic is not supported here');
  });
});
