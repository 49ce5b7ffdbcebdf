import type { Call } from '@talkbooth/protocol';
import { WebCallError } from './errors.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** `POST {baseUrl}/call/web` with the public key; the created call (with its `webCallUrl`). */
export async function createWebCall(
  fetchImpl: FetchLike,
  baseUrl: string,
  publicKey: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Call & { webCallUrl: string }> {
  const url = `${baseUrl.replace(/\/+$/, '')}/call/web`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${publicKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new WebCallError(
      `Could not reach the call server (${error instanceof Error ? error.message : String(error)}). Check your connection and try again.`,
      { kind: 'network', cause: error },
    );
  }
  const text = await response.text().catch(() => '');
  const parsed = parseJson(text);
  if (!response.ok) {
    const detail = errorDetail(parsed) ?? (text.trim().slice(0, 300) || response.statusText);
    throw new WebCallError(
      `Could not start the call: ${detail ? `${detail} ` : ''}(HTTP ${response.status}).`,
      { kind: 'http', status: response.status, body: parsed ?? text },
    );
  }
  if (!isCallWithUrl(parsed)) {
    throw new WebCallError('The call server answered without a call link (webCallUrl).', {
      kind: 'network',
      status: response.status,
      body: parsed ?? text,
    });
  }
  return parsed;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The message of an error body: ours is `{statusCode, error, message}`, the hosted one alike (its `message` may be a list). */
function errorDetail(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, error } = body as { message?: unknown; error?: unknown };
  if (typeof message === 'string' && message) return message;
  if (Array.isArray(message) && message.every((m) => typeof m === 'string')) {
    return message.join('; ');
  }
  if (typeof error === 'string' && error) return error;
  return undefined;
}

function isCallWithUrl(value: unknown): value is Call & { webCallUrl: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { id, webCallUrl } = value as { id?: unknown; webCallUrl?: unknown };
  return typeof id === 'string' && typeof webCallUrl === 'string' && webCallUrl !== '';
}
