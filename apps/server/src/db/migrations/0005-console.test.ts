import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { openDatabase } from '../open-database.js';
import { migrations } from './index.js';

const opened: { destroy(): Promise<void> }[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

describe('migration 0005-console on a database with accounts from before it (real SQLite file)', () => {
  it('makes the earliest account owner of the first organisation and gives each later one its own', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-migrate-'));
    const db = openDatabase(`sqlite:${path.join(dir, 'talkbooth.db')}`);
    opened.push(db);
    const upTo0004 = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => name < '0005'),
    );
    const { error } = await new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(upTo0004) },
    }).migrateToLatest();
    expect(error).toBeUndefined();

    const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`;
    await db
      .insertInto('orgs')
      .values({ id: 'org-demo', name: 'Demo', created_at: at(0), updated_at: at(0) })
      .execute();
    // Written as 0001's table had them: no organisation, no role.
    for (const [id, minute] of [
      ['later', 2],
      ['first', 1],
    ] as const) {
      await db
        .insertInto('users')
        .values({
          id,
          username: id,
          email: `${id}@example.com`,
          password_hash: 'hash',
          created_at: at(minute),
          updated_at: at(minute),
        } as never)
        .execute();
    }

    expect(await migrateToLatest(db)).toContain('0005-console');
    const users = await db
      .selectFrom('users')
      .innerJoin('orgs', 'orgs.id', 'users.org_id')
      .select(['users.id', 'users.role', 'orgs.id as org', 'orgs.name'])
      .orderBy('users.created_at')
      .execute();
    expect(users).toEqual([
      { id: 'first', role: 'owner', org: 'org-demo', name: 'Demo' },
      {
        id: 'later',
        role: 'owner',
        org: expect.not.stringMatching(/^org-demo$/),
        name: "later's organisation",
      },
    ]);
  });
});
