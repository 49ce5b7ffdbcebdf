import { API_RESPONSE_KEY } from '../../lib/session-storage';
import { logger } from '../../lib/logger';

/** The session the code-entry page stored (lib/session-storage.ts), as the booth reads it. */

/** The stored answer, parsed; null when there is none or it is not valid JSON (logged). */
export function readApiResponse(): unknown {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(API_RESPONSE_KEY);
  } catch (error) {
    logger.error('Could not read sessionStorage', error);
    return null;
  }
  if (raw == null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    logger.error(`Could not parse the stored "${API_RESPONSE_KEY}" session`, error);
    return null;
  }
}

/** The assistant id of the stored session, or null when missing or unreadable. */
export function readAssistantId(): string | null {
  const value = readApiResponse();
  if (typeof value !== 'object' || value == null || Array.isArray(value)) return null;
  const id: unknown = (value as Record<string, unknown>).assistantId;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number') return String(id);
  return null;
}

/**
 * The public key the stored session says to start the call with (the code's organisation's),
 * or null when it names none (the client config's key is used then).
 */
export function readSessionPublicKey(): string | null {
  const value = readApiResponse();
  if (typeof value !== 'object' || value == null || Array.isArray(value)) return null;
  const key: unknown = (value as Record<string, unknown>).platformPublicKey;
  return typeof key === 'string' && key.trim() !== '' ? key : null;
}
