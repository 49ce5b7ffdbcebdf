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

/** Reads a file's bytes as text (for "the secret is not in the database file" checks). */
export async function databaseText(databaseFile: string): Promise<string> {
  const { default: fs } = await import('node:fs');
  const files = [databaseFile, `${databaseFile}-wal`].filter((file) => fs.existsSync(file));
  return Buffer.concat(files.map((file) => fs.readFileSync(file))).toString('latin1');
}
