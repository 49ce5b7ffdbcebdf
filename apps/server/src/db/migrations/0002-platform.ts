import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The platform API: API keys, calls and their join tokens, credentials, phone numbers;
 * secrets for assistants; use limits for access codes. Portable types only.
 */
export const platform: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_hint', 'text', (c) => c.notNull())
      .addColumn('allowed_origins', 'text')
      .addColumn('sealed_key', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      // No foreign key: a call's record outlives a deleted assistant.
      .addColumn('assistant_id', 'text')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('ended_reason', 'text')
      .addColumn('started_at', 'text')
      .addColumn('ended_at', 'text')
      .addColumn('cost', 'double precision')
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('secrets', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('calls_org_created_idx')
      .on('calls')
      .columns(['org_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('calls_org_assistant_idx')
      .on('calls')
      .columns(['org_id', 'assistant_id'])
      .execute();

    await db.schema
      .createTable('call_join_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id').onDelete('cascade'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();

    await db.schema
      .createTable('credentials')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('secrets', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('credentials_org_created_idx')
      .on('credentials')
      .columns(['org_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('phone_numbers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('number', 'text', (c) => c.notNull())
      .addColumn('assistant_id', 'text', (c) => c.references('assistants.id').onDelete('set null'))
      .addColumn('credential_id', 'text', (c) =>
        c.references('credentials.id').onDelete('restrict'),
      )
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('secrets', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('phone_numbers_org_number_key', ['org_id', 'number'])
      .execute();

    await db.schema.alterTable('assistants').addColumn('secrets', 'text').execute();
    await db.schema.alterTable('access_codes').addColumn('max_uses', 'integer').execute();
    await db.schema
      .alterTable('access_codes')
      .addColumn('use_count', 'integer', (c) => c.notNull().defaultTo(sql`0`))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('access_codes').dropColumn('use_count').execute();
    await db.schema.alterTable('access_codes').dropColumn('max_uses').execute();
    await db.schema.alterTable('assistants').dropColumn('secrets').execute();
    for (const table of ['phone_numbers', 'credentials', 'call_join_tokens', 'calls', 'api_keys']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
