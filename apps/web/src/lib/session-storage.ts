import { logger } from './logger';

/**
 * The sessionStorage key holding the code check's answer (the session object), as JSON. The
 * code-entry page writes it here; the booth reads it (features/call-booth/stored-session.ts).
 */
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
