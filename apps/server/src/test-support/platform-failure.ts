import { PlatformError } from '@talkbooth/platform-client';

/** The PlatformError a client call rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
