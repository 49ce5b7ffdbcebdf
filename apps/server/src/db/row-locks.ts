import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { isPostgres } from './open-database.js';
import type { Database } from './schema.js';

/**
 * For `.$call(...)` on the read of a read-modify-write transaction: locks the rows read
 * until the transaction ends. PostgreSQL runs transactions side by side (replicas, pooled
 * connections) and needs `FOR UPDATE`; SQLite runs one at a time (Kysely's driver holds its
 * single connection for a whole transaction) and has no such clause.
 */
export function lockingRead(db: Kysely<Database>) {
  const postgres = isPostgres(db);
  return <DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
  ): SelectQueryBuilder<DB, TB, O> => (postgres ? query.forUpdate() : query);
}

/** Names the advisory locks the server takes (any stable 64-bit numbers will do). */
const ADVISORY_LOCKS = { start: 7_411_001 } as const;

/**
 * Runs `work` while this process holds a database-wide lock, so that replicas starting at
 * the same moment seed the demo and create the first keys one after another, not twice.
 * On PostgreSQL a session advisory lock on one pinned connection (which `work` is given);
 * on SQLite the file belongs to one process and `work` runs as it is.
 */
export async function underStartLock<T>(
  db: Kysely<Database>,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (!isPostgres(db)) return work(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${ADVISORY_LOCKS.start})`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`select pg_advisory_unlock(${ADVISORY_LOCKS.start})`.execute(connection);
    }
  });
}
