import crypto from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { postgresTestUrl } from './postgres-url.js';

/**
 * Global setup of the PostgreSQL test project: names this run's databases (a prefix no
 * other run shares) and drops every one of them when the run ends, whatever happened.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = postgresTestUrl();
  const prefix = `talkbooth_test_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.end();
  project.provide('postgresTestRun', { adminUrl, prefix });
  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select datname as name from pg_database where datname like $1',
        [`${prefix}\\_%`],
      );
      for (const { name } of rows) await client.query(`drop database "${name}" with (force)`);
    } finally {
      await client.end();
    }
  };
}
