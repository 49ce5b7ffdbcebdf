import argon2 from 'argon2';

/**
 * Password hashing with argon2id (the library's defaults: 64 MiB, 3 passes, 4 lanes,
 * above OWASP's minimum). The result is a PHC string carrying its own parameters.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}
