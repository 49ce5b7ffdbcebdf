import type { AssistantDto } from '@talkbooth/protocol';
import { HttpProblem } from '../http/problems.js';

/**
 * What a call started with a public key may ask for. The public key sits in every
 * visitor's browser (the web app is handed it), so anything it may set, anybody may set.
 * Like the hosted platform's public-key rules, it may start a call with one of the
 * organisation's stored assistants and personalise it, but never choose where the server
 * sends requests, which stored credential is used, or what the call costs the operator:
 *
 * - top level: `assistantId` (required), `assistantOverrides` (below), `metadata`,
 *   `customer`, `maxDurationSeconds` (bounded);
 * - `assistantOverrides`: `variableValues`, `firstMessage`, `transcriber` (provider, model,
 *   language, keywords: the booth's fixed choice), `recordingEnabled` (only to turn
 *   recording off), `silenceTimeoutSeconds` and `maxDurationSeconds` (bounded).
 *
 * Anything else is refused with a 403 naming the field. The stored assistant sets the
 * ceiling of each time limit; when it sets none, {@link PUBLIC_KEY_CEILINGS} does.
 */

export const PUBLIC_KEY_CEILINGS = {
  /** 15 minutes: a long visit to a front desk. */
  maxDurationSeconds: 15 * 60,
  /** Two minutes of nobody speaking. */
  silenceTimeoutSeconds: 2 * 60,
} as const;

const CALL_FIELDS = new Set([
  'assistantId',
  'assistantOverrides',
  'metadata',
  'customer',
  'maxDurationSeconds',
]);
const OVERRIDE_FIELDS = new Set([
  'variableValues',
  'firstMessage',
  'transcriber',
  'recordingEnabled',
  'silenceTimeoutSeconds',
  'maxDurationSeconds',
]);
const TRANSCRIBER_FIELDS = new Set(['provider', 'model', 'language', 'keywords']);

type Bounded = keyof typeof PUBLIC_KEY_CEILINGS;

/** 403 naming the field a public key may not set. */
function refused(field: string, message: string): HttpProblem {
  return new HttpProblem(403, message, { [field]: message });
}

function notAllowed(field: string, allowed: Iterable<string>): HttpProblem {
  return refused(
    field,
    `A public key may not set ${field}. With a public key a call may set only ${[...allowed].join(', ')}; use your private key on your server for anything else.`,
  );
}

/** The ceiling of a time limit for public-key calls on this assistant. */
export function publicKeyCeiling(stored: AssistantDto, field: Bounded): number {
  return stored[field] ?? PUBLIC_KEY_CEILINGS[field];
}

/**
 * Throws a 403 {@link HttpProblem} when a public-key call asks for something it may not.
 * `body` is the request after server-owned fields were dropped; `stored` is the assistant
 * named by `body.assistantId`.
 */
export function checkPublicKeyCall(body: Record<string, unknown>, stored: AssistantDto): void {
  if (body.assistant !== undefined) {
    throw refused(
      'assistant',
      'A public key cannot start a call with an inline assistant (assistant). Create the assistant with your private key and start calls with its assistantId.',
    );
  }
  for (const field of Object.keys(body)) {
    if (!CALL_FIELDS.has(field)) throw notAllowed(field, CALL_FIELDS);
  }
  checkBound(body, 'maxDurationSeconds', stored, 'maxDurationSeconds');

  const overrides = body.assistantOverrides as Record<string, unknown> | undefined;
  if (overrides === undefined) return;
  for (const field of Object.keys(overrides)) {
    if (!OVERRIDE_FIELDS.has(field))
      throw notAllowed(
        `assistantOverrides.${field}`,
        [...OVERRIDE_FIELDS].map((f) => `assistantOverrides.${f}`),
      );
  }
  const transcriber = overrides.transcriber as Record<string, unknown> | undefined;
  for (const field of Object.keys(transcriber ?? {})) {
    if (!TRANSCRIBER_FIELDS.has(field))
      throw notAllowed(
        `assistantOverrides.transcriber.${field}`,
        [...TRANSCRIBER_FIELDS].map((f) => `assistantOverrides.transcriber.${f}`),
      );
  }
  if (overrides.recordingEnabled === true && stored.recordingEnabled !== true) {
    throw refused(
      'assistantOverrides.recordingEnabled',
      'A public key can only turn recording off (assistantOverrides.recordingEnabled: false); whether calls are recorded is the assistant owner’s choice.',
    );
  }
  checkBound(overrides, 'maxDurationSeconds', stored, 'assistantOverrides.maxDurationSeconds');
  checkBound(
    overrides,
    'silenceTimeoutSeconds',
    stored,
    'assistantOverrides.silenceTimeoutSeconds',
  );
}

function checkBound(
  source: Record<string, unknown>,
  key: Bounded,
  stored: AssistantDto,
  field: string,
): void {
  const value = source[key];
  if (typeof value !== 'number') return;
  const ceiling = publicKeyCeiling(stored, key);
  if (value > ceiling) {
    throw refused(
      field,
      `With a public key, ${field} may be at most ${ceiling} seconds (${
        stored[key] === undefined
          ? 'the limit for assistants that set none'
          : 'the assistant’s own limit'
      }).`,
    );
  }
}
