import crypto from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { AccessCode } from '@talkbooth/protocol';
import { applyListFilters, type ListFilters } from '../list-filters.js';
import type { AccessCodeTable, Database } from '../schema.js';

export interface ActiveCodeMatch {
  codeId: string;
  orgId: string;
  assistantId: string;
  assistantName: string;
}

/** The assistant behind an active code (not revoked, not expired), found by the code's hash. */
export async function findActiveCode(
  db: Kysely<Database>,
  codeHash: string,
  now: Date,
): Promise<ActiveCodeMatch | undefined> {
  return db
    .selectFrom('access_codes as c')
    .innerJoin('assistants as a', 'a.id', 'c.assistant_id')
    .select([
      'c.id as codeId',
      'c.org_id as orgId',
      'a.id as assistantId',
      'a.name as assistantName',
    ])
    .where('c.code_hash', '=', codeHash)
    .where('c.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now.toISOString())]),
    )
    .executeTakeFirst();
}

/**
 * Counts one use of a code; false when its uses are used up. One conditional update, so
 * visitors racing for the last use cannot both get it.
 */
export async function consumeAccessCodeUse(
  db: Kysely<Database>,
  codeId: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('access_codes')
    .set((eb) => ({ use_count: eb('use_count', '+', 1), updated_at: now.toISOString() }))
    .where('id', '=', codeId)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('use_count', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export interface NewAccessCode {
  orgId: string;
  assistantId: string;
  codeHash: string;
  label: string | null;
  expiresAt?: string | null;
  maxUses?: number | null;
}

export async function insertAccessCode(
  db: Kysely<Database>,
  code: NewAccessCode,
  now: Date,
): Promise<AccessCode> {
  const at = now.toISOString();
  const row: Selectable<AccessCodeTable> = {
    id: crypto.randomUUID(),
    org_id: code.orgId,
    assistant_id: code.assistantId,
    code_hash: code.codeHash,
    label: code.label,
    expires_at: code.expiresAt ?? null,
    revoked_at: null,
    max_uses: code.maxUses ?? null,
    use_count: 0,
    created_at: at,
    updated_at: at,
  };
  await db.insertInto('access_codes').values(row).execute();
  return toAccessCode(row, now);
}

export async function listAccessCodes(
  db: Kysely<Database>,
  orgId: string,
  filters: ListFilters & { assistantId?: string | undefined },
  now: Date,
): Promise<AccessCode[]> {
  let query = db.selectFrom('access_codes').selectAll().where('org_id', '=', orgId);
  if (filters.assistantId !== undefined)
    query = query.where('assistant_id', '=', filters.assistantId);
  const rows = await applyListFilters(query, filters).execute();
  return rows.map((row) => toAccessCode(row, now));
}

export async function getAccessCode(
  db: Kysely<Database>,
  orgId: string,
  id: string,
  now: Date,
): Promise<AccessCode | undefined> {
  const row = await db
    .selectFrom('access_codes')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : toAccessCode(row, now);
}

/** Revokes a code (keeping its record); revoking twice keeps the first time. */
export async function revokeAccessCode(
  db: Kysely<Database>,
  orgId: string,
  id: string,
  now: Date,
): Promise<AccessCode | undefined> {
  const at = now.toISOString();
  await db
    .updateTable('access_codes')
    .set({ revoked_at: at, updated_at: at })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return getAccessCode(db, orgId, id, now);
}

function toAccessCode(row: Selectable<AccessCodeTable>, now: Date): AccessCode {
  const status: AccessCode['status'] =
    row.revoked_at !== null
      ? 'revoked'
      : row.expires_at !== null && row.expires_at <= now.toISOString()
        ? 'expired'
        : row.max_uses !== null && row.use_count >= row.max_uses
          ? 'used-up'
          : 'active';
  return {
    id: row.id,
    orgId: row.org_id,
    assistantId: row.assistant_id,
    label: row.label,
    expiresAt: row.expires_at,
    maxUses: row.max_uses,
    useCount: row.use_count,
    revokedAt: row.revoked_at,
    status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
