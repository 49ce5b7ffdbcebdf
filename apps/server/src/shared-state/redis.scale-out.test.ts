import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import demo from '../db/seed/demo-clinic.json' with { type: 'json' };
import { SHARED_STORE_MESSAGE } from '../scale-out/messages.js';
import { CallClient } from '../test-support/call-client.js';
import { endedRecord, untilAssistantStops } from '../test-support/calls.js';
import { spokenLine } from '../test-support/speech-audio.js';
import { RATE_LIMIT_UNAVAILABLE } from './rate-limit-store.js';
import { freePort, waitForPort } from '../test-support/ports.js';
import { startRedis } from '../test-support/private-redis.js';
import { DEMO_CODE, startTestServer, type TestServer } from '../test-support/test-server.js';

// Scale-out project only: servers that share PostgreSQL and Redis. One test holds a real call.
vi.setConfig({ testTimeout: 60_000 });
const started: TestServer[] = [];
const redisServers: ChildProcess[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
  for (const redis of redisServers.splice(0)) redis.kill('SIGKILL');
});

const start = async (...args: Parameters<typeof startTestServer>) => {
  const server = await startTestServer(...args);
  started.push(server);
  return server;
};
const check = (server: TestServer, unicode: string, client: string) =>
  server.post('/api/get-assistant', { unicode }, { 'x-forwarded-for': client });

describe('what server replicas share through Redis', () => {
  it('holds a rate limit spent on one replica on the other', async () => {
    const options = {
      env: { TRUST_PROXY: 'true' },
      guessLimit: { max: 3, timeWindowMs: 15 * 60 * 1000 },
    };
    const one = await start(options);
    // A second replica: the same database, the same Redis keys, the same secret key.
    const two = await start({ ...options, dataDir: one.dataDir });
    const guesser = '198.51.100.20';
    for (let i = 0; i < 3; i += 1) {
      const replica = i % 2 === 0 ? one : two;
      expect((await check(replica, `wrong-${i}`, guesser)).json).toEqual([]);
    }
    for (const replica of [one, two]) {
      const blocked = await check(replica, DEMO_CODE, guesser);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    }
    // Someone else is not affected, on either replica.
    expect((await check(two, DEMO_CODE, '198.51.100.21')).status).toBe(200);
  });

  it('answers 503 with a clear message while Redis is away, says so in /readyz, and recovers', async () => {
    const port = await freePort();
    redisServers.push(startRedis(port));
    await waitForPort(port);
    const server = await start({
      env: { TRUST_PROXY: 'true', REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    expect((await check(server, DEMO_CODE, '198.51.100.30')).status).toBe(200);

    redisServers.pop()!.kill('SIGKILL');
    await expect.poll(async () => (await server.get('/readyz')).status).toBe(503);
    const ready = await server.get('/readyz');
    expect(ready.json).toMatchObject({
      status: 'not-ready',
      checks: { redis: expect.stringMatching(/^failing: /), database: 'ok (PostgreSQL)' },
    });
    const refused = await check(server, DEMO_CODE, '198.51.100.30');
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: RATE_LIMIT_UNAVAILABLE,
    });
    // What does not need Redis still works.
    expect((await server.get('/healthz')).status).toBe(200);

    redisServers.push(startRedis(port));
    await expect
      .poll(async () => (await check(server, DEMO_CODE, '198.51.100.30')).status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(200);
    expect((await server.get('/readyz')).status).toBe(200);
  });

  it('refuses new calls with a clear 503 while the worker registry (Redis) is away, and lets live calls finish', async () => {
    const port = await freePort();
    redisServers.push(startRedis(port));
    await waitForPort(port);
    const redis = { REDIS_URL: `redis://127.0.0.1:${port}` };
    const api = await start({ env: { ROLE: 'api', ...redis } });
    const workerPort = await freePort();
    await start({
      dataDir: api.dataDir,
      port: workerPort,
      env: { ROLE: 'voice', WORKER_URL: `http://127.0.0.1:${workerPort}`, ...redis },
    });
    const [assistant] = await api.client().assistant.list();
    const created = await api.client().call.createWeb({
      assistantId: assistant!.id,
      assistantOverrides: { variableValues: { name: 'Sam' } },
    });
    expect(created.webCallUrl).toContain(`/ws/call/${created.id}`);
    const caller = await CallClient.connect(created.webCallUrl!);
    caller.startMicrophone();
    await caller.heard('Hello Sam,');
    await untilAssistantStops(caller, 0);

    redisServers.pop()!.kill('SIGKILL');
    await expect.poll(async () => (await api.get('/readyz')).status).toBe(503);
    const refused = await api.post(
      '/platform/call/web',
      { assistantId: assistant!.id },
      { authorization: `Bearer ${api.privateKey}` },
    );
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: SHARED_STORE_MESSAGE,
    });

    // The call already under way needs no Redis: it still hears, answers and ends properly.
    const hours = demo.knowledgeBase.find((entry) => entry.id === 'hours')!;
    const from = caller.messages.length;
    await caller.speak(await spokenLine(hours.questions[0]!));
    await caller.heard(hours.answer.split(' ').slice(0, 4).join(' '), from, 30_000);
    await caller.close();
    const ended = await endedRecord(api, created.id);
    expect(ended.endedReason).toBe('customer-ended-call');
    expect(ended.messages?.some((m) => m.role === 'user')).toBe(true);
  });

  it('refuses to start with a clear message when Redis does not answer, never showing its password', async () => {
    const port = await freePort();
    const failed = await start({ env: { REDIS_URL: `redis://:hunter2@127.0.0.1:${port}` } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failed?.message).toMatch(
      new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} \\(REDIS_URL\\) does not answer: `),
    );
    expect(failed?.message).not.toContain('hunter2');
  });

  it('holds the per-address call cap across API processes while a call lasts, past its link’s hold, until it ends', async () => {
    const env = { ROLE: 'api', TRUST_PROXY: 'true', MAX_LIVE_CALLS_PER_ADDRESS: '1' };
    const one = await start({ env });
    const two = await start({ dataDir: one.dataDir, env });
    const workerPort = await freePort();
    await start({
      dataDir: one.dataDir,
      port: workerPort,
      env: { ROLE: 'voice', WORKER_URL: `http://127.0.0.1:${workerPort}` },
    });
    const [assistant] = await one.client().assistant.list();
    const visitor = '198.51.100.50';
    const startWith = (server: TestServer, from: string) =>
      server.post(
        '/platform/call/web',
        { assistantId: assistant!.id, assistantOverrides: { variableValues: { name: 'Sam' } } },
        { authorization: `Bearer ${one.publicKey}`, 'x-forwarded-for': from },
      );

    const first = await startWith(one, visitor);
    expect(first.status).toBe(201);
    const { id, webCallUrl } = first.json as { id: string; webCallUrl: string };
    const caller = await CallClient.connect(webCallUrl);
    caller.startMicrophone();
    await caller.heard('Hello Sam,');
    // Longer than a new call's place is held for its caller (15 s): now only the live call counts.
    await new Promise((resolve) => setTimeout(resolve, 16_000));
    const second = await startWith(two, visitor);
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({
      message:
        'Your network already has a call open, the most allowed at once. End it, or try again in a minute.',
    });
    expect((await startWith(two, '198.51.100.51')).status).toBe(201);

    await caller.close();
    await endedRecord(one, id);
    await expect.poll(async () => (await startWith(two, visitor)).status).toBe(201);
  });
});
