import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../test-support/platform-failure.js';
import { withRepositories } from '../../test-support/stored-repositories.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let assistantId: string;
beforeAll(async () => {
  server = await startTestServer();
  assistantId = (await server.client().assistant.list())[0]!.id;
});
afterAll(async () => {
  await server.close();
});

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-for-import-0123456789';

describe('phone numbers through the typed client (real server, real SQLite file)', () => {
  it('imports a Twilio number: its auth token becomes a sealed credential', async () => {
    const client = server.client();
    const imported = await client.phoneNumber.importTwilio({
      twilioPhoneNumber: '+14155550100',
      twilioAccountSid: SID,
      twilioAuthToken: TOKEN,
      name: 'Front desk line',
      assistantId,
    });
    expect(imported).toMatchObject({
      provider: 'twilio',
      number: '+14155550100',
      name: 'Front desk line',
      assistantId,
      twilioAccountSid: SID,
      credentialId: expect.any(String),
    });
    expect(JSON.stringify(imported)).not.toContain(TOKEN);
    const credential = await client.credential.get(imported.credentialId!);
    expect(credential).toMatchObject({
      provider: 'twilio',
      accountSid: SID,
      authToken: '••••6789',
    });
    expect(await server.db.storedText()).not.toContain(TOKEN);

    const again = await failure(
      client.phoneNumber.importTwilio({
        twilioPhoneNumber: '+14155550100',
        twilioAccountSid: SID,
        twilioAuthToken: TOKEN,
      }),
    );
    expect(again.status).toBe(409);
    expect(again.apiError?.message).toBe(
      'The number +14155550100 is already in your organisation.',
    );
  });

  it('imports a Vonage number with a vonage credential only', async () => {
    const client = server.client();
    const vonage = await client.credential.create({
      provider: 'vonage',
      apiKey: 'key',
      apiSecret: 'vonage-secret-0123',
    });
    const openai = await client.credential.create({ provider: 'openai', apiKey: 'sk-0123456789' });
    const imported = await client.phoneNumber.importVonage({
      vonagePhoneNumber: '+447700900001',
      credentialId: vonage.id,
    });
    expect(imported).toMatchObject({
      provider: 'vonage',
      number: '+447700900001',
      credentialId: vonage.id,
    });

    const wrong = await failure(
      client.phoneNumber.importVonage({
        vonagePhoneNumber: '+447700900002',
        credentialId: openai.id,
      }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.apiError?.fields).toEqual({
      credentialId: `The credential ${openai.id} is for openai; importing a Vonage number needs a vonage credential.`,
    });
    const missing = await failure(
      client.phoneNumber.importVonage({ vonagePhoneNumber: '+447700900002', credentialId: 'nope' }),
    );
    expect(missing.apiError?.fields).toEqual({
      credentialId: 'There is no credential with id nope in your organisation.',
    });
  });

  it('validates E.164 numbers, Twilio SIDs and assistant ids', async () => {
    const client = server.client();
    const bad = await failure(
      client.phoneNumber.importTwilio({
        twilioPhoneNumber: '0415 555 0100',
        twilioAccountSid: 'SID',
        twilioAuthToken: 'x',
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.apiError?.fields).toEqual({
      twilioPhoneNumber: 'Use the E.164 form: + and 7 to 15 digits, like +14155550123.',
      twilioAccountSid: 'A Twilio account SID is AC followed by 32 hex digits.',
    });
    const noAssistant = await failure(
      client.phoneNumber.importTwilio({
        twilioPhoneNumber: '+14155550199',
        twilioAccountSid: SID,
        twilioAuthToken: TOKEN,
        assistantId: 'nope',
      }),
    );
    expect(noAssistant.apiError?.fields).toEqual({
      assistantId: 'There is no assistant with id nope in your organisation.',
    });
  });

  it('says buying needs a telephony provider', async () => {
    const error = await failure(server.client().phoneNumber.buy({ areaCode: '415' }));
    expect(error.status).toBe(400);
    expect(error.apiError?.message).toBe(
      'Buying phone numbers needs a telephony provider, and none is configured on this server. Import a number you own from Twilio or Vonage instead.',
    );
    const badArea = await failure(server.client().phoneNumber.buy({ areaCode: '41' }));
    expect(badArea.apiError?.fields).toEqual({ areaCode: 'areaCode is three digits, like 415.' });
  });

  it('updates with PATCH (null clears), refuses changes to fixed fields, lists, and deletes', async () => {
    const client = server.client();
    const imported = await client.phoneNumber.importTwilio({
      twilioPhoneNumber: '+14155550111',
      twilioAccountSid: SID,
      twilioAuthToken: TOKEN,
      assistantId,
      carrierNote: 'kept as given',
    } as never);
    const secret = 'whsec_phone_number_0123456789';
    const updated = await client.phoneNumber.update(imported.id, {
      name: 'Night line',
      serverUrl: 'https://hooks.example/phone',
      serverUrlSecret: secret,
    });
    expect(updated).toMatchObject({
      name: 'Night line',
      serverUrl: 'https://hooks.example/phone',
      serverUrlSecret: '••••6789',
      assistantId,
      carrierNote: 'kept as given',
    });
    expect(await server.db.storedText()).not.toContain(secret);
    const stored = await withRepositories(server, ({ phoneNumbers }) =>
      phoneNumbers.get(imported.orgId, imported.id),
    );
    expect(stored?.serverUrlSecret).toBe(secret);

    const cleared = await client.phoneNumber.update(imported.id, {
      assistantId: null,
      serverUrl: null,
    });
    expect(cleared).not.toHaveProperty('assistantId');
    expect(cleared).not.toHaveProperty('serverUrl');
    expect(cleared.name).toBe('Night line');

    const fixed = await failure(
      client.phoneNumber.update(imported.id, { number: '+14155550999' } as never),
    );
    expect(fixed.status).toBe(400);
    expect(fixed.apiError?.message).toBe(
      'number cannot be changed. This is fixed when the number is imported; import the number again to change it.',
    );

    expect((await client.phoneNumber.list()).map((p) => p.id)).toContain(imported.id);
    expect((await client.phoneNumber.delete(imported.id)).id).toBe(imported.id);
    expect((await failure(client.phoneNumber.get(imported.id))).status).toBe(404);
    expect((await failure(client.phoneNumber.update(imported.id, { name: 'x' }))).status).toBe(404);
    expect((await failure(client.phoneNumber.delete(imported.id))).status).toBe(404);
  });

  it('loses its assistant, not itself, when the assistant is deleted', async () => {
    const client = server.client();
    const assistant = await client.assistant.create({ name: 'Temporary' });
    const imported = await client.phoneNumber.importTwilio({
      twilioPhoneNumber: '+14155550122',
      twilioAccountSid: SID,
      twilioAuthToken: TOKEN,
      assistantId: assistant.id,
    });
    await client.assistant.delete(assistant.id);
    expect(await client.phoneNumber.get(imported.id)).not.toHaveProperty('assistantId');
  });
});
