import type { Kysely, Migration } from 'kysely';

/**
 * The first schema: organisations, assistants, access codes, accounts, feedback and the
 * talk collections. Only portable types and constraints (text, integer; unique, foreign
 * keys), so PostgreSQL runs the same migration.
 */
export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('orgs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('assistants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('assistants_org_created_idx')
      .on('assistants')
      .columns(['org_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('access_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('assistant_id', 'text', (c) =>
        c.notNull().references('assistants.id').onDelete('cascade'),
      )
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('access_codes_assistant_idx')
      .on('access_codes')
      .column('assistant_id')
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('feedback')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('call_id', 'text')
      .addColumn('assistant_id', 'text')
      .addColumn('rating', 'integer')
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('feedback_call_idx').on('feedback').column('call_id').execute();

    await db.schema
      .createTable('talk_documents')
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('doc_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('talk_documents_pk', ['product', 'doc_id'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'talk_documents',
      'feedback',
      'users',
      'access_codes',
      'assistants',
      'orgs',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
