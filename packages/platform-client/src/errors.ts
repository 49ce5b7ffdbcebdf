import type { ApiError } from '@talkbooth/protocol';

/** The HTTP methods the platform API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The platform answered, but not with what was asked for: a non-2xx status, or a 2xx
 * whose body is not JSON. `body` is the parsed JSON when the body was JSON (whatever its
 * shape: the hosted platform has more than one), else the raw text.
 */
export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  readonly method: HttpMethod;
  /** The request path relative to the base URL, without the query (`/assistant/a1`). */
  readonly path: string;
  /** `body` when it has the `{statusCode, error, message, fields?}` shape, else undefined. */
  readonly apiError: ApiError | undefined;

  constructor(init: {
    message: string;
    status: number;
    statusText: string;
    body: unknown;
    method: HttpMethod;
    path: string;
  }) {
    super(init.message);
    this.status = init.status;
    this.statusText = init.statusText;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.apiError = looksLikeApiError(init.body) ? init.body : undefined;
  }
}

/** The platform did not answer within the time allowed. */
export class PlatformTimeoutError extends Error {
  override readonly name = 'PlatformTimeoutError';
  readonly method: HttpMethod;
  readonly path: string;
  readonly timeoutMs: number;

  constructor(init: { method: HttpMethod; path: string; timeoutMs: number; cause?: unknown }) {
    super(`${init.method} ${init.path} got no answer within ${init.timeoutMs} ms`, {
      cause: init.cause,
    });
    this.method = init.method;
    this.path = init.path;
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * A structural check for the error body our server sends (the protocol's `isApiError`
 * would pull zod into the bundle for four field checks).
 */
export function looksLikeApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const body = value as Record<string, unknown>;
  if (typeof body.statusCode !== 'number' || !Number.isInteger(body.statusCode)) return false;
  if (typeof body.error !== 'string' || typeof body.message !== 'string') return false;
  if (body.fields === undefined) return true;
  const fields = body.fields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return false;
  return Object.values(fields).every((field) => typeof field === 'string');
}
