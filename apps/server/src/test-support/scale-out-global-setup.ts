import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { postgresTestUrl, redisTestUrl } from './scale-out-services.js';

/**
 * Global setup of the scale-out test project: names this run's PostgreSQL databases and
 * Redis keys (a prefix no other run shares), and when the run ends drops every such
 * database and deletes every such key, whatever happened.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = `${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  const adminUrl = postgresTestUrl();
  const databasePrefix = `talkbooth_test_${run}`;
  const redisUrl = redisTestUrl();
  const keyPrefix = `talkbooth-test:${run}:`;

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.end();
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  await redis.quit();

  project.provide('postgresTestRun', { adminUrl, prefix: databasePrefix });
  project.provide('redisTestRun', { url: redisUrl, prefix: keyPrefix });
  return async () => {
    await dropDatabases(adminUrl, databasePrefix);
    await deleteKeys(redisUrl, keyPrefix);
  };
}

async function dropDatabases(adminUrl: string, prefix: string): Promise<void> {
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
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
      if ((keys as string[]).length > 0) await redis.unlink(...(keys as string[]));
    }
  } finally {
    await redis.quit();
  }
}
