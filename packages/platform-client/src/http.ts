import { PlatformError, PlatformTimeoutError, type HttpMethod } from './errors.js';

/** Per-call options every client method takes last. */
export interface RequestOptions {
  /** Aborts the request; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (ms; `Infinity` for none). */
  timeoutMs?: number;
}

/** The part of `fetch` the client uses; inject your own for tests, proxies or old runtimes. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Query parameters: `undefined` and `null` are left out, arrays repeat the key. */
export type QueryParams = Readonly<Record<string, unknown>>;

export interface HttpRequest {
  method: HttpMethod;
  /** Relative to the base URL, starting with `/`; ids already encoded (see `idPath`). */
  path: string;
  query?: QueryParams | undefined;
  /** Sent as JSON when defined; no body (and no Content-Type) otherwise. */
  body?: unknown;
  options?: RequestOptions | undefined;
}

export interface HttpConfig {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  fetch: FetchLike;
}

/** Longer than this, timers overflow (and fire at once): treat it as no timeout. */
const MAX_TIMER_MS = 2_147_483_647;

/** The request core: URL, headers, timeout and abort, and turning answers into values or errors. */
export class HttpCore {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #timeoutMs: number;
  readonly #fetch: FetchLike;

  constructor(config: HttpConfig) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#token = config.token;
    this.#timeoutMs = checkTimeout(config.timeoutMs);
    this.#fetch = config.fetch;
  }

  url(path: string, query?: QueryParams): string {
    const search = query === undefined ? '' : queryString(query);
    return `${this.baseUrl}${path}${search === '' ? '' : `?${search}`}`;
  }

  async request<T>({ method, path, query, body, options }: HttpRequest): Promise<T> {
    const url = this.url(path, query);
    const timeoutMs = checkTimeout(options?.timeoutMs ?? this.#timeoutMs);
    const callerSignal = options?.signal;
    if (callerSignal?.aborted) throw abortReason(callerSignal);
    const timeoutSignal = timeoutMs <= MAX_TIMER_MS ? AbortSignal.timeout(timeoutMs) : undefined;
    const signal =
      callerSignal !== undefined && timeoutSignal !== undefined
        ? AbortSignal.any([callerSignal, timeoutSignal])
        : (callerSignal ?? timeoutSignal);

    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#token}`,
      Accept: 'application/json',
    };
    const init: RequestInit = { method, headers };
    if (signal !== undefined) init.signal = signal;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }

    let response: Response;
    let text: string;
    try {
      // Raced against the signal too, so a fetch that ignores signals still times out.
      response = await untilAborted(this.#fetch(url, init), signal);
      text = await untilAborted(response.text(), signal);
    } catch (error) {
      // Which one fired first? `AbortSignal.any` keeps the first signal's reason.
      const byCaller =
        callerSignal?.aborted === true &&
        (timeoutSignal?.aborted !== true || signal?.reason !== timeoutSignal.reason);
      if (byCaller) throw abortReason(callerSignal);
      if (timeoutSignal?.aborted === true) {
        throw new PlatformTimeoutError({ method, path, timeoutMs, cause: error });
      }
      throw error;
    }

    const parsed = parseJson(text);
    if (!response.ok) {
      const answer = parsed.ok ? parsed.value : text;
      const detail = messageOf(answer);
      const head = statusLine(response, answer);
      throw new PlatformError({
        message: detail === undefined ? head : `${head} — ${detail}`,
        status: response.status,
        statusText: response.statusText,
        body: answer,
        method,
        path,
      });
    }
    if (!parsed.ok) {
      const what = text.trim() === '' ? 'an empty body' : 'a body that is not JSON';
      throw new PlatformError({
        message: `${statusLine(response, text)} — ${method} ${path} answered with ${what}`,
        status: response.status,
        statusText: response.statusText,
        body: text,
        method,
        path,
      });
    }
    // Not validated on purpose: the hosted platform adds fields our schemas do not know.
    return parsed.value as T;
  }
}

/** `/prefix/{id}/suffix` with the id URL-encoded; an empty id would silently hit the list. */
export function idPath(prefix: string, id: string, suffix = ''): string {
  if (typeof id !== 'string' || id === '') {
    throw new TypeError(`${prefix}: give a non-empty id`);
  }
  return `${prefix}/${encodeURIComponent(id)}${suffix}`;
}

function checkTimeout(timeoutMs: number): number {
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(
      `timeoutMs must be a positive number of ms (or Infinity), not ${timeoutMs}`,
    );
  }
  return timeoutMs;
}

function queryString(query: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item === undefined || item === null) continue;
      params.append(key, queryValue(key, item));
    }
  }
  return params.toString();
}

function queryValue(key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  throw new TypeError(`query parameter ${key} must be a string, number, boolean or Date`);
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
    } else {
      signal.addEventListener('abort', onAbort, { once: true });
    }
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The request was aborted.', 'AbortError');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function fieldOf(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

/** `404 Not Found`; over HTTP/2 there is no status text, so the body's `error` stands in. */
function statusLine(response: Response, body: unknown): string {
  const error = fieldOf(body, 'error');
  const text = response.statusText || (typeof error === 'string' ? error : '');
  return text === '' ? String(response.status) : `${response.status} ${text}`;
}

/** The body's `message`: a string, or (hosted validation errors) a list of strings. */
function messageOf(body: unknown): string | undefined {
  const message = fieldOf(body, 'message');
  if (typeof message === 'string' && message !== '') return message;
  if (Array.isArray(message)) {
    const parts = message.filter((part): part is string => typeof part === 'string');
    if (parts.length > 0) return parts.join('; ');
  }
  return undefined;
}
