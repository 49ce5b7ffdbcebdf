import {
  ApiRequestError,
  ResponseFormatError,
  errorMessage,
  requestJson,
} from '../../lib/api-client';
import { withWaitTime } from '../../lib/retry-after';

/** The visible messages of the code check (the product spec's exact strings). */
export const CODE_MESSAGES = {
  empty: 'Enter the UniCode you received, then press Talk to Assistant.',
  invalid: 'Invalid UniCode',
  unexpected: 'Unexpected response format',
  errorPrefix: 'Error validating credentials: ',
} as const;

export type CodeCheckOutcome =
  /** A valid code: the session object to keep for the booth. */
  | { kind: 'session'; session: object }
  /** An unknown code (`[]`). */
  | { kind: 'invalid' }
  /** A 200 answer of any other shape. */
  | { kind: 'unexpected' }
  /** The request failed; `message` is ready to show. */
  | { kind: 'error'; message: string };

/** Sorts a 200 answer: `[]` is an unknown code, a plain object is the session. */
export function classifyAnswer(body: unknown): CodeCheckOutcome {
  if (Array.isArray(body)) return body.length === 0 ? { kind: 'invalid' } : { kind: 'unexpected' };
  if (typeof body === 'object' && body != null) return { kind: 'session', session: body };
  return { kind: 'unexpected' };
}

/** "Error validating credentials: …" with the server's message (plus when to retry on 429). */
export function failureMessage(error: unknown): string {
  let detail = errorMessage(error);
  if (error instanceof ApiRequestError && error.status === 429) {
    detail = withWaitTime(detail, error.retryAfterSeconds);
  }
  return `${CODE_MESSAGES.errorPrefix}${detail}`;
}

/** Checks a code with `POST /api/get-assistant`, sending it exactly as typed. */
export async function checkUniCode(unicode: string): Promise<CodeCheckOutcome> {
  let body: unknown;
  try {
    body = await requestJson('/api/get-assistant', { method: 'POST', body: { unicode } });
  } catch (error) {
    if (error instanceof ResponseFormatError) return { kind: 'unexpected' };
    return { kind: 'error', message: failureMessage(error) };
  }
  return classifyAnswer(body);
}

export function outcomeMessage(outcome: Exclude<CodeCheckOutcome, { kind: 'session' }>): string {
  switch (outcome.kind) {
    case 'invalid':
      return CODE_MESSAGES.invalid;
    case 'unexpected':
      return CODE_MESSAGES.unexpected;
    case 'error':
      return outcome.message;
  }
}
