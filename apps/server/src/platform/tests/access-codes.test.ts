import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessCodeSchema, sessionObjectSchema } from '@talkbooth/protocol';
import { failure } from '../../test-support/platform-failure.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

/** The server's clock, moved by the tests to expire codes without waiting. */
let clock = Date.now();
let server: TestServer;
let assistantId: string;
beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(clock) });
  assistantId = (await server.client().assistant.list())[0]!.id;
});
afterAll(async () => {
  await server.close();
});

const check = async (unicode: string) =>
  (await server.post('/api/get-assistant', { unicode })).json;

describe('access codes through the typed client, used with POST /api/get-assistant', () => {
  it('creates a generated code, shown once, that opens the assistant', async () => {
    const client = server.client();
    const created = await client.accessCode.create({ assistantId, label: 'Waiting room poster' });
    expect(created.code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(created).toMatchObject({
      assistantId,
      label: 'Waiting room poster',
      status: 'active',
      useCount: 0,
      maxUses: null,
    });

    expect(sessionObjectSchema.parse(await check(created.code.toUpperCase()))).toMatchObject({
      assistantId,
    });
    const listed = await client.accessCode.list({ assistantId });
    const again = listed.find((code) => code.id === created.id);
    expect(accessCodeSchema.strict().parse(again)).toMatchObject({ useCount: 1, status: 'active' });
    expect(JSON.stringify(listed)).not.toContain(created.code);
    expect(await client.accessCode.get(created.id)).not.toHaveProperty('code');
    expect(await server.db.storedText()).not.toContain(created.code);
  });

  it('takes a code of your own, and refuses one already in use (in any letter case)', async () => {
    const client = server.client();
    const created = await client.accessCode.create({ assistantId, code: 'Spring-Clinic-2026' });
    expect(created.code).toBe('Spring-Clinic-2026');
    expect(sessionObjectSchema.safeParse(await check('spring clinic 2026')).success).toBe(true);
    const duplicate = await failure(
      client.accessCode.create({ assistantId, code: 'SPRING-clinic-2026' }),
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.apiError?.fields).toEqual({ code: 'Already in use.' });
  });

  it('stops working when revoked', async () => {
    const client = server.client();
    const created = await client.accessCode.create({ assistantId });
    const revoked = await client.accessCode.revoke(created.id);
    expect(revoked).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
    expect(await check(created.code)).toEqual([]);
    // Revoking again keeps the first time.
    expect((await client.accessCode.revoke(created.id)).revokedAt).toBe(revoked.revokedAt);
  });

  it('stops working when it expires', async () => {
    const client = server.client();
    const created = await client.accessCode.create({
      assistantId,
      expiresAt: new Date(clock + 60_000).toISOString(),
    });
    expect(sessionObjectSchema.safeParse(await check(created.code)).success).toBe(true);
    clock += 61_000;
    expect(await check(created.code)).toEqual([]);
    expect((await client.accessCode.get(created.id)).status).toBe('expired');
  });

  it('stops working after its maximum uses', async () => {
    const client = server.client();
    const created = await client.accessCode.create({ assistantId, maxUses: 2 });
    expect(sessionObjectSchema.safeParse(await check(created.code)).success).toBe(true);
    expect(sessionObjectSchema.safeParse(await check(created.code)).success).toBe(true);
    expect(await check(created.code)).toEqual([]);
    expect(await client.accessCode.get(created.id)).toMatchObject({
      useCount: 2,
      status: 'used-up',
    });
  });

  it('stops working when its assistant is deleted', async () => {
    const client = server.client();
    const assistant = await client.assistant.create({ name: 'Short-lived' });
    const created = await client.accessCode.create({ assistantId: assistant.id });
    await client.assistant.delete(assistant.id);
    expect(await check(created.code)).toEqual([]);
    expect((await failure(client.accessCode.get(created.id))).status).toBe(404);
  });

  it('answers 400 for bad input and 404 for unknown ids', async () => {
    const client = server.client();
    const unknownAssistant = await failure(client.accessCode.create({ assistantId: 'nope' }));
    expect(unknownAssistant.status).toBe(400);
    expect(unknownAssistant.apiError?.fields).toEqual({
      assistantId: 'There is no assistant with id nope in your organisation.',
    });
    const past = await failure(
      client.accessCode.create({ assistantId, expiresAt: new Date(clock - 1000).toISOString() }),
    );
    expect(past.apiError?.fields).toEqual({ expiresAt: 'Must be in the future.' });
    const bad = await failure(client.accessCode.create({ assistantId, code: 'a b', maxUses: 0 }));
    expect(bad.apiError?.fields).toEqual({
      code: 'A code is 6 to 64 letters, digits, "-" or "_".',
      maxUses: 'maxUses is a whole number of at least 1.',
    });
    expect((await failure(client.accessCode.get('nope'))).status).toBe(404);
    expect((await failure(client.accessCode.revoke('nope'))).status).toBe(404);
  });
});
