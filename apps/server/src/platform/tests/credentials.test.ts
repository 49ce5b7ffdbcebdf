import type { CreateCredential } from '@talkbooth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../test-support/platform-failure.js';
import { withRepositories } from '../../test-support/stored-repositories.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const SECRETS = {
  openai: 'sk-proj-openai-secret-0123456789abcdef',
  deepgram: 'dg-secret-key-0123456789abcdef',
  twilio: 'twilio-auth-token-0123456789abcdef',
  vonage: 'vonage-api-secret-0123456789abcdef',
  replaced: 'sk-proj-replacement-secret-fedcba9876543210',
};

describe('credentials through the typed client (real server, real SQLite file)', () => {
  it('goes through its whole life, and no answer ever carries a secret', async () => {
    const client = server.client();
    const bodies: CreateCredential[] = [
      { provider: 'openai', apiKey: SECRETS.openai, name: 'OpenAI' },
      { provider: 'deepgram', apiKey: SECRETS.deepgram },
      {
        provider: 'twilio',
        accountSid: 'AC0123456789abcdef0123456789abcdef',
        authToken: SECRETS.twilio,
      },
      { provider: 'vonage', apiKey: 'vonage-key', apiSecret: SECRETS.vonage },
    ];
    const answers: unknown[] = [];
    const created = [];
    for (const body of bodies) {
      const credential = await client.credential.create(body);
      answers.push(credential);
      created.push(credential);
    }
    expect(created[0]).toMatchObject({ provider: 'openai', name: 'OpenAI', apiKey: '••••cdef' });
    expect(created[2]).toMatchObject({
      provider: 'twilio',
      accountSid: 'AC0123456789abcdef0123456789abcdef',
      authToken: '••••cdef',
    });
    expect(created[3]).toMatchObject({
      provider: 'vonage',
      apiKey: 'vonage-key',
      apiSecret: '••••cdef',
    });

    answers.push(await client.credential.list());
    for (const credential of created) answers.push(await client.credential.get(credential.id));
    const replaced = await client.credential.update(created[0]!.id, {
      provider: 'openai',
      apiKey: SECRETS.replaced,
      name: 'OpenAI 2',
    });
    answers.push(replaced);
    expect(replaced).toMatchObject({ name: 'OpenAI 2', apiKey: '••••3210' });
    answers.push(await client.credential.delete(created[1]!.id));
    expect((await failure(client.credential.get(created[1]!.id))).status).toBe(404);

    const everything = JSON.stringify(answers);
    const file = await server.db.storedText();
    for (const secret of Object.values(SECRETS)) {
      expect(everything).not.toContain(secret);
      expect(file).not.toContain(secret);
    }
    // What was stored opens again to exactly what was sent.
    const stored = await withRepositories(server, ({ credentials }) =>
      credentials.get(replaced.orgId, replaced.id),
    );
    expect(stored?.body).toMatchObject({ provider: 'openai', apiKey: SECRETS.replaced });
  });

  it('keeps the stored secret when a client sends the masked value back', async () => {
    const client = server.client();
    const created = await client.credential.create({
      provider: 'groq',
      apiKey: 'gsk_groq_secret_0123456789',
    });
    const fetched = await client.credential.get(created.id);
    await client.credential.update(created.id, {
      ...fetched,
      name: 'renamed',
    } as unknown as CreateCredential);
    const stored = await withRepositories(server, ({ credentials }) =>
      credentials.get(created.orgId, created.id),
    );
    expect(stored?.body).toMatchObject({ apiKey: 'gsk_groq_secret_0123456789', name: 'renamed' });
  });

  it('answers 400 for an unknown provider and for missing secrets', async () => {
    const client = server.client();
    const unknown = await failure(
      client.credential.create({ provider: 'acme-voice', apiKey: 'x' } as never),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.apiError?.message).toMatch(/^provider must be one of: twilio, vonage, openai, /);
    const missing = await failure(
      client.credential.create({ provider: 'twilio', accountSid: 'AC1' } as never),
    );
    expect(missing.apiError?.fields).toEqual({ authToken: 'Give the Twilio auth token.' });
  });

  it('answers 404 for unknown ids and 409 when deleting a credential a number uses', async () => {
    const client = server.client();
    for (const attempt of [
      () => client.credential.get('nope'),
      () => client.credential.update('nope', { provider: 'openai', apiKey: 'sk-x' }),
      () => client.credential.delete('nope'),
    ]) {
      expect((await failure(attempt())).status).toBe(404);
    }
    const vonage = await client.credential.create({
      provider: 'vonage',
      apiKey: 'k',
      apiSecret: 'vonage-secret-value',
    });
    await client.phoneNumber.importVonage({
      vonagePhoneNumber: '+447700900123',
      credentialId: vonage.id,
    });
    const inUse = await failure(client.credential.delete(vonage.id));
    expect(inUse.status).toBe(409);
    expect(inUse.apiError?.message).toBe(
      'This credential is in use by the phone number +447700900123. Delete that number first.',
    );
    expect(await client.credential.get(vonage.id)).toMatchObject({ id: vonage.id });
  });
});
