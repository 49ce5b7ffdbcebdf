import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

/** Brings the schema up to date; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(
      `Database migration ${failed?.migrationName ?? ''} failed: ${cause.message}`.replace(
        /\s+:/,
        ':',
      ),
      { cause },
    );
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
