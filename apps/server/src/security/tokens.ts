import crypto from 'node:crypto';

/** A random token with `bytes` of entropy, URL-safe. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 of a high-entropy token (API keys, call join tokens). Unlike short access codes,
 * these cannot be guessed, so a plain hash is enough to keep them out of the database.
 */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two strings in constant time (for secrets from the environment). */
export function sameSecret(a: string, b: string): boolean {
  return crypto.timingSafeEqual(Buffer.from(hashToken(a), 'hex'), Buffer.from(hashToken(b), 'hex'));
}
