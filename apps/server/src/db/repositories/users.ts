import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
}

export interface StoredUser {
  id: string;
  username: string;
  email: string;
  createdAt: string;
}

/** Inserts an account; a duplicate e-mail surfaces as the database's unique-violation error. */
export async function insertUser(
  db: Kysely<Database>,
  user: NewUser,
  now: Date,
): Promise<StoredUser> {
  const id = crypto.randomUUID();
  const at = now.toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      username: user.username,
      email: user.email,
      password_hash: user.passwordHash,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, username: user.username, email: user.email, createdAt: at };
}
