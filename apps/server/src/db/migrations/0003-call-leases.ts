import type { Kysely, Migration } from 'kysely';

/**
 * Call leases: the process serving a live call holds its lease and renews it; a call whose
 * lease ran out belongs to a process that is gone (a crash, `kill -9`), and any process may
 * end it. The status index serves the sweep that looks for such calls.
 */
export const callLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('calls').addColumn('lease_owner', 'text').execute();
    await db.schema.alterTable('calls').addColumn('lease_expires_at', 'text').execute();
    await db.schema.createIndex('calls_status_idx').on('calls').column('status').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('calls_status_idx').execute();
    await db.schema.alterTable('calls').dropColumn('lease_expires_at').execute();
    await db.schema.alterTable('calls').dropColumn('lease_owner').execute();
  },
};
