import { PlatformError, PlatformTimeoutError } from '@talkbooth/platform-client';
import { ApiRequestError } from '../../../../lib/api-client';

/**
 * A failure of the session platform client as the console's own `ApiRequestError`, so the
 * console's helpers work on it: `useLoad` (and `isSignedOut`) sends the person back to sign
 * in on a 401, and a 400's per-field messages are in `fields`. The message is the server's
 * own sentence (the client's adds "400 Bad Request — " in front).
 */
export function asConsoleError(error: unknown): unknown {
  if (error instanceof PlatformError) {
    const body = error.apiError ?? null;
    const message = body?.message.trim() ? body.message : error.message;
    return new ApiRequestError({ status: error.status, message, body });
  }
  if (error instanceof PlatformTimeoutError) {
    return new Error('The server did not answer in time. Please try again.');
  }
  return error;
}

/** Runs a platform request; its failure comes back as {@link asConsoleError} says. */
export async function platformCall<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw asConsoleError(error);
  }
}
