import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallClient } from '../../test-support/call-client.js';
import { spokenLine } from '../../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';

// Real-time calls: each test holds a conversation of many seconds.
vi.setConfig({ testTimeout: 120_000 });

const started: TestServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});
async function start(options?: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(options);
  started.push(server);
  return { server, assistantId: await demoAssistantId(server) };
}

describe('the call socket with bad input and broken connections (real server)', () => {
  it('ends the call with a clear message on a malformed audio frame, keeping the record', async () => {
    const { server, assistantId } = await start();
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await client.waitFor(() => client.audioMs() > 1500, 10_000, 'some of the greeting');
    client.stopMic();
    client.socket.send(Buffer.from([1, 2, 3]));
    const error = await client.waitFor(() => client.find('error'));
    expect(error.error).toBe(
      'An audio message must hold 16-bit PCM samples: an even number of bytes, at most 32000 (got 3).',
    );
    await client.whenClosed();
    const record = await endedRecord(server, call.id);
    expect(record).toMatchObject({
      endedReason: 'customer-sent-invalid-data',
      endedDetail: error.error,
    });
    expect(record.messages?.[0]).toMatchObject({
      role: 'bot',
      message: expect.stringContaining('Hello Sam'),
    });
  });

  it('ends the call with a clear message on a message it cannot read', async () => {
    const { server, assistantId } = await start();
    for (const [payload, message] of [
      ['{not json', 'A text message must be JSON, like {"type":"playable"}.'],
      [
        '{"type":"dance"}',
        'This message is not understood: Unknown message type: use playable, add-message, control or say.',
      ],
    ]) {
      const { call, client } = await startCall(
        server,
        { assistantId, assistantOverrides: BOOTH_OVERRIDES },
        { microphone: false },
      );
      client.socket.send(payload!);
      expect((await client.waitFor(() => client.find('error'))).error).toBe(message);
      await client.whenClosed();
      expect(await endedRecord(server, call.id)).toMatchObject({
        endedReason: 'customer-sent-invalid-data',
        endedDetail: message,
      });
    }
  });

  it('refuses a second connection to a call, which goes on undisturbed', async () => {
    const { server, assistantId } = await start();
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    const token = new URL(call.webCallUrl!).searchParams.get('token')!;
    const second = await CallClient.connect(call.webCallUrl!);
    await second.whenClosed();
    expect(second.closeCode).toBe(4409);
    expect(second.find('error')?.error).toBe(
      'This call link was already used: the call is connected elsewhere, or over.',
    );
    await client.heard('Hello Sam,');
    expect((await server.client().call.get(call.id)).status).toBe('in-progress');
    await client.close();
    // The call link's token is a secret: both connections were logged, the token never.
    expect(server.logs.join('')).toContain(`/ws/call/${call.id}?token=[redacted]`);
    expect(server.logs.join('')).not.toContain(token);
  });

  it('refuses an expired link and a wrong token, and leaves the call queued', async () => {
    let clock = Date.now();
    const { server, assistantId } = await start({ now: () => new Date(clock) });
    const call = await server.client().call.createWeb({ assistantId });
    clock += 61_000;
    const late = await CallClient.connect(call.webCallUrl!);
    await late.whenClosed();
    expect(late.closeCode).toBe(4410);
    expect(late.find('error')?.error).toBe(
      'This call link has expired (links work for 60 seconds). Start the call again.',
    );

    const wrong = await CallClient.connect(call.webCallUrl!.replace(/token=[^&]+/, 'token=forged'));
    await wrong.whenClosed();
    expect(wrong.closeCode).toBe(4401);
    expect((await server.client().call.get(call.id)).status).toBe('queued');
  });

  it('ends a call whose connection drops as customer-ended-call, with what was said so far', async () => {
    const { server, assistantId } = await start();
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);
    const from = client.messages.length;
    await client.speak(await spokenLine('where is the pharmacy'));
    await client.heard('pharmacy', from);
    // Let the caller hear the start of the answer, then lose the connection.
    const heardBefore = client.audioMs();
    await client.waitFor(
      () => client.audioMs() > heardBefore + 1500,
      10_000,
      'a second and a half of the answer',
    );
    client.drop();
    const record = await endedRecord(server, call.id);
    expect(record.endedReason).toBe('customer-ended-call');
    expect(record.messages?.map((m) => m.role)).toEqual(['bot', 'user', 'bot']);
    expect(record.transcript).toMatch(/^AI: Hello Sam/);
  });

  it('ends every live call as server-shutdown when the server stops, telling the callers', async () => {
    const { server, assistantId } = await start();
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await client.waitFor(() => client.audioMs() > 2000, 10_000, 'two seconds of the greeting');
    await server.close();
    started.pop();
    await client.whenClosed();
    expect(client.find('status-update', (m) => m.status === 'ended')?.endedReason).toBe(
      'server-shutdown',
    );
    const restarted = await startTestServer({ dataDir: server.dataDir });
    started.push(restarted);
    const record = await restarted.client(server.privateKey).call.get(call.id);
    expect(record).toMatchObject({ status: 'ended', endedReason: 'server-shutdown' });
    expect(record.messages?.[0]?.role).toBe('bot');
  });
});
