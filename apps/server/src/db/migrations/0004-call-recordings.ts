import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Call recordings in the database, beside their call, so that every server process can
 * serve any call's recording (they used to be files in one process's data folder). The
 * audio column is SQLite's `blob` or PostgreSQL's `bytea`.
 */
export const callRecordings: Migration = {
  async up(db: Kysely<unknown>) {
    const binary = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;
    await db.schema
      .createTable('call_recordings')
      .addColumn('call_id', 'text', (c) =>
        c.primaryKey().references('calls.id').onDelete('cascade'),
      )
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('audio', binary, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('call_recordings').execute();
  },
};
