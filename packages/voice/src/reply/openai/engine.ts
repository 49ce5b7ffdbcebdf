import type { AssistantDto } from '@talkbooth/protocol';
import { ReplyProviderError } from '../errors.js';
import { isGoodbye } from '../local/intents.js';
import { normalize } from '../local/text.js';
import { fillTemplate, greetingOf } from '../template.js';
import type { CallConclusion, ChatMessage, ReplyEngine, ReplyEvent } from '../types.js';
import { SseDecoder, type SseEvent } from './sse.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiCompatibleReplyEngineOptions {
  assistant: AssistantDto;
  /** `openai` (api.openai.com) or `custom-llm` (the assistant's `model.url`). */
  provider: 'openai' | 'custom-llm';
  /** Sent as a bearer token; a custom endpoint may need none. */
  apiKey?: string;
  /** Overrides the endpoint's base URL (`…/v1`). */
  baseUrl?: string;
  /** Values for `{{variable}}` in the first message and the system prompt. */
  variableValues?: Record<string, unknown>;
  /** How long to wait for the first token, from the request on. Default 8000 ms. */
  firstTokenTimeoutMs?: number;
  /** How long the stream may go quiet after the first token. Default 15000 ms. */
  idleTimeoutMs?: number;
  /**
   * The fetch to reach the endpoint with (default: the global one). The server passes one
   * that refuses private network addresses for URLs its users gave.
   */
  fetch?: ReplyFetch;
}

/** The part of `fetch` the engine uses. */
export type ReplyFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Spoken replies are short: the default when the assistant sets no `maxTokens`. */
const DEFAULT_MAX_TOKENS = 250;
const DEFAULT_TEMPERATURE = 0.7;

/**
 * A reply engine on an OpenAI-compatible chat-completions endpoint, streamed: text is
 * yielded as the tokens arrive, so the session can speak the first sentence while the
 * rest is written. Failures (HTTP errors, a stream that is not chat-completions, no first
 * token in time, an unreachable host) throw {@link ReplyProviderError}. An abort ends the
 * reply quietly and cancels the request.
 */
export class OpenAiCompatibleReplyEngine implements ReplyEngine {
  readonly provider: 'openai' | 'custom-llm';
  private readonly assistant: AssistantDto;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly variableValues: Record<string, unknown>;
  private readonly firstTokenTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly fetch: ReplyFetch;

  constructor(options: OpenAiCompatibleReplyEngineOptions) {
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.provider = options.provider;
    this.assistant = options.assistant;
    this.apiKey = options.apiKey;
    this.variableValues = options.variableValues ?? {};
    this.firstTokenTimeoutMs = options.firstTokenTimeoutMs ?? 8000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 15_000;
    const base =
      options.baseUrl ??
      (options.provider === 'openai' ? OPENAI_BASE_URL : options.assistant.model?.url);
    if (base === undefined || base === '') {
      throw new Error(`The ${options.provider} reply engine needs a base URL (model.url).`);
    }
    this.url = chatCompletionsUrl(base);
  }

  greeting(): string | null {
    return greetingOf(this.assistant.firstMessage, this.variableValues);
  }

  /** The request's messages: the assistant's prompt messages, then the conversation. */
  messages(history: readonly ChatMessage[]): ChatMessage[] {
    const prompt: ChatMessage[] = [];
    for (const m of this.assistant.model?.messages ?? []) {
      if (m.role === 'system' || m.role === 'user' || m.role === 'assistant') {
        prompt.push({ role: m.role, content: fillTemplate(m.content, this.variableValues) });
      }
    }
    return [...prompt, ...history.map((m) => ({ role: m.role, content: m.content }))];
  }

