import type { AssistantDto } from '@talkbooth/protocol';
import { LocalReplyEngine } from './local/engine.js';
import type { ModelEngine } from '../engines/types.js';
import { BUILT_IN_MODELS } from './model-engines.js';
import type { ReplyFetch } from './openai/engine.js';
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
 * The reply engine for an assistant's `model.provider`, among `models` (by default the
 * built-in ones: `local`, also when there is no model; `openai`, which needs a key;
 * `custom-llm`, which needs `model.url`). Anything else, or a provider that cannot run,
 * falls back to the local engine and says why.
 */
export function createReplyEngine(
  assistant: AssistantDto,
  options: CreateReplyEngineOptions,
  models: readonly ModelEngine[] = BUILT_IN_MODELS,
): CreatedReplyEngine {
  const local = (fallbackReason: string): CreatedReplyEngine => ({
    engine: new LocalReplyEngine({ assistant, variableValues: options.variableValues }),
    fallbackReason,
  });
  const provider = assistant.model?.provider ?? 'local';
  const model = models.find((m) => m.name === provider);
  if (model === undefined) return local(`model provider ${provider} is not supported here`);
  const created = model.create(assistant, options);
  return 'unavailable' in created ? local(created.unavailable) : { engine: created.engine };
}
