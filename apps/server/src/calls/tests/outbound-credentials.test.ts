import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AssistantDto } from '@talkbooth/protocol';
import { failure } from '../../test-support/platform-failure.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { endedRecord, startCall, untilAssistantStops } from '../../test-support/calls.js';
import type { CallClient } from '../../test-support/call-client.js';

// Calls run in real time (a greeting, then one reply).
vi.setConfig({ testTimeout: 90_000 });

const SECRET = 'sk-custom-llm-SECRET-4242-never-leaves';

interface SeenRequest {
  path: string;
  authorization: string | undefined;
}

/**
 * A local stand-in for an OpenAI-compatible endpoint (the chat-completions wire format, a
 * whole JSON answer): it records every request it gets, with its Authorization header.
 */
async function completionsStub(answer: string) {
  const seen: SeenRequest[] = [];
  const stub = http.createServer((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          choices: [
            { index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
  return { url, seen, close: () => new Promise((resolve) => stub.close(resolve)) };
}

const stubs: { close: () => Promise<unknown> }[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function setUp(env: Record<string, string> = {}) {
  const server = await startTestServer({ env });
  servers.push(server);
  const stub = await completionsStub('We open at eight.');
  stubs.push(stub);
  await server.client().credential.create({ provider: 'custom-llm', apiKey: SECRET });
  return { server, stub };
}

const customLlm = (url: string): AssistantDto => ({
  firstMessage: 'Hello.',
  model: { provider: 'custom-llm', model: 'stub-model', url },
});

/** Says one line to the assistant as text (add-message) once it has finished greeting. */
async function askOnce(client: CallClient, line: string): Promise<void> {
  await client.heard('Hello.');
  await untilAssistantStops(client, 0);
  client.sendJson({ type: 'add-message', message: { role: 'user', content: line } });
}

describe('where a call sends its model requests (local stubs of the chat-completions protocol)', () => {
  it('refuses a custom-llm endpoint on a private address unless the operator allows it', async () => {
    const { server, stub } = await setUp();
    const assistant = await server.client().assistant.create(customLlm(stub.url));
    const { call, client } = await startCall(server, { assistantId: assistant.id });
    await askOnce(client, 'when are you open');
    // The local engine answers instead (this assistant has no knowledge base).
    await client.waitFor(() => client.json().some((m) => m.type === 'model-output'), 20_000);
    await client.close();
    const record = await endedRecord(server, call.id);
    expect(stub.seen).toEqual([]);
    expect(record.providers).toMatchObject({
      model: {
        requested: 'custom-llm',
        used: 'local',
        reason: expect.stringContaining(
          '127.0.0.1 is a loopback address; this server does not send requests to private networks',
        ),
      },
    });
  });

  it("sends the organisation's key to the stored assistant's own URL", async () => {
    const { server, stub } = await setUp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    const assistant = await server.client().assistant.create(customLlm(stub.url));
    const { call, client } = await startCall(server, { assistantId: assistant.id });
    await askOnce(client, 'when are you open');
    await client.heard('open at eight', 0, 20_000);
    await client.close();
    expect(stub.seen).toEqual([
      { path: '/v1/chat/completions', authorization: `Bearer ${SECRET}` },
    ]);
    expect((await endedRecord(server, call.id)).providers).toMatchObject({
      model: { requested: 'custom-llm', used: 'custom-llm' },
    });
  });

  it('never sends the key to a URL that came with the call, even with the private key', async () => {
    const { server, stub } = await setUp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    const stored = await server.client().assistant.create(customLlm(stub.url));
    const elsewhere = await completionsStub('We open at eight.');
    stubs.push(elsewhere);

    // An inline assistant, and an override of a stored one: both name another endpoint.
    for (const body of [
      { assistant: customLlm(elsewhere.url) },
      {
        assistantId: stored.id,
        assistantOverrides: {
          model: { provider: 'custom-llm' as const, model: 'stub-model', url: elsewhere.url },
        },
      },
    ]) {
      const { call, client } = await startCall(server, body);
      await askOnce(client, 'when are you open');
      await client.heard('open at eight', 0, 20_000);
      await client.close();
      expect((await endedRecord(server, call.id)).providers).toMatchObject({
        model: {
          used: 'custom-llm',
          note: expect.stringContaining('the custom-llm key was not sent'),
        },
      });
    }
    expect(elsewhere.seen).toEqual([
      { path: '/v1/chat/completions', authorization: undefined },
      { path: '/v1/chat/completions', authorization: undefined },
    ]);
    expect(stub.seen).toEqual([]);
    expect(server.logs.join('')).not.toContain(SECRET);
  });

  it('refuses, with only the public key, to let a call choose its endpoint; nothing is sent, nothing leaks', async () => {
    const { server, stub } = await setUp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    const stored = await server.client().assistant.create({ firstMessage: 'Hello.' });
    const visitor = server.client(server.publicKey);

    const inline = await failure(visitor.call.createWeb({ assistant: customLlm(stub.url) }));
    expect(inline.status).toBe(403);
    expect(inline.apiError?.message).toBe(
      'A public key cannot start a call with an inline assistant (assistant). Create the assistant with your private key and start calls with its assistantId.',
    );
    expect(Object.keys(inline.apiError?.fields ?? {})).toEqual(['assistant']);

    const override = await failure(
      visitor.call.createWeb({
        assistantId: stored.id,
        assistantOverrides: {
          model: { provider: 'custom-llm', model: 'stub-model', url: stub.url },
        },
      }),
    );
    expect(override.status).toBe(403);
    expect(Object.keys(override.apiError?.fields ?? {})).toEqual(['assistantOverrides.model']);
    expect(override.apiError?.message).toMatch(
      /^A public key may not set assistantOverrides\.model\. With a public key a call may set only assistantOverrides\.variableValues, /,
    );

    expect(stub.seen).toEqual([]);
    expect(JSON.stringify([inline.apiError, override.apiError])).not.toContain(SECRET);
    expect(server.logs.join('')).not.toContain(SECRET);
    // No call was stored for either attempt.
    expect(await server.client().call.list()).toEqual([]);
  });
});
