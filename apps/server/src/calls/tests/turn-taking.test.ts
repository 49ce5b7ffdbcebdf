import { rmsDbfs } from '@talkbooth/voice';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import demo from '../../db/seed/demo-clinic.json' with { type: 'json' };
import { spokenLine } from '../../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  recordWhere,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';

// Real-time calls: each test holds a conversation of many seconds.
vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let assistantId: string;
beforeAll(async () => {
  server = await startTestServer();
  assistantId = await demoAssistantId(server);
});
afterAll(async () => {
  await server.close();
});

const greeting = demo.assistant.firstMessage.replace('{{name}}', 'Sam');

/** Where speech starts in a line: the first 20 ms well above the noise floor. */
function speechOnsetMs(samples: Int16Array): number {
  for (let offset = 0; offset + 320 <= samples.length; offset += 320) {
    if (rmsDbfs(samples.subarray(offset, offset + 320)) > -40) return offset / 16;
  }
  return 0;
}

describe('turn-taking on a live call (real server, real engines, real-time audio)', () => {
  it('stops talking within 200 ms when the caller talks over it, and keeps only what was heard', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    // Let the long greeting play for a while, then talk over it.
    await client.waitFor(
      () => client.audioMs() > 2500,
      20_000,
      'two and a half seconds of greeting',
    );
    const line = await spokenLine('where is the pharmacy');
    const from = client.messages.length;
    const spokeAt = performance.now();
    const speaking = client.speak(line);
    const clear = await client.waitFor(
      () =>
        client.messages
          .slice(from)
          .find((m) => typeof m.message !== 'string' && m.message.type === 'clear'),
      5000,
      'clear',
    );
    // From the first sound of the caller's voice to the client being told to drop the audio.
    expect(clear.at - (spokeAt + speechOnsetMs(line))).toBeLessThan(200);
    await speaking;
    await client.heard('pharmacy is on the ground floor', from);
    await untilAssistantStops(client, from);

    const record = await recordWhere(
      server,
      call.id,
      (c) => (c.messages ?? []).length >= 3,
      'the turns in the record',
    );
    const [first] = record.messages ?? [];
    expect(first?.role).toBe('bot');
    // Cut to what was played: a start of the greeting, not all of it.
    const heard = first?.message ?? '';
    expect(heard).not.toBe('');
    expect(greeting.startsWith(heard.replace(/\.$/, ''))).toBe(true);
    expect(heard.length).toBeLessThan(greeting.length);
    await client.close();
  });

  it('does not take its own voice, coming back 20 dB down through the microphone, for the caller', async () => {
    const { call, client } = await startCall(
      server,
      { assistantId, assistantOverrides: BOOTH_OVERRIDES },
      { echoDb: -20 },
    );
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0, 40_000);
    expect(client.find('clear')).toBeUndefined();
    expect(client.find('speech-update', (m) => m.role === 'user')).toBeUndefined();
    const record = await recordWhere(
      server,
      call.id,
      (c) => (c.messages ?? []).length > 0,
      'the greeting in the record',
    );
    expect(record.messages?.[0]?.message).toBe(greeting);
    await client.close();
  });

  it('ends a call nobody speaks in after silenceTimeoutSeconds', async () => {
    const { call, client } = await startCall(server, {
      assistant: {
        firstMessage: 'Hi.',
        silenceTimeoutSeconds: 10,
        model: { provider: 'local', model: 'kb' },
      },
    });
    const started = performance.now();
    const status = await client.waitFor(
      () => client.find('status-update', (m) => m.status === 'ended'),
      20_000,
      'the end',
    );
    expect(status.endedReason).toBe('silence-timed-out');
    expect(performance.now() - started).toBeGreaterThan(9_500);
    await client.whenClosed();
    expect((await endedRecord(server, call.id)).endedReason).toBe('silence-timed-out');
  });

  it('ends a call that runs past maxDurationSeconds', async () => {
    const { call, client } = await startCall(server, {
      assistant: {
        firstMessage:
          'Let me tell you about our opening hours, our address, our parking, our prices and everything else we do, at some length.',
        maxDurationSeconds: 10,
        silenceTimeoutSeconds: 60,
        model: { provider: 'local', model: 'kb' },
      },
    });
    const started = performance.now();
    const status = await client.waitFor(
      () => client.find('status-update', (m) => m.status === 'ended'),
      20_000,
      'the end',
    );
    expect(status.endedReason).toBe('exceeded-max-duration');
    expect(performance.now() - started).toBeGreaterThan(9_500);
    expect((await endedRecord(server, call.id)).endedReason).toBe('exceeded-max-duration');
  });

  it('obeys the controls: say, mute and unmute, add-message, end-call', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);

    let from = client.messages.length;
    client.sendJson({ type: 'control', control: 'mute-assistant' });
    const before = client.audioMs();
    client.sendJson({ type: 'say', message: 'This is a muted announcement.' });
    await client.heard('muted announcement', from);
    await untilAssistantStops(client, from);
    expect(client.audioMs() - before).toBeLessThan(50);

    from = client.messages.length;
    client.sendJson({ type: 'control', control: 'unmute-assistant' });
    client.sendJson({ type: 'say', message: 'And now you can hear me.' });
    await client.heard('now you can hear me', from);
    await untilAssistantStops(client, from);
    expect(client.audioMs() - before).toBeGreaterThan(800);

    from = client.messages.length;
    client.sendJson({
      type: 'add-message',
      message: { role: 'user', content: 'where is the pharmacy' },
    });
    await client.heard('pharmacy is on the ground floor', from);
    await untilAssistantStops(client, from);

    client.sendJson({ type: 'control', control: 'end-call' });
    await client.whenClosed();
    const record = await endedRecord(server, call.id);
    expect(record.endedReason).toBe('customer-ended-call');
    expect(record.transcript).toContain('This is a muted announcement.');
    expect(record.transcript).toContain('User: where is the pharmacy');
  });

  it('ends the call after a say with endCallAfterSpoken', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    client.sendJson({ type: 'say', message: 'We are closing now.', endCallAfterSpoken: true });
    await client.waitFor(() => client.find('hang'), 20_000, 'hang');
    await client.whenClosed();
    expect((await endedRecord(server, call.id)).endedReason).toBe('assistant-ended-call');
  });

  it('takes live-call control through the platform API: say, add-message, end-call as manually-canceled', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);
    const api = server.client();

    let from = client.messages.length;
    expect(
      await api.call.control(call.id, { type: 'say', content: 'A word from the front desk.' }),
    ).toEqual({
      id: call.id,
      type: 'say',
      status: 'sent',
    });
    await client.heard('word from the front desk', from);
    await untilAssistantStops(client, from);

    from = client.messages.length;
    await api.call.control(call.id, {
      type: 'add-message',
      message: { role: 'user', content: 'where is the pharmacy' },
    });
    await client.heard('pharmacy is on the ground floor', from);
    await untilAssistantStops(client, from);

    // A control the schema does not know is refused with the list of those it does.
    const unknown = await server.post(
      `/platform/call/${call.id}/control`,
      { type: 'transfer' },
      { authorization: `Bearer ${server.privateKey}` },
    );
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain('use say, add-message, control or end-call');

    await api.call.control(call.id, { type: 'end-call' });
    await client.whenClosed();
    const record = await endedRecord(server, call.id);
    expect(record.endedReason).toBe('manually-canceled');
    expect(record.transcript).toContain('A word from the front desk.');

    // Nothing to control once it is over, or for a call that does not exist.
    const over = await server.post(
      `/platform/call/${call.id}/control`,
      { type: 'end-call' },
      { authorization: `Bearer ${server.privateKey}` },
    );
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({
      message: expect.stringContaining('is not live (its status is ended)'),
    });
    const missing = await server.post(
      '/platform/call/no-such-call/control',
      { type: 'end-call' },
      { authorization: `Bearer ${server.privateKey}` },
    );
    expect(missing.status).toBe(404);
  });
});
