import { logger } from './logger';

/** The sessionStorage key holding the code check's answer (the session object), as JSON. */
export const API_RESPONSE_KEY = 'apiResponse';

/** Stores the code check's answer whole. Returns false when the browser refuses storage. */
export function saveApiResponse(value: object): boolean {
  try {
    sessionStorage.setItem(API_RESPONSE_KEY, JSON.stringify(value));
    return true;
  } catch (error) {
    logger.error('Could not store the session in sessionStorage', error);
    return false;
  }
}

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
