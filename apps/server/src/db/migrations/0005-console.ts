import crypto from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

interface UserRow {
  id: string;
  username: string;
  created_at: string;
}

/**
 * The operator console: every account belongs to one organisation with a role, signs in
 * with a session, and can invite others; calls' server messages (webhooks) wait in a
 * durable outbox with a log of every attempt.
 *
 * Accounts registered before this migration: the earliest one owns the first
 * organisation (the demo's), each later one gets an organisation of its own, so no
 * account can see another's data.
 */
export const consoleAccounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('org_id', 'text').execute();
    await db.schema.alterTable('users').addColumn('role', 'text').execute();
    // Kysely<unknown> cannot type these rows; the shapes are the ones 0001 created.
    const anyDb = db as unknown as Kysely<{
      users: UserRow & { org_id: string | null; role: string | null };
      orgs: { id: string; name: string; created_at: string; updated_at: string };
    }>;
    const users = await anyDb
      .selectFrom('users')
      .select(['id', 'username', 'created_at'])
      .orderBy('created_at')
      .execute();
    const firstOrg = await anyDb
      .selectFrom('orgs')
      .select('id')
      .orderBy('created_at')
      .executeTakeFirst();
    for (const [index, user] of users.entries()) {
      let orgId = index === 0 ? firstOrg?.id : undefined;
      if (orgId === undefined) {
        orgId = crypto.randomUUID();
        await anyDb
          .insertInto('orgs')
          .values({
            id: orgId,
            name: `${user.username}'s organisation`,
            created_at: user.created_at,
            updated_at: user.created_at,
          })
          .execute();
      }
      await anyDb
        .updateTable('users')
        .set({ org_id: orgId, role: 'owner' })
        .where('id', '=', user.id)
        .execute();
    }
    await db.schema.createIndex('users_org_idx').on('users').column('org_id').execute();

    await db.schema
      .createTable('console_sessions')
      // SHA-256 of the cookie's token: the token itself is never stored.
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('console_sessions_user_idx')
      .on('console_sessions')
      .column('user_id')
      .execute();

    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('used_by', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      // No foreign key: the log outlives a deleted call.
      .addColumn('call_id', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('message_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      // The serverUrlSecret to send, sealed (security/secret-box.ts); null for none.
      .addColumn('sealed_secret', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      // A process sending it holds it until then; after, another may take it over.
      .addColumn('claimed_until', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_due_idx')
      .on('webhook_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_org_created_idx')
      .on('webhook_deliveries')
      .columns(['org_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('delivery_id', 'text', (c) =>
        c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
      )
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_attempts_delivery_idx')
      .on('webhook_attempts')
      .column('delivery_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('invites').execute();
    await db.schema.dropTable('console_sessions').execute();
    await db.schema.dropIndex('users_org_idx').execute();
    await db.schema.alterTable('users').dropColumn('role').execute();
    await db.schema.alterTable('users').dropColumn('org_id').execute();
  },
};
