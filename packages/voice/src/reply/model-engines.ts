import type { ModelEngine } from '../engines/types.js';
import { LocalReplyEngine } from './local/engine.js';
import { OpenAiCompatibleReplyEngine } from './openai/engine.js';

/** The embedded reply engine: answers from the assistant's own knowledge, offline. */
export const localModel: ModelEngine = {
  name: 'local',
  create: (assistant, options) => ({
    engine: new LocalReplyEngine({ assistant, variableValues: options.variableValues }),
  }),
};

/** OpenAI's chat completions; runs only with the organisation's key. */
export const openAiModel: ModelEngine = {
  name: 'openai',
  create: (assistant, options) => {
    const apiKey = options.credentials('openai');
    if (!apiKey) return { unavailable: 'no credential for openai' };
    return {
      engine: new OpenAiCompatibleReplyEngine({
        assistant,
        provider: 'openai',
        apiKey,
        variableValues: options.variableValues,
        firstTokenTimeoutMs: options.firstTokenTimeoutMs,
        fetch: options.fetch,
      }),
    };
  },
};

/** Any OpenAI-compatible endpoint at `model.url`; the key is optional (self-hosted ones often take none). */
export const customLlmModel: ModelEngine = {
  name: 'custom-llm',
  create: (assistant, options) => {
    if (!assistant.model?.url) return { unavailable: 'custom-llm has no model.url' };
    return {
      engine: new OpenAiCompatibleReplyEngine({
        assistant,
        provider: 'custom-llm',
        apiKey: options.credentials('custom-llm'),
        variableValues: options.variableValues,
        firstTokenTimeoutMs: options.firstTokenTimeoutMs,
        fetch: options.fetch,
      }),
    };
  },
};

/** The reply providers every process has. */
export const BUILT_IN_MODELS: readonly ModelEngine[] = [localModel, openAiModel, customLlmModel];
