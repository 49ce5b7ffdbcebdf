import type { AssistantDto } from '@talkbooth/protocol';
import { LocalReplyEngine } from './local/engine.js';
import { OpenAiCompatibleReplyEngine, type ReplyFetch } from './openai/engine.js';
import type { ReplyEngine } from './types.js';

export interface CreateReplyEngineOptions {
  /** Values for `{{variable}}` in the first message (and a hosted model's prompt). */
  variableValues?: Record<string, unknown>;
  /** The API key for a provider (`openai`, `custom-llm`), if the organisation has one. */
  credentials: (provider: string) => string | undefined;
  /** Passed to a hosted engine. */
  firstTokenTimeoutMs?: number;
  /** The fetch a hosted engine reaches its endpoint with (default: the global one). */
  fetch?: ReplyFetch;
}

export interface CreatedReplyEngine {
  engine: ReplyEngine;
  /** Set when the assistant's model provider could not run and the local engine runs instead. */
  fallbackReason?: string;
}

/**
 * The reply engine for an assistant's `model.provider`: `local` (also when there is no
 * model), `openai` (needs a key), or `custom-llm` (needs `model.url`; the key is optional,
 * since self-hosted endpoints often take none). Anything else, or a hosted provider that
 * cannot run, falls back to the local engine and says why.
 */
export function createReplyEngine(
  assistant: AssistantDto,
  options: CreateReplyEngineOptions,
): CreatedReplyEngine {
  const { variableValues } = options;
  const local = (fallbackReason?: string): CreatedReplyEngine => {
    const engine = new LocalReplyEngine({ assistant, variableValues });
    return fallbackReason === undefined ? { engine } : { engine, fallbackReason };
  };
  const provider = assistant.model?.provider;
  switch (provider) {
    case undefined:
    case 'local':
      return local();
    case 'openai': {
      const apiKey = options.credentials('openai');
      if (!apiKey) return local('no credential for openai');
      return {
        engine: new OpenAiCompatibleReplyEngine({
          assistant,
          provider,
          apiKey,
          variableValues,
          firstTokenTimeoutMs: options.firstTokenTimeoutMs,
          fetch: options.fetch,
        }),
      };
    }
    case 'custom-llm': {
      const url = assistant.model?.url;
      if (!url) return local('custom-llm has no model.url');
      return {
        engine: new OpenAiCompatibleReplyEngine({
          assistant,
          provider,
          apiKey: options.credentials('custom-llm'),
          variableValues,
          firstTokenTimeoutMs: options.firstTokenTimeoutMs,
          fetch: options.fetch,
        }),
      };
    }
    default:
      return local(`model provider ${provider} is not supported here`);
  }
}