  async *reply(history: readonly ChatMessage[], signal: AbortSignal): AsyncGenerator<ReplyEvent> {
    if (signal.aborted) return;
    const last = history[history.length - 1];
    const endCallPhrases = this.assistant.endCallPhrases ?? [];
    if (
      last?.role === 'user' &&
      endCallPhrases.length > 0 &&
      isGoodbye(normalize(last.content), endCallPhrases)
    ) {
      const goodbye = this.assistant.endCallMessage?.trim();
      if (goodbye) yield { type: 'text', text: goodbye };
      yield { type: 'end-call' };
      return;
    }

    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let timedOut: 'first' | 'idle' | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (kind: 'first' | 'idle', ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = kind;
        controller.abort();
      }, ms);
    };
    const failure = (error: unknown, what: string): ReplyProviderError => {
      if (timedOut === 'first') {
        return new ReplyProviderError(
          this.provider,
          'timeout',
          `${this.provider} sent no reply within ${seconds(this.firstTokenTimeoutMs)}.`,
        );
      }
      if (timedOut === 'idle') {
        return new ReplyProviderError(
          this.provider,
          'timeout',
          `${this.provider} stopped sending its reply for ${seconds(this.idleTimeoutMs)}.`,
        );
      }
      return new ReplyProviderError(
        this.provider,
        'network',
        `${what} ${this.provider} at ${hostOf(this.url)}: ${errorText(error)}`,
        { cause: error },
      );
    };

    arm('first', this.firstTokenTimeoutMs);
    try {
      let response: Response;
      try {
        response = await this.fetch(this.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          },
          body: JSON.stringify(this.body(history)),
          signal: controller.signal,
        });
      } catch (error) {
        if (signal.aborted) return;
        throw failure(error, 'Could not reach');
      }
      if (!response.ok) {
        const error = await this.httpError(response);
        if (signal.aborted) return;
        throw error;
      }

      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('application/json')) {
        // A server that ignored `stream: true`: take the whole reply at once.
        let body: string;
        try {
          body = await response.text();
        } catch (error) {
          if (signal.aborted) return;
          throw failure(error, 'Lost the reply from');
        }
        const text = this.completionText(body);
        if (text !== '' && !signal.aborted) yield { type: 'text', text };
        return;
      }
      if (!response.body) {
        throw new ReplyProviderError(
          this.provider,
          'malformed',
          `${this.provider} answered with no body.`,
        );
      }

      const reader = response.body.getReader();
      const decoder = new SseDecoder();
      let gotText = false;
      let finished = false;
      let done = false;
      while (!done) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal.aborted) return;
          throw failure(error, 'Lost the stream from');
        }
        const events = chunk.done ? decoder.end() : decoder.push(chunk.value);
        if (chunk.done) done = true;
        else if (gotText) arm('idle', this.idleTimeoutMs);
        for (const event of events) {
          const delta = this.delta(event);
          if (delta.finished) finished = true;
          if (delta.done) {
            finished = true;
            done = true;
            break;
          }
          if (delta.text === '') continue;
          gotText = true;
          // The consumer may take its time (speaking): no timeout while it holds the reply.
          clearTimeout(timer);
          if (signal.aborted) return;
          yield { type: 'text', text: delta.text };
          if (signal.aborted) return;
          arm('idle', this.idleTimeoutMs);
        }
      }
      if (!finished) {
        throw new ReplyProviderError(
          this.provider,
          'malformed',
          gotText
            ? `The ${this.provider} stream stopped before the end of the reply.`
            : `${this.provider} did not answer with a chat-completions stream.`,
        );
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Ends the request if the reply stopped early (abort, error, or the consumer left).
      controller.abort();
    }
  }

  conclude(history: readonly ChatMessage[]): CallConclusion {
    const caller = history.filter((m) => m.role === 'user');
    const assistant = history.filter((m) => m.role === 'assistant');
    const first = caller[0];
    const summary =
      first === undefined
        ? 'The caller did not say anything.'
        : `The caller spoke ${caller.length} time${caller.length === 1 ? '' : 's'}, starting with: ${clip(first.content)}.`;
    return {
      summary,
      structuredData: { callerTurns: caller.length, assistantTurns: assistant.length },
    };
  }

  private body(history: readonly ChatMessage[]): Record<string, unknown> {
    const model = this.assistant.model;
    return {
      model: model?.model,
      messages: this.messages(history),
      stream: true,
      temperature: model?.temperature ?? DEFAULT_TEMPERATURE,
      max_tokens: model?.maxTokens ?? DEFAULT_MAX_TOKENS,
    };
  }

  /** One stream event: more text, the end (`[DONE]`), or a finish reason. */
  private delta(event: SseEvent): { text: string; done?: boolean; finished?: boolean } {
    const data = event.data.trim();
    if (data === '[DONE]') return { text: '', done: true };
    if (data === '') return { text: '' };
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (error) {
      throw new ReplyProviderError(
        this.provider,
        'malformed',
        `The ${this.provider} stream sent something that is not JSON: ${clip(data, 60)}`,
        { cause: error },
      );
    }
    if (!isRecord(chunk)) {
      throw new ReplyProviderError(
        this.provider,
        'malformed',
        `The ${this.provider} stream sent ${clip(data, 60)}`,
      );
    }
    if (chunk['error'] !== undefined) {
      throw new ReplyProviderError(
        this.provider,
        'provider',
        `${this.provider} reported an error: ${errorMessageOf(chunk['error']) ?? clip(data, 200)}`,
      );
    }
    const choices = chunk['choices'];
    if (choices === undefined) return { text: '' };
    if (!Array.isArray(choices)) {
      throw new ReplyProviderError(
        this.provider,
        'malformed',
        `The ${this.provider} stream sent choices that are not a list.`,
      );
    }
    const choice: unknown = choices[0];
    if (!isRecord(choice)) return { text: '' };
    const delta = choice['delta'];
    const content = isRecord(delta) ? delta['content'] : undefined;
    const finishReason = choice['finish_reason'];
    return {
      text: typeof content === 'string' ? content : '',
      finished: typeof finishReason === 'string' && finishReason !== '',
    };
  }

  /** The text of a whole (not streamed) chat completion. */
  private completionText(body: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new ReplyProviderError(
        this.provider,
        'malformed',
        `${this.provider} answered with broken JSON.`,
        {
          cause: error,
        },
      );
    }
    const choice: unknown =
      isRecord(parsed) && Array.isArray(parsed['choices']) ? parsed['choices'][0] : undefined;
    const message = isRecord(choice) ? choice['message'] : undefined;
    const content = isRecord(message) ? message['content'] : undefined;
    if (typeof content !== 'string') {
      throw new ReplyProviderError(
        this.provider,
        'malformed',
        `${this.provider} answered without a message.`,
      );
    }
    return content;
  }

  private async httpError(response: Response): Promise<ReplyProviderError> {
    let detail = '';
    try {
      const body = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      detail =
        (isRecord(parsed) ? errorMessageOf(parsed['error']) : undefined) ?? clip(body.trim(), 200);
    } catch {
      detail = '';
    }
    const status = response.status;
    const auth = status === 401 || status === 403;
    const what = auth
      ? `${this.provider} refused the API key (HTTP ${status})`
      : `${this.provider} answered HTTP ${status}`;
    return new ReplyProviderError(
      this.provider,
      auth ? 'auth' : 'http',
      detail ? `${what}: ${detail}` : `${what}.`,
      {
        status,
      },
    );
  }
}

/** `…/v1` → `…/v1/chat/completions` (a URL that already ends so is kept). */
export function chatCompletionsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorMessageOf(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error['message'] === 'string') return error['message'];
  return undefined;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function clip(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
