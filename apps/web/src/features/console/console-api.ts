import { PlatformClient, PlatformError } from '@talkbooth/platform-client';
import type { Account } from '@talkbooth/protocol';
import {
  ApiRequestError,
  errorMessage,
  requestJson,
  type RequestOptions,
} from '../../lib/api-client';

/** Where the console's own API lives. */
export const CONSOLE_API = '/console/api';

let csrfToken: Promise<string> | undefined;

/** The CSRF token every change carries (fetched once per page load; it sets its cookie). */
function csrf(): Promise<string> {
  csrfToken ??= requestJson(`${CONSOLE_API}/csrf`).then(
    (body) => (body as { token: string }).token,
  );
  csrfToken.catch(() => (csrfToken = undefined));
  return csrfToken;
}

/**
 * A request to the console API with the session cookie; a change carries the CSRF token.
 * A 403 about the token (its cookie expired) is retried once with a fresh token.
 */
export async function consoleRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  if (method === 'GET') return requestJson(`${CONSOLE_API}${path}`, options);
  const send = async () =>
    requestJson(`${CONSOLE_API}${path}`, {
      ...options,
      method,
      headers: { ...options.headers, 'x-csrf-token': await csrf() },
    });
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ApiRequestError && error.status === 403 && /CSRF/.test(error.message))) {
      throw error;
    }
    csrfToken = undefined;
    return send();
  }
}

/** Whether an error means "not signed in" (the session ended), from either API. */
export const isSignedOut = (error: unknown) =>
  (error instanceof ApiRequestError || error instanceof PlatformError) && error.status === 401;

/** The per-field messages of a 400 from either API (empty when there are none). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (error instanceof ApiRequestError) return { ...error.fields };
  if (error instanceof PlatformError) return { ...(error.apiError?.fields ?? {}) };
  return {};
}

/** What to tell the person about a failed request to either API. */
export function failureMessage(error: unknown): string {
  if (error instanceof PlatformError && error.apiError) return error.apiError.message;
  return errorMessage(error);
}

export async function signIn(email: string, password: string): Promise<Account> {
  return (await consoleRequest('/sign-in', { body: { email, password } })) as Account;
}

export async function signOut(): Promise<void> {
  await consoleRequest('/sign-out', { method: 'POST', body: {} });
}

/** Who is signed in, or null when nobody is. */
export async function currentAccount(): Promise<Account | null> {
  try {
    return (await consoleRequest('/account')) as Account;
  } catch (error) {
    if (isSignedOut(error)) return null;
    throw error;
  }
}

/**
 * The typed platform client acting with the console session (no key): the server takes
 * the session cookie in place of a bearer token, so the token header is left out, and
 * changes carry the CSRF token.
 */
export function sessionPlatformClient(): PlatformClient {
  return new PlatformClient({
    token: 'console-session',
    baseUrl: `${window.location.origin}/platform`,
    fetch: async (url, init) => {
      const headers = new Headers(init.headers);
      headers.delete('authorization');
      const method = (init.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') headers.set('x-csrf-token', await csrf());
      return fetch(url, { ...init, headers, credentials: 'same-origin' });
    },
  });
}
