import { afterEach, describe, expect, it } from 'vitest';
import { encodeWav } from '@talkbooth/voice';
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
    await first.db.run('drop schema public cascade');
    await first.db.run('create schema public');
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

  it('serves a recording that another process stored, from any replica', async () => {
    const one = await startTestServer();
    started.push(one);
    const two = await startTestServer({ dataDir: one.dataDir });
    started.push(two);
    const [assistant] = await one.client().assistant.list();
    const call = await one.client().call.createWeb({ assistantId: assistant!.id });
    const url = `/platform/call/${call.id}/recording`;
    const audio = encodeWav({ samples: new Int16Array(8_000).fill(900), sampleRate: 16_000 });
    const db = openDatabase(one.db.url);
    try {
      const calls = new CallRepository(db, new SecretBox(loadMasterKey(undefined, one.dataDir)));
      // Stored twice: the second replaces the first.
      await calls.saveRecording(call.id, 'audio/wav', Buffer.alloc(44), new Date());
      await calls.saveRecording(call.id, 'audio/wav', audio, new Date());
      await calls.update(
        call.id,
        { status: 'ended' },
        { recordingUrl: one.baseUrl + url },
        new Date(),
      );
    } finally {
      await db.destroy();
    }
    for (const replica of [one, two]) {
      const response = await fetch(replica.baseUrl + url, {
        headers: { authorization: `Bearer ${one.privateKey}` },
      });
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(audio)).toBe(true);
    }
  });
});
