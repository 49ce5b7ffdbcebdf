import crypto from 'node:crypto';
import type { AccountRole, CreatedInvite, Invite } from '@talkbooth/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { hashToken, randomToken } from '../security/tokens.js';

/** An invite link works for a week, once. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Makes an invite; the link carries a random token that is stored only as its hash. */
export async function createInvite(
  db: Kysely<Database>,
  input: { orgId: string; role: AccountRole; createdBy: string; registerUrl: string },
  now: Date,
): Promise<CreatedInvite> {
  const token = randomToken();
  const id = crypto.randomUUID();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS).toISOString();
  await db
    .insertInto('invites')
    .values({
      id,
      org_id: input.orgId,
      token_hash: hashToken(token),
      role: input.role,
      created_by: input.createdBy,
      expires_at: expiresAt,
      used_at: null,
      used_by: null,
      revoked_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  const url = `${input.registerUrl}?invite=${encodeURIComponent(token)}`;
  return { id, role: input.role, expiresAt, createdAt: now.toISOString(), url };
}

/** The organisation's invites that can still be used. */
export async function listOpenInvites(
  db: Kysely<Database>,
  orgId: string,
  now: Date,
): Promise<Invite[]> {
  const rows = await db
    .selectFrom('invites')
    .select(['id', 'role', 'expires_at', 'created_at'])
    .where('org_id', '=', orgId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    role: r.role,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
  }));
}

/** Revokes an open invite of the organisation; false when there is none with that id. */
export async function revokeInvite(
  db: Kysely<Database>,
  orgId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ revoked_at: now.toISOString() })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Uses an invite inside the registration's transaction: the organisation and role it
 * grants, or null when the token is unknown, used, revoked or expired.
 */
export async function takeInvite(
  trx: Transaction<Database>,
  token: string,
  userId: string,
  now: Date,
): Promise<{ orgId: string; role: AccountRole } | null> {
  const at = now.toISOString();
  const row = await trx
    .selectFrom('invites')
    .select(['id', 'org_id', 'role'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (row === undefined) return null;
  // The used_at condition again: of two registrations racing for one link, one wins.
  const taken = await trx
    .updateTable('invites')
    .set({ used_at: at, used_by: userId })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { orgId: row.org_id, role: row.role } : null;
}
