import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface ActiveCodeMatch {
  codeId: string;
  assistantId: string;
  assistantName: string;
}

/** The assistant behind an active code (not revoked, not expired), found by the code's hash. */
export async function findActiveCode(
  db: Kysely<Database>,
  codeHash: string,
  now: Date,
): Promise<ActiveCodeMatch | undefined> {
  const row = await db
    .selectFrom('access_codes as c')
    .innerJoin('assistants as a', 'a.id', 'c.assistant_id')
    .select(['c.id as codeId', 'a.id as assistantId', 'a.name as assistantName'])
    .where('c.code_hash', '=', codeHash)
    .where('c.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now.toISOString())]),
    )
    .executeTakeFirst();
  return row;
}

export interface NewAccessCode {
  orgId: string;
  assistantId: string;
  codeHash: string;
  label: string | null;
  expiresAt?: Date | null;
}

export async function insertAccessCode(
  db: Kysely<Database>,
  code: NewAccessCode,
  now: Date,
): Promise<string> {
  const id = crypto.randomUUID();
  const at = now.toISOString();
  await db
    .insertInto('access_codes')
    .values({
      id,
      org_id: code.orgId,
      assistant_id: code.assistantId,
      code_hash: code.codeHash,
      label: code.label,
      expires_at: code.expiresAt?.toISOString() ?? null,
      revoked_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}
