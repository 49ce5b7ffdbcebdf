import type { ApiError } from '@talkbooth/protocol';
import { parseRetryAfter } from './retry-after';
import { isApiError } from './wire-checks';

/** A non-2xx answer from the server, with what it said about it. */
export class ApiRequestError extends Error {
  /** The HTTP status code. */
  readonly status: number;
  /** Seconds to wait before trying again (from Retry-After), when the server said. */
  readonly retryAfterSeconds: number | null;
  /** Per-field messages keyed by field name; empty when the server sent none. */
  readonly fields: Readonly<Record<string, string>>;
  /** The error body, when it had the API's error shape. */
  readonly body: ApiError | null;

  constructor(options: {
    status: number;
    message: string;
    retryAfterSeconds?: number | null;
    body?: ApiError | null;
  }) {
    super(options.message);
    this.name = 'ApiRequestError';
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.body = options.body ?? null;
    this.fields = options.body?.fields ?? {};
  }
}

/** A 2xx answer whose body is not JSON. */
export class ResponseFormatError extends Error {
  constructor(message = 'The server sent an answer this page cannot read.') {
    super(message);
    this.name = 'ResponseFormatError';
  }
}

function fallbackMessage(status: number, statusText: string): string {
  if (status === 429) return 'Too many requests. Please wait a moment and try again.';
  if (status >= 500) return `The server had a problem (status ${status}). Please try again.`;
  const text = statusText.trim();
  return text === ''
    ? `The request failed (status ${status}).`
    : `The request failed (status ${status} ${text}).`;
}

async function readJson(response: Response): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const text = await response.text();
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (the console's CSRF token). */
  headers?: Record<string, string>;
}

/**
 * Calls the app API and returns the parsed JSON body (undefined for an empty body).
 * Throws `ApiRequestError` for a non-2xx answer, `ResponseFormatError` for a 2xx answer that
 * is not JSON, and lets network errors (fetch's TypeError) through unchanged.
 */
export async function requestJson(path: string, options: RequestOptions = {}): Promise<unknown> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (signal) init.signal = signal;

  const response = await fetch(path, init);
  const parsed = await readJson(response);

  if (!response.ok) {
    const errorBody = parsed.ok && isApiError(parsed.value) ? parsed.value : null;
    const message =
      errorBody && errorBody.message.trim() !== ''
        ? errorBody.message
        : fallbackMessage(response.status, response.statusText);
    throw new ApiRequestError({
      status: response.status,
      message,
      retryAfterSeconds: parseRetryAfter(response.headers.get('Retry-After')),
      body: errorBody,
    });
  }
  if (!parsed.ok) throw new ResponseFormatError();
  return parsed.value;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  return 'Something went wrong.';
}
