import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeWav, encodeWav } from '@talkbooth/voice';
import { openDatabase } from '../../db/open-database.js';
import { CallRepository } from '../../db/repositories/calls.js';
import { loadMasterKey } from '../../security/master-key.js';
import { SecretBox } from '../../security/secret-box.js';
import { spokenLine } from '../../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import {
  endedRecord,
  recordWhere,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';

// Real-time calls: each test holds a conversation of many seconds.
vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
beforeAll(async () => {
  // The endpoint stubs listen on this machine: let the server reach private addresses.
  server = await startTestServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await server.close();
});

/**
 * A local stub that speaks the OpenAI chat-completions streaming protocol (server-sent
 * events of `chat.completion.chunk`), sending its tokens slowly.
 */
async function slowCompletionsStub(tokens: string[], gapMs: number) {
  const sent: { token: string; at: number }[] = [];
  const requests: unknown[] = [];
  const stub = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', async () => {
      requests.push(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const token of tokens) {
        const chunk = {
          id: 'chatcmpl-stub',
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content: token }, finish_reason: null }],
        };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        sent.push({ token, at: performance.now() });
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      response.write('data: [DONE]\n\n');
      response.end();
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
  return { url, sent, requests, close: () => new Promise((resolve) => stub.close(resolve)) };
}

describe('a call whose model is an OpenAI-compatible endpoint (local stub of the OpenAI streaming protocol)', () => {
  it('speaks the first sentence before the last token has arrived', async () => {
    const stub = await slowCompletionsStub(
      ['Sure', ', we open', ' at eight.', ' On Saturday', ' we open at nine', ' and close at one.'],
      700,
    );
    try {
      const { call, client } = await startCall(server, {
        assistant: {
          firstMessage: 'Hello.',
          model: {
            provider: 'custom-llm',
            model: 'stub-model',
            url: stub.url,
            messages: [{ role: 'system', content: 'Be brief.' }],
          },
        },
      });
      await client.heard('Hello.');
      await untilAssistantStops(client, 0);
      const from = client.messages.length;
      await client.speak(await spokenLine('when are you open'));
      const first = await client.waitFor(
        () =>
          client.messages
            .slice(from)
            .find(
              (m) =>
                typeof m.message !== 'string' &&
                m.message.type === 'transcript' &&
                m.message.role === 'assistant',
            ),
        20_000,
        'the first spoken sentence',
      );
      const firstAudio = client.audio.find((chunk) => chunk.at >= first.at - 50);
      await client.heard('close at one', from, 20_000);
      const lastToken = stub.sent[stub.sent.length - 1]!.at;
      expect(first.message).toMatchObject({ transcript: 'Sure, we open at eight.' });
      expect(first.at).toBeLessThan(lastToken);
      expect(firstAudio).toBeDefined();
      expect(firstAudio!.at).toBeLessThan(lastToken);
      const request = stub.requests[0] as {
        stream: boolean;
        model: string;
        messages: { role: string }[];
      };
      expect(request).toMatchObject({ stream: true, model: 'stub-model' });
      expect(request.messages[0]).toMatchObject({ role: 'system', content: 'Be brief.' });
      await client.close();
      expect((await endedRecord(server, call.id)).providers).toMatchObject({
        model: { requested: 'custom-llm', used: 'custom-llm' },
      });
    } finally {
      await stub.close();
    }
  });

  it('falls back to the local engine when the endpoint fails, and records why', async () => {
    const { call, client } = await startCall(server, {
      assistant: {
        firstMessage: 'Hello.',
        model: {
          provider: 'custom-llm',
          model: 'gone',
          url: 'http://127.0.0.1:9/v1',
          knowledge: [
            {
              id: 'hours',
              questions: ['when are you open'],
              answer: 'We open at eight every weekday.',
            },
          ],
        },
      },
    });
    await client.heard('Hello.');
    await untilAssistantStops(client, 0);
    const from = client.messages.length;
    await client.speak(await spokenLine('when are you open'));
    await client.heard('open at eight', from, 20_000);
    await client.close();
    const record = await endedRecord(server, call.id);
    expect(record.providers).toMatchObject({
      model: { requested: 'custom-llm', used: 'local', reason: expect.any(String) },
    });
  });
});

describe('call recordings', () => {
  it('stores the call as a WAV when recordingEnabled, served to the private key only', async () => {
    const { call, client } = await startCall(server, {
      assistant: {
        firstMessage: 'This call is recorded.',
        recordingEnabled: true,
        model: { provider: 'local', model: 'kb' },
      },
    });
    await client.heard('recorded');
    await untilAssistantStops(client, 0);
    await client.close();
    const record = await endedRecord(server, call.id);
    const withUrl = await recordWhere(
      server,
      call.id,
      (c) => c.recordingUrl !== undefined,
      'the recording',
    );
    expect(withUrl.recordingUrl).toBe(`${server.baseUrl}/platform/call/${call.id}/recording`);
    expect(record.status).toBe('ended');

    const response = await fetch(withUrl.recordingUrl!, {
      headers: { authorization: `Bearer ${server.privateKey}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = decodeWav(Buffer.from(await response.arrayBuffer()));
    expect(wav.sampleRate).toBe(16_000);
    expect(wav.samples.length / 16_000).toBeGreaterThan(1);

    const denied = await fetch(withUrl.recordingUrl!, {
      headers: { authorization: `Bearer ${server.publicKey}` },
    });
    expect(denied.status).toBe(403);
    const anonymous = await fetch(withUrl.recordingUrl!);
    expect(anonymous.status).toBe(401);

    // Kept in the database, where every server process can read it; no file is written.
    expect(await server.db.count('call_recordings', 'call_id = ?', call.id)).toBe(1);
    expect(fs.existsSync(path.join(server.dataDir, 'recordings'))).toBe(false);
  });

  it('still serves a recording an older version left as a file in the data folder', async () => {
    const call = await server.client().call.createWeb({
      assistant: { firstMessage: 'Hello.', model: { provider: 'local', model: 'kb' } },
    });
    const url = `${server.baseUrl}/platform/call/${call.id}/recording`;
    const db = openDatabase(server.db.url);
    try {
      const calls = new CallRepository(db, new SecretBox(loadMasterKey(undefined, server.dataDir)));
      await calls.update(call.id, { status: 'ended' }, { recordingUrl: url }, new Date());
    } finally {
      await db.destroy();
    }
    const folder = path.join(server.dataDir, 'recordings');
    fs.mkdirSync(folder, { recursive: true });
    const legacy = encodeWav({ samples: new Int16Array(16_000).fill(1200), sampleRate: 16_000 });
    fs.writeFileSync(path.join(folder, `${call.id}.wav`), legacy);

    const response = await fetch(url, {
      headers: { authorization: `Bearer ${server.privateKey}` },
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(legacy)).toBe(true);
    fs.rmSync(folder, { recursive: true });
  });
});
