import { afterEach, describe, expect, it } from 'vitest';
import { loadMasterKey } from '../security/master-key.js';
import { SecretBox } from '../security/secret-box.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { openDatabase } from './open-database.js';
import { CallRepository } from './repositories/calls.js';

// Scale-out project only (PostgreSQL): several processes share one database
// there, which a SQLite file never is.
const started: TestServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

describe('replicas on one PostgreSQL database', () => {
  it('seeds the demo and creates the first keys once when two servers start at the same moment', async () => {
    const first = await startTestServer();
    started.push(first);
    // Empty the database again, so that two fresh starts race for it.
    await first.db.run(
      'drop table access_codes, api_keys, call_join_tokens, calls, credentials, feedback, phone_numbers, talk_documents, users, assistants, orgs, kysely_migration, kysely_migration_lock',
    );
    await first.close();
    started.pop();

    const both = await Promise.all([
      startTestServer({ dataDir: first.dataDir }),
      startTestServer({ dataDir: first.dataDir }),
    ]);
    started.push(...both);
    expect(both.map((server) => server.demo.seeded).sort()).toEqual([false, true]);
    expect(
      both
        .flatMap((server) => server.createdKeys)
        .map((k) => k.record.kind)
        .sort(),
    ).toEqual(['private', 'public']);
    const db = both[0]!.db;
    expect(await db.count('orgs')).toBe(1);
    expect(await db.count('assistants')).toBe(1);
    expect(await db.count('access_codes', 'revoked_at is null')).toBe(1);
    expect(await db.count('api_keys')).toBe(2);
  });

  it('loses no write when many writers update one call at once (rows locked while read)', async () => {
    const server = await startTestServer();
    started.push(server);
    const [assistant] = await server.client().assistant.list();
    const call = await server.client().call.createWeb({ assistantId: assistant!.id });
    const db = openDatabase(server.db.url);
    try {
      const calls = new CallRepository(db, new SecretBox(loadMasterKey(undefined, server.dataDir)));
      const now = new Date();
      await Promise.all(
        Array.from({ length: 24 }, (_, n) => calls.update(call.id, {}, { [`note${n}`]: n }, now)),
      );
      const stored = (await calls.getById(call.id)) as Record<string, unknown>;
      for (let n = 0; n < 24; n += 1) expect(stored[`note${n}`], `note${n}`).toBe(n);
    } finally {
      await db.destroy();
    }
  });
});
