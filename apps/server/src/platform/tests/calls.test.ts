import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../db/open-database.js';
import { CallRepository } from '../../db/repositories/calls.js';
import { loadMasterKey } from '../../security/master-key.js';
import { SecretBox } from '../../security/secret-box.js';
import { failure } from '../../test-support/platform-failure.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { WEB_CALLS_PER_MINUTE } from '../routes/calls.js';

let server: TestServer;
let demoAssistantId: string;
beforeAll(async () => {
  server = await startTestServer();
  const [demo] = await server.client().assistant.list();
  demoAssistantId = demo!.id;
});
afterAll(async () => {
  await server.close();
});

describe('calls through the typed client (real server, real SQLite file)', () => {
  it('creates a queued web call for a stored assistant, with a single-use socket URL', async () => {
    const client = server.client();
    const call = await client.call.createWeb({
      assistantId: demoAssistantId,
      metadata: { visit: 'checkup' },
    });
    expect(call).toMatchObject({
      type: 'webCall',
      status: 'queued',
      assistantId: demoAssistantId,
      metadata: { visit: 'checkup' },
    });
    const url = new URL(call.webCallUrl!);
    expect(url.protocol).toBe('ws:');
    expect(url.host).toBe(new URL(server.baseUrl).host);
    expect(url.pathname).toBe(`/ws/call/${call.id}`);
    expect(url.searchParams.get('token')).toMatch(/^[\w-]{43}$/);

    const fetched = await client.call.get(call.id);
    expect(fetched).toMatchObject({
      id: call.id,
      status: 'queued',
      metadata: { visit: 'checkup' },
    });
    // The token is only in the answer to the create; only its hash is stored.
    expect(fetched).not.toHaveProperty('webCallUrl');
    expect(await server.db.storedText()).not.toContain(url.searchParams.get('token')!);
  });

  it('lets the join token be spent once, within 60 seconds', async () => {
    const call = await server.client().call.createWeb({ assistantId: demoAssistantId });
    const token = new URL(call.webCallUrl!).searchParams.get('token')!;
    const db = openDatabase(server.db.url);
    try {
      const calls = new CallRepository(db, new SecretBox(loadMasterKey(undefined, server.dataDir)));
      const inTime = new Date(Date.parse(call.createdAt) + 59_000);
      expect(await calls.redeemJoinToken('not-a-token', inTime)).toEqual({ problem: 'unknown' });
      expect(await calls.redeemJoinToken(token, inTime)).toEqual({ callId: call.id });
      expect(await calls.redeemJoinToken(token, inTime)).toEqual({ problem: 'used' });

      const late = await server.client().call.createWeb({ assistantId: demoAssistantId });
      const lateToken = new URL(late.webCallUrl!).searchParams.get('token')!;
      expect(
        await calls.redeemJoinToken(lateToken, new Date(Date.parse(late.createdAt) + 60_001)),
      ).toEqual({
        problem: 'expired',
      });
    } finally {
      await db.destroy();
    }
  });

  it('takes an inline assistant and overrides with template variables, and keeps unknown fields', async () => {
    const client = server.client();
    const call = await client.call.createWeb({
      assistant: {
        name: 'Inline',
        firstMessage: 'Hi {{name}}',
        voice: { provider: 'espeak', voiceId: 'en-us' },
      },
      assistantOverrides: {
        transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US' },
        recordingEnabled: false,
        variableValues: { name: 'Sam' },
      },
      customTracking: { campaign: 'spring' },
    } as never);
    expect(call).not.toHaveProperty('assistantId');
    expect(call).toMatchObject({
      assistant: { name: 'Inline', firstMessage: 'Hi {{name}}' },
      assistantOverrides: { variableValues: { name: 'Sam' }, recordingEnabled: false },
      customTracking: { campaign: 'spring' },
    });
    expect(await client.call.get(call.id)).toMatchObject({
      customTracking: { campaign: 'spring' },
    });
  });

  it('masks a serverUrlSecret of an inline assistant', async () => {
    const secret = 'whsec_inline_call_1234567890';
    const call = await server
      .client()
      .call.createWeb({ assistant: { name: 'Inline', serverUrlSecret: secret } });
    expect(call.assistant?.serverUrlSecret).toBe('••••7890');
    expect(JSON.stringify(await server.client().call.get(call.id))).not.toContain(secret);
    expect(await server.db.storedText()).not.toContain(secret);
  });

  it('answers 400 for an unknown assistant, and for neither or both of assistantId and assistant', async () => {
    const client = server.client();
    const unknown = await failure(client.call.createWeb({ assistantId: 'no-such-assistant' }));
    expect(unknown.status).toBe(400);
    expect(unknown.apiError?.fields).toEqual({
      assistantId: 'There is no assistant with id no-such-assistant in your organisation.',
    });

    const message =
      'Give either assistantId (a stored assistant) or assistant (an inline one), not both.';
    const neither = await failure(client.call.createWeb({}));
    expect(neither.status).toBe(400);
    expect(neither.apiError?.fields).toEqual({ assistantId: message });
    const both = await failure(
      client.call.createWeb({ assistantId: demoAssistantId, assistant: { name: 'x' } }),
    );
    expect(both.apiError?.fields).toEqual({ assistantId: message });
  });

  it('lists calls newest first, filtered by assistant, and answers 404 for an unknown id', async () => {
    const client = server.client();
    const other = await client.assistant.create({ name: 'Other desk' });
    const a = await client.call.createWeb({ assistantId: other.id });
    const b = await client.call.createWeb({ assistantId: other.id });
    await client.call.createWeb({ assistantId: demoAssistantId });

    const forOther = await client.call.list({ assistantId: other.id });
    expect(forOther.map((call) => call.id)).toEqual([b.id, a.id]);
    expect(await client.call.list({ assistantId: other.id, limit: 1 })).toHaveLength(1);
    const error = await failure(client.call.get('no-such-call'));
    expect(error.status).toBe(404);
    expect(error.apiError?.message).toBe(
      'There is no call with id no-such-call in your organisation.',
    );
  });

  it('refuses phone calls while no telephony provider is configured, and keeps a record of the attempt', async () => {
    const client = server.client();
    const error = await failure(
      client.call.createPhone({
        assistantId: demoAssistantId,
        customer: { number: '+14155550123', name: 'Pat' },
        phoneNumber: { twilioPhoneNumber: '+14155550100' },
      }),
    );
    expect(error.status).toBe(400);
    const message = error.apiError?.message ?? '';
    expect(message).toMatch(
      /^Phone calls need a telephony provider, and none is configured on this server\. The attempt is recorded as call /,
    );
    const callId = /call ([\w-]+)\.$/.exec(message)?.[1];
    const recorded = await client.call.get(callId!);
    expect(recorded).toMatchObject({
      type: 'outboundPhoneCall',
      status: 'ended',
      endedReason: 'telephony-not-configured',
      assistantId: demoAssistantId,
      customer: { number: '+14155550123', name: 'Pat' },
    });
  });

  it('validates phone call bodies before recording anything', async () => {
    const client = server.client();
    const before = (await client.call.list({ limit: 1000 })).length;
    const bad = await failure(
      client.call.createPhone({
        assistantId: demoAssistantId,
        customer: { number: '555-0123' },
      } as never),
    );
    expect(bad.status).toBe(400);
    expect(bad.apiError?.fields).toMatchObject({
      'customer.number': 'Use the E.164 form: + and 7 to 15 digits, like +14155550123.',
    });
    const unknownNumber = await failure(
      client.call.createPhone({
        assistantId: demoAssistantId,
        customer: { number: '+14155550123' },
        phoneNumberId: 'nope',
      }),
    );
    expect(unknownNumber.apiError?.fields).toEqual({
      phoneNumberId: 'There is no phone number with id nope in your organisation.',
    });
    expect((await client.call.list({ limit: 1000 })).length).toBe(before);
  });

  it('limits web calls started with the public key per client, not those started with the private key', async () => {
    // Many calls at once: the caps on live calls (tested in calls/tests/limits.test.ts)
    // are raised out of the way of the rate limit.
    const server = await startTestServer({
      env: { MAX_LIVE_CALLS: '100', MAX_LIVE_CALLS_PER_ADDRESS: '100' },
    });
    onTestFinished(() => server.close());
    const [demo] = await server.client().assistant.list();
    const demoAssistantId = demo!.id;
    const publicClient = server.client(server.publicKey);
    for (let i = 0; i < WEB_CALLS_PER_MINUTE; i += 1)
      await publicClient.call.createWeb({ assistantId: demoAssistantId });
    const limited = await failure(publicClient.call.createWeb({ assistantId: demoAssistantId }));
    expect(limited.status).toBe(429);
    expect(limited.apiError?.message).toMatch(
      /^Too many calls started from your network\. Try again in (\d+ seconds?|1 minute)\.$/,
    );
    expect((await server.client().call.createWeb({ assistantId: demoAssistantId })).status).toBe(
      'queued',
    );
  });
});
