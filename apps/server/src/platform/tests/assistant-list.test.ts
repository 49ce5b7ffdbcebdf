import { assistantSchema, type AssistantDto } from '@talkbooth/protocol';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { presentAssistant } from '../present.js';
import { mask } from '../../security/secret-fields.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { withRepositories } from '../../test-support/stored-repositories.js';

// GET /platform/assistant answers each stored assistant with the JSON it had when its row
// was last the same (platform/answer-memo.ts). These check that the answer is still, byte
// for byte, what the schema-checking serialiser makes of the stored assistants, and that
// nothing is ever answered from an older version of a row.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const listPath = '/platform/assistant?limit=1000';
// Uncompressed (fetch asks for gzip and brotli by default), so headers describe the JSON.
const list = () =>
  server.get(listPath, {
    authorization: `Bearer ${server.privateKey}`,
    'accept-encoding': 'identity',
  });

/** The answer as the route made it before the memo: every assistant presented, checked, stringified. */
async function answerWithoutMemo(orgId: string): Promise<string> {
  const stored = await withRepositories(server, ({ assistants }) =>
    assistants.list(orgId, { limit: 1000 }),
  );
  const serialize = serializerCompiler({
    schema: z.array(assistantSchema),
    method: 'GET',
    url: '/platform/assistant',
  });
  return serialize(stored.map(presentAssistant));
}

describe('the assistant list answer', () => {
  it('is byte for byte the checked serialiser’s answer: key order, unknown fields, masks', async () => {
    const client = server.client();
    await client.assistant.create({
      name: 'Hooked',
      serverUrl: 'https://hooks.example/call',
      serverUrlSecret: 'whsec_list_0123456789ab',
    });
    await client.assistant.create({
      // Unknown fields, at the top and nested, before known ones: the schema orders them.
      backgroundSound: 'office',
      voice: { stability: 0.4, provider: 'espeak', voiceId: 'en-us' },
      name: 'Loose “quotes” ☎',
      model: { provider: 'local', model: 'knowledge-base', messages: [] },
    } as AssistantDto);
    await client.assistant.create({ serverUrlSecret: 'short' });

    const first = await list();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('content-length')).toBe(String(Buffer.byteLength(first.text)));
    const orgId = (first.json as { orgId: string }[])[0]!.orgId;
    // The demo assistant (seeded as plain JSON, in its own key order) is among them.
    expect((first.json as unknown[]).length).toBeGreaterThanOrEqual(4);
    const expected = await answerWithoutMemo(orgId);
    expect(first.text).toBe(expected);
    // Answered again from what was kept: the same bytes.
    expect((await list()).text).toBe(expected);

    expect(first.text).not.toContain('whsec_list_0123456789ab');
    expect(first.text).toContain(JSON.stringify(mask('whsec_list_0123456789ab')));
    expect(first.text).not.toContain('"short"');
  });

  it('answers a row changed in any way with its new content, even at the same updatedAt', async () => {
    const client = server.client();
    const created = await client.assistant.create({
      name: 'Before',
      serverUrl: 'https://hooks.example/call',
      serverUrlSecret: 'whsec_first_secret_1111',
    });
    const listed = async () =>
      ((await list()).json as Record<string, unknown>[]).find((a) => a.id === created.id);
    expect(await listed()).toMatchObject({ name: 'Before', serverUrlSecret: '••••1111' });

    // Another replica or an operator changes the row; the change does not move updatedAt.
    const { orgId } = created;
    const sameTime = new Date(created.updatedAt);
    await withRepositories(server, async ({ assistants }) => {
      const stored = await assistants.get(orgId, created.id);
      await assistants.replace(orgId, created.id, { ...stored!.body, name: 'After' }, sameTime);
    });
    expect(await listed()).toMatchObject({
      name: 'After',
      serverUrlSecret: '••••1111',
      updatedAt: created.updatedAt,
    });

    // Only the sealed secret changes: the mask follows it.
    await withRepositories(server, async ({ assistants }) => {
      const stored = await assistants.get(orgId, created.id);
      await assistants.replace(
        orgId,
        created.id,
        { ...stored!.body, serverUrlSecret: 'whsec_first_secret_2222' },
        sameTime,
      );
    });
    expect(await listed()).toMatchObject({ name: 'After', serverUrlSecret: '••••2222' });
    expect((await list()).text).not.toContain('whsec_first_secret');

    await server.db.run(
      'UPDATE assistants SET data = ? WHERE id = ?',
      JSON.stringify({ name: 'By hand', serverUrl: 'https://hooks.example/call' }),
      created.id,
    );
    expect(await listed()).toMatchObject({ name: 'By hand', serverUrlSecret: '••••2222' });
    expect((await list()).text).toBe(await answerWithoutMemo(orgId));
  });

  it('answers 500 on every list while a stored assistant does not match the schema', async () => {
    const client = server.client();
    const created = await client.assistant.create({ name: 'Soon broken' });
    const { data } = (await server.db.get<{ data: string }>(
      'SELECT data FROM assistants WHERE id = ?',
      created.id,
    ))!;
    expect((await list()).status).toBe(200);
    try {
      await server.db.run(
        'UPDATE assistants SET data = ? WHERE id = ?',
        JSON.stringify({ name: 'Broken', voice: { provider: 'no-such-voice', voiceId: 'x' } }),
        created.id,
      );
      const logsBefore = server.logs.length;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const answer = await list();
        expect(answer.status).toBe(500);
        expect(answer.text).not.toContain('no-such-voice');
      }
      const failures = server.logs
        .slice(logsBefore)
        .filter((line) => line.includes('FST_ERR_RESPONSE_SERIALIZATION'));
      expect(failures).toHaveLength(2);
      expect(failures[0]).toContain('Use one of the voice providers');
    } finally {
      await server.db.run('UPDATE assistants SET data = ? WHERE id = ?', data, created.id);
    }
    expect((await list()).status).toBe(200);
  });

  it('is still compressed for a client that asks', async () => {
    const plain = await list();
    const compressed = await server.get(listPath, {
      authorization: `Bearer ${server.privateKey}`,
      'accept-encoding': 'gzip',
    });
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(compressed.text).toBe(plain.text);
  });
});
