import net from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlatformClient } from '@talkbooth/platform-client';
import { CallClient } from './test-support/call-client.js';
import { killMainProcesses, startMain, type MainProcess } from './test-support/main-process.js';

// Each test starts the built server as its own process (twice for the crash), with calls.
vi.setConfig({ testTimeout: 120_000 });

afterEach(killMainProcesses);

const PRIVATE_KEY = 'sk_crash_test_private_key_0123456789';
const BOOTH = {
  transcriber: { provider: 'deepgram' as const, model: 'nova-2', language: 'en-US' },
  recordingEnabled: false,
  variableValues: { name: 'Sam' },
};

async function platformOf(server: MainProcess) {
  const [, baseUrl] = await server.waitFor(/Talkbooth is running at (http:\/\/\S+)/);
  const port = new URL(baseUrl!).port;
  const client = new PlatformClient({
    token: PRIVATE_KEY,
    baseUrl: `http://127.0.0.1:${port}/platform`,
  });
  const [demo] = await client.assistant.list();
  return { client, port, assistantId: demo!.id };
}

/** Opens a call and waits until its greeting is in the call record. */
async function callWithGreeting(client: PlatformClient, assistantId: string) {
  const call = await client.call.createWeb({ assistantId, assistantOverrides: BOOTH });
  const caller = await CallClient.connect(call.webCallUrl!);
  await caller.waitFor(() => caller.messages.some((m) => m.message === 'listening'));
  caller.startMicrophone();
  await caller.heard('Hello Sam,');
  const deadline = Date.now() + 20_000;
  while (((await client.call.get(call.id)).messages?.length ?? 0) === 0) {
    if (Date.now() > deadline) throw new Error('the greeting was never written to the record');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { call, caller };
}

describe('after a crash (kill -9), a restart on the same database', () => {
  it('ends the calls nobody serves any more, keeping what was said, with a reason', async () => {
    const env = { PLATFORM_PRIVATE_KEY: PRIVATE_KEY, CALL_LEASE_SECONDS: '2', LOG_LEVEL: 'warn' };
    const first = startMain(env);
    const { client, assistantId } = await platformOf(first);
    const { call: live, caller } = await callWithGreeting(client, assistantId);
    const unopened = await client.call.createWeb({ assistantId });

    first.child.kill('SIGKILL');
    await first.exited;
    caller.drop();
    const database = new SQLite(path.join(first.dataDir, 'talkbooth.db'));
    const before = database.prepare('select status from calls where id = ?');
    expect(before.get(live.id)).toEqual({ status: 'in-progress' });
    expect(before.get(unopened.id)).toEqual({ status: 'queued' });
    // The unopened call's link expired long ago (as if the restart came minutes later).
    database
      .prepare("update calls set created_at = '2026-01-01T00:00:00.000Z' where id = ?")
      .run(unopened.id);
    database.close();

    const second = startMain(env, first.dataDir);
    const { client: again } = await platformOf(second);
    const deadline = Date.now() + 30_000;
    let crashed = await again.call.get(live.id);
    while (crashed.status !== 'ended') {
      if (Date.now() > deadline) throw new Error(`still ${crashed.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      crashed = await again.call.get(live.id);
    }
    expect(crashed).toMatchObject({
      status: 'ended',
      endedReason: 'server-crashed',
      endedDetail: expect.stringContaining('stopped without ending it'),
      endedAt: expect.any(String),
    });
    expect(crashed.messages?.[0]).toMatchObject({
      role: 'bot',
      message: expect.stringContaining('Hello Sam'),
    });
    expect(crashed.transcript).toMatch(/^AI: Hello Sam/);
    expect(await again.call.get(unopened.id)).toMatchObject({
      status: 'ended',
      endedReason: 'call-start-timeout',
    });
    expect((await again.metrics.get()).callActive).toBe(0);
  });
});

describe('shutting down (SIGTERM)', () => {
  it('tells live callers, ends their records, and exits within the grace time even if a request hangs', async () => {
    const server = startMain({
      PLATFORM_PRIVATE_KEY: PRIVATE_KEY,
      SHUTDOWN_GRACE_SECONDS: '3',
      LOG_LEVEL: 'warn',
    });
    const { client, port, assistantId } = await platformOf(server);
    const { call, caller } = await callWithGreeting(client, assistantId);

    // A request whose body never finishes arriving: closing the server waits for it.
    const stalled = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => stalled.once('connect', () => resolve()));
    stalled.on('error', () => undefined);
    // Asking for "100 Continue" tells us when the server has the request: without waiting,
    // SIGTERM could arrive before it did, and an idle socket does not hold the close up.
    const received = new Promise<void>((resolve) =>
      stalled.on('data', (data: Buffer) => {
        if (data.toString().includes('100 Continue')) resolve();
      }),
    );
    stalled.write(
      'POST /api/feedback HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n',
    );
    await received;
    stalled.write('{"mess');

    server.child.kill('SIGTERM');
    await caller.whenClosed();
    expect(caller.find('status-update', (m) => m.status === 'ended')?.endedReason).toBe(
      'server-shutdown',
    );
    // Exits on its own, at the grace time, saying why (exit code 1: it was forced).
    expect(await server.exited).toBe(1);
    stalled.destroy();
    expect(server.output().stdout + server.output().stderr).toContain(
      'shutdown did not finish within its grace time (SHUTDOWN_GRACE_SECONDS); exiting anyway',
    );
    const database = new SQLite(path.join(server.dataDir, 'talkbooth.db'), { readonly: true });
    const row = database
      .prepare('select status, ended_reason, data from calls where id = ?')
      .get(call.id) as { status: string; ended_reason: string; data: string };
    database.close();
    expect(row).toMatchObject({ status: 'ended', ended_reason: 'server-shutdown' });
    expect((JSON.parse(row.data) as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
  });

  it('exits 0 at once when nothing hangs', async () => {
    const server = startMain({ PLATFORM_PRIVATE_KEY: PRIVATE_KEY, SHUTDOWN_GRACE_SECONDS: '60' });
    await platformOf(server);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
