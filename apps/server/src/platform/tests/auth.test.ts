import { PlatformClient } from '@talkbooth/platform-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { failure } from '../../test-support/platform-failure.js';

const started: TestServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});
const start = async (...args: Parameters<typeof startTestServer>) => {
  const server = await startTestServer(...args);
  started.push(server);
  return server;
};

describe('platform API keys and access (typed client against the real server)', () => {
  it('creates one key of each kind at first start, and no more at the next start', async () => {
    const server = await start();
    expect(server.privateKey).toMatch(/^tb_private_[\w-]{43}$/);
    expect(server.publicKey).toMatch(/^tb_public_[\w-]{43}$/);
    const rows = await server.db.all<{ kind: string; key_hash: string }>(
      'select kind, key_hash from api_keys',
    );
    expect(rows.map((r) => r.kind).sort()).toEqual(['private', 'public']);
    // Stored hashed: the keys themselves are not in the table.
    for (const row of rows)
      expect([server.privateKey, server.publicKey]).not.toContain(row.key_hash);
    await server.close();
    started.pop();
    const again = await start({ dataDir: server.dataDir });
    expect(again.createdKeys).toEqual([]);
    expect(await again.client(server.privateKey).assistant.list()).toHaveLength(1);
  });

  it('answers 401 without a key, with a malformed header, and with a wrong key', async () => {
    const server = await start();
    const none = await fetch(`${server.baseUrl}/platform/assistant`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message:
        'This API needs an API key. Send it in the Authorization header: "Authorization: Bearer <your key>".',
    });
    const basic = await fetch(`${server.baseUrl}/platform/assistant`, {
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as { message: string }).message).toBe(
      'The Authorization header must read "Bearer <your key>".',
    );

    const wrong = await failure(server.client('tb_private_not-a-real-key').assistant.list());
    expect(wrong.status).toBe(401);
    expect(wrong.apiError?.message).toBe(
      'This API key is not valid or has been revoked. Check the key, or create a new one.',
    );
  });

  it('answers 401 for a revoked key', async () => {
    const server = await start();
    await server.client().assistant.list();
    await server.db.run(
      "update api_keys set revoked_at = '2026-01-01T00:00:00.000Z' where kind = 'private'",
    );
    expect((await failure(server.client().assistant.list())).status).toBe(401);
  });

  it('lets a public key create web calls and nothing else (403 with a reason)', async () => {
    const server = await start();
    const publicClient = server.client(server.publicKey);
    const [assistant] = await server.client().assistant.list();
    const call = await publicClient.call.createWeb({ assistantId: assistant!.id });
    expect(call).toMatchObject({ type: 'webCall', status: 'queued', assistantId: assistant!.id });

    for (const attempt of [
      () => publicClient.assistant.list(),
      () => publicClient.call.get(call.id),
      () => publicClient.credential.list(),
      () => publicClient.metrics.get(),
      () => publicClient.accessCode.list(),
    ]) {
      const error = await failure(attempt());
      expect(error.status).toBe(403);
      expect(error.apiError?.message).toMatch(
        /^A public key can only start web calls \(POST \/call\/web\)/,
      );
    }
  });

  it('restricts a public key to its allowed origins', async () => {
    const server = await start({
      env: {
        PLATFORM_PUBLIC_KEY: 'pk_env_public_key_0123456789',
        PLATFORM_ALLOWED_ORIGINS: 'https://clinic.example',
      },
    });
    const [assistant] = await server.client().assistant.list();
    const body = JSON.stringify({ assistantId: assistant!.id });
    const post = (origin?: string) =>
      fetch(`${server.baseUrl}/platform/call/web`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer pk_env_public_key_0123456789',
          'content-type': 'application/json',
          ...(origin === undefined ? {} : { origin }),
        },
        body,
      });
    expect((await post('https://clinic.example')).status).toBe(201);
    const elsewhere = await post('https://evil.example');
    expect(elsewhere.status).toBe(403);
    expect(((await elsewhere.json()) as { message: string }).message).toBe(
      'This public key only works from https://clinic.example; this request came from https://evil.example.',
    );
    expect((await post()).status).toBe(403);
  });

  it('uses keys from the environment as the only keys of their kind', async () => {
    const first = await start();
    const envPrivate = 'sk_env_private_key_0123456789';
    await first.close();
    started.pop();
    const server = await start({
      dataDir: first.dataDir,
      env: { PLATFORM_PRIVATE_KEY: envPrivate },
    });
    expect(server.createdKeys).toEqual([]);
    expect(await server.client(envPrivate).assistant.list()).toHaveLength(1);
    expect((await failure(server.client(first.privateKey).assistant.list())).status).toBe(401);
    // The stored public key still works; the web app is handed it.
    const config = (await server.get('/api/client-config')).json as { platformPublicKey: string };
    expect(config.platformPublicKey).toBe(first.publicKey);
  });

  it('hands the web app the environment public key when there is one', async () => {
    const server = await start({ env: { PLATFORM_PUBLIC_KEY: 'pk_env_public_key_0123456789' } });
    expect(server.createdKeys.map((k) => k.record.kind)).toEqual(['private']);
    const config = (await server.get('/api/client-config')).json as { platformPublicKey: string };
    expect(config.platformPublicKey).toBe('pk_env_public_key_0123456789');
  });

  it('keeps organisations apart: another org’s key sees none of this org’s data', async () => {
    const server = await start();
    const mine = server.client();
    const [assistant] = await mine.assistant.list();
    const otherKey = 'tb_private_other-organisation-key-0123456789';
    const { hashToken } = await import('../../security/tokens.js');
    const at = new Date().toISOString();
    await server.db.run(
      'insert into orgs (id, name, created_at, updated_at) values (?, ?, ?, ?)',
      'org-2',
      'Other',
      at,
      at,
    );
    await server.db.run(
      `insert into api_keys (id, org_id, kind, name, key_hash, key_hint, created_at, updated_at) values ('k2', 'org-2', 'private', 'other', ?, '6789', ?, ?)`,
      hashToken(otherKey),
      at,
      at,
    );
    const theirs = new PlatformClient({ token: otherKey, baseUrl: `${server.baseUrl}/platform` });

    expect(await theirs.assistant.list()).toEqual([]);
    expect((await failure(theirs.assistant.get(assistant!.id))).status).toBe(404);
    expect((await failure(theirs.assistant.delete(assistant!.id))).status).toBe(404);
    expect((await failure(theirs.call.createWeb({ assistantId: assistant!.id }))).status).toBe(400);
    expect(await theirs.accessCode.list()).toEqual([]);
    const created = await theirs.assistant.create({ name: 'Theirs' });
    expect(created.orgId).toBe('org-2');
    expect((await mine.assistant.list()).map((a) => a.name)).not.toContain('Theirs');
    expect((await failure(mine.assistant.get(created.id))).status).toBe(404);
  });

  it('serves the OpenAPI document without a key, with every platform path', async () => {
    const server = await start();
    const response = await server.get('/platform/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.json as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/platform' }]);
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/access-code',
      '/access-code/{id}',
      '/access-code/{id}/revoke',
      '/assistant',
      '/assistant/{id}',
      '/call',
      '/call/phone',
      '/call/web',
      '/call/{id}',
      '/call/{id}/control',
      '/call/{id}/recording',
      '/credential',
      '/credential/{id}',
      '/metrics',
      '/phone-number',
      '/phone-number/buy',
      '/phone-number/import/twilio',
      '/phone-number/import/vonage',
      '/phone-number/{id}',
    ]);
    expect(Object.keys(doc.paths['/assistant/{id}']!).sort()).toEqual([
      'delete',
      'get',
      'patch',
      'put',
    ]);
  });
});
