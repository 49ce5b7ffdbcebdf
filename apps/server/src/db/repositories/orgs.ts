import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The organisation the server's keys belong to: one per key set for now (the first one,
 * created with the demo). Every platform query is still scoped by the caller's orgId.
 */
export async function defaultOrgId(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('orgs').select('id').orderBy('created_at').executeTakeFirst();
  if (row === undefined) throw new Error('the database has no organisation; it is seeded at start');
  return row.id;
}
