import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_SAMPLES } from '@talkbooth/voice';
import { CallClient } from '../../test-support/call-client.js';
import { failure } from '../../test-support/platform-failure.js';
import { spokenLine } from '../../test-support/speech-audio.js';
import {
  serversClosedAfterEachTest,
  type TestServerOptions,
} from '../../test-support/test-server.js';
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  recordWhere,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';

// Real-time calls: each test holds a conversation of several seconds.
vi.setConfig({ testTimeout: 120_000 });

const startServer = serversClosedAfterEachTest();
const clients: CallClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.drop();
});
async function start(options?: TestServerOptions) {
  const server = await startServer(options);
  return { server, assistantId: await demoAssistantId(server) };
}

describe('how many calls at once (real server)', () => {
  it('answers 429 with a readable message past MAX_LIVE_CALLS and the per-address cap, and frees a place when a call ends', async () => {
    const { server, assistantId } = await start({
      env: { MAX_LIVE_CALLS: '2', MAX_LIVE_CALLS_PER_ADDRESS: '1' },
    });
    const visitor = server.client(server.publicKey);
    const first = await visitor.call.createWeb({ assistantId });

    // The same address again, with the public key: over the per-address cap.
    const sameAddress = await failure(visitor.call.createWeb({ assistantId }));
    expect(sameAddress.status).toBe(429);
    expect(sameAddress.apiError?.message).toBe(
      'Your network already has a call open, the most allowed at once. End it, or try again in a minute.',
    );

    // The operator's own server (private key) is not counted per address, only in all.
    await server.client().call.createWeb({ assistantId });
    const full = await fetch(`${server.baseUrl}/platform/call/web`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.privateKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId }),
    });
    expect(full.status).toBe(429);
    expect(full.headers.get('retry-after')).toBe('60');
    expect(await full.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message:
        'All lines are busy (this server takes 2 calls at a time). Please try again in a minute.',
    });
    const ready = await server.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({
      status: 'not-ready',
      checks: { calls: 'failing: All 2 call places are taken (MAX_LIVE_CALLS).' },
    });

    // The visitor's call runs and ends: its place is free again.
    const client = await CallClient.connect(first.webCallUrl!);
    clients.push(client);
    await client.waitFor(() => client.messages.some((m) => m.message === 'listening'));
    await client.close();
    await endedRecord(server, first.id);
    expect((await visitor.call.createWeb({ assistantId })).status).toBe('queued');
  });

  it('gives the decoders of ended calls back: the pools shrink to their spares when idle', async () => {
    const { server, assistantId } = await start({ voice: { idleTrimMs: 300 } });
    const calls = await Promise.all(
      [0, 1, 2].map(() =>
        startCall(
          server,
          { assistantId, assistantOverrides: BOOTH_OVERRIDES },
          { microphone: false },
        ),
      ),
    );
    for (const { client } of calls) clients.push(client);
    for (const { client } of calls) await client.heard('Hello Sam,');
    // Three calls, each with a domain decoder of its own, a spare for the next, and the
    // general decoders the recognition threads lend per utterance.
    await waitUntil(async () => (await server.engines.decoderCount()) >= 4, 'four decoders');
    for (const { client, call } of calls) {
      await client.close();
      await endedRecord(server, call.id);
    }
    // One spare domain decoder for the whole pool of threads, and a spare general decoder
    // on each thread (one per core).
    const spares = 1 + availableParallelism();
    await waitUntil(
      async () => (await server.engines.decoderCount()) === spares,
      'the spares left',
    );
  });
});

describe('a caller that does not behave like a microphone (real server)', () => {
  it('ends a call whose client sends audio 10× faster than real time; a real-time caller next to it is answered as usual', async () => {
    const { server, assistantId } = await start();
    const { call: calm, client: caller } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    clients.push(caller);
    await caller.heard('Hello Sam,');
    await untilAssistantStops(caller, 0);

    const { call: flood, client: flooder } = await startCall(
      server,
      { assistantId, assistantOverrides: BOOTH_OVERRIDES },
      { microphone: false },
    );
    clients.push(flooder);
    flooder.sendJson({ type: 'playable' });
    const line = await spokenLine('where is the pharmacy');
    const frames: Buffer[] = [];
    for (let offset = 0; offset + FRAME_SAMPLES <= line.length; offset += FRAME_SAMPLES)
      frames.push(Buffer.from(line.slice(offset, offset + FRAME_SAMPLES).buffer));
    // Ten frames every 20 ms (10× real time), until the server ends the call.
    let sent = 0;
    const floodTimer = setInterval(() => {
      for (let i = 0; i < 10 && flooder.closeCode === null; i += 1)
        flooder.socket.send(frames[sent++ % frames.length]!);
    }, 20);

    const from = caller.messages.length;
    await caller.speak(line);
    await caller.heard('pharmacy', from);
    await flooder.whenClosed();
    clearInterval(floodTimer);

    const flooded = await endedRecord(server, flood.id);
    expect(flooded.endedReason).toBe('customer-sent-audio-too-fast');
    expect(flooded.endedDetail).toMatch(
      /^This client sent audio faster than real time \(\d+\.\d s more than a microphone makes\), so the call was ended\. Send one 20 ms frame every 20 ms\.$/,
    );
    expect(flooder.find('error')?.error).toBe(flooded.endedDetail);
    // It was stopped within seconds, not after everything it sent was processed.
    expect(sent * 20).toBeLessThan(30_000);

    // The real-time caller's turn: answered, in its usual time (~0.3–0.6 s on this machine;
    // the flood used to stall it by 4–5 s).
    const record = await recordWhere(
      server,
      calm.id,
      (c) => ((c.latency as { turns?: unknown[] } | undefined)?.turns?.length ?? 0) > 0,
      'the turn latency',
    );
    const [turn] = (record.latency as { turns: { voiceToVoiceMs: number }[] }).turns;
    expect(turn!.voiceToVoiceMs).toBeLessThan(2000);
    expect(record.status).toBe('in-progress');
  });

  it('ends a call whose client sends a message over the 64 KiB limit, recording why', async () => {
    const { server, assistantId } = await start();
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    clients.push(client);
    await client.heard('Hello Sam,');
    await recordWhere(server, call.id, (c) => (c.messages?.length ?? 0) > 0, 'the greeting');
    client.stopMic();
    client.socket.send(Buffer.alloc(70 * 1024));
    await client.whenClosed();
    expect(client.closeCode).toBe(1009);
    const record = await endedRecord(server, call.id);
    expect(record).toMatchObject({
      endedReason: 'customer-sent-invalid-data',
      endedDetail:
        "A message was larger than the socket's 64 KiB limit; the connection was closed. Send audio as 20 ms frames (640 bytes).",
    });
    expect(record.messages?.[0]).toMatchObject({ role: 'bot' });
  });
});

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
