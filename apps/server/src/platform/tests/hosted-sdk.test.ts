import { VapiClient, VapiError } from '@vapi-ai/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

/**
 * Wire compatibility, checked with the hosted platform's own generated client
 * (@vapi-ai/server-sdk, pinned): pointed at our server instead of the hosted one, it must
 * work unchanged for the endpoints of the 2024 API that both share.
 */
let server: TestServer;
let client: VapiClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new VapiClient({ token: server.privateKey!, environment: `${server.baseUrl}/platform` });
});
afterAll(async () => {
  await server.close();
});

describe("the hosted platform's generated SDK against our server (unchanged, only the base URL differs)", () => {
  it('manages assistants: create, list, get, update, delete', async () => {
    const created = await client.assistants.create({
      name: 'From the hosted SDK',
      firstMessage: 'Hello {{name}}',
      transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US' },
      model: {
        provider: 'openai',
        model: 'gpt-4o',
        messages: [{ role: 'system', content: 'Be brief.' }],
      },
      voice: { provider: '11labs', voiceId: 'burt' },
    });
    expect(created).toMatchObject({
      name: 'From the hosted SDK',
      orgId: expect.any(String),
      model: { model: 'gpt-4o' },
    });

    const listed = await client.assistants.list({ limit: 100 });
    expect(listed.map((a) => a.id)).toContain(created.id);
    expect((await client.assistants.get(created.id)).voice).toEqual({
      provider: '11labs',
      voiceId: 'burt',
    });

    const updated = await client.assistants.update(created.id, { name: 'Renamed by the SDK' });
    expect(updated).toMatchObject({
      name: 'Renamed by the SDK',
      model: { provider: 'openai', model: 'gpt-4o' },
    });

    expect((await client.assistants.delete(created.id)).id).toBe(created.id);
  });

  it('lists and reads calls, filtered by assistant', async () => {
    const [demo] = await server.client().assistant.list();
    const call = await server.client().call.createWeb({ assistantId: demo!.id });
    const calls = await client.calls.list({ assistantId: demo!.id, limit: 10 });
    expect(calls.map((c) => c.id)).toContain(call.id);
    expect(await client.calls.get(call.id)).toMatchObject({
      id: call.id,
      type: 'webCall',
      status: 'queued',
    });
  });

  it('lists, reads, updates and deletes phone numbers', async () => {
    const imported = await server.client().phoneNumber.importTwilio({
      twilioPhoneNumber: '+14155550177',
      twilioAccountSid: 'AC0123456789abcdef0123456789abcdef',
      twilioAuthToken: 'twilio-token-0123456789',
    });
    expect((await client.phoneNumbers.list()).map((p) => p.id)).toContain(imported.id);
    expect(await client.phoneNumbers.get(imported.id)).toMatchObject({ number: '+14155550177' });
    expect(await client.phoneNumbers.update(imported.id, { name: 'Renamed line' })).toMatchObject({
      name: 'Renamed line',
    });
    expect((await client.phoneNumbers.delete(imported.id)).id).toBe(imported.id);
  });

  it('surfaces our errors through its own error type', async () => {
    const error = await client.assistants.get('no-such-assistant').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VapiError);
    expect((error as VapiError).statusCode).toBe(404);
    expect((error as VapiError).body).toMatchObject({
      message: 'There is no assistant with id no-such-assistant in your organisation.',
    });

    const wrongKey = new VapiClient({
      token: 'not-a-key',
      environment: `${server.baseUrl}/platform`,
    });
    const denied = await wrongKey.assistants.list().catch((e: unknown) => e);
    expect((denied as VapiError).statusCode).toBe(401);
  });
});
