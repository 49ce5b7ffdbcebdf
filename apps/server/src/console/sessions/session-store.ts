import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { hashToken, randomToken } from '../../security/tokens.js';

/**
 * How long a console session lasts from sign-in: a working day. Signing out, changing
 * the password or an owner's reset ends it sooner.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Where console sessions live: the database, or Redis when the deployment has it. The
 * cookie carries a random token; stores keep only its SHA-256.
 */
export interface SessionStore {
  /** Starts a session for the account; the token goes into the cookie. */
  create(userId: string, now: Date): Promise<string>;
  /** The account of a live session, or null for an unknown or expired token. */
  find(token: string, now: Date): Promise<string | null>;
  delete(token: string): Promise<void>;
  /** Ends every session of the account (a new password, a reset). */
  deleteForUser(userId: string): Promise<void>;
}

export class DatabaseSessionStore implements SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(userId: string, now: Date): Promise<string> {
    const token = randomToken();
    // Expired rows go as new ones come: no sweeper needed for a table this small.
    await this.db
      .deleteFrom('console_sessions')
      .where('expires_at', '<', now.toISOString())
      .execute();
    await this.db
      .insertInto('console_sessions')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    return token;
  }

  async find(token: string, now: Date): Promise<string | null> {
    const row = await this.db
      .selectFrom('console_sessions')
      .select('user_id')
      .where('token_hash', '=', hashToken(token))
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async delete(token: string): Promise<void> {
    await this.db
      .deleteFrom('console_sessions')
      .where('token_hash', '=', hashToken(token))
      .execute();
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
  }
}
