import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import demo from '../db/seed/demo-clinic.json' with { type: 'json' };
import { CallClient } from '../test-support/call-client.js';
import { endedRecord, recordWhere, untilAssistantStops } from '../test-support/calls.js';
import { killMainProcesses, startMain, type MainProcess } from '../test-support/main-process.js';
import { freePort } from '../test-support/ports.js';
import { spokenLine } from '../test-support/speech-audio.js';
import { redisEnvFor } from '../test-support/test-database.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { ALL_WORKERS_BUSY } from './messages.js';

// Real processes, real-time calls: a split deployment on one PostgreSQL and one Redis.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

/** Short leases, so a killed worker's calls are ended within seconds. */
const LEASE = { CALL_LEASE_SECONDS: '2' };
const METRICS_TOKEN = 'split-deployment-metrics-token';
let api: [TestServer, TestServer];
let survivor: TestServer;
let doomed: MainProcess;
let doomedPort: number;
let privateKey: string;
let assistantId: string;

beforeAll(async () => {
  const first = await startTestServer({ env: { ROLE: 'api', METRICS_TOKEN, ...LEASE } });
  api = [first, await startTestServer({ dataDir: first.dataDir, env: { ROLE: 'api', ...LEASE } })];
  privateKey = first.privateKey!;
  const survivorPort = await freePort();
  survivor = await startTestServer({
    dataDir: first.dataDir,
    port: survivorPort,
    env: voiceEnv(survivorPort),
  });
  // The worker this test kills: its own process, sharing the database, Redis and key file.
  doomedPort = await freePort();
  doomed = startMain(
    { ...voiceEnv(doomedPort), ...redisEnvFor(first.dataDir), DATABASE_URL: first.db.url },
    first.dataDir,
  );
  await doomed.waitFor(/voice worker listening/);
  await until(
    async () =>
      ((await first.get('/readyz')).json as { checks?: { calls?: string } }).checks?.calls ===
      '2 voice workers, 0 of 4 places taken',
    'both voice workers registered',
  );
  const scraped = await first.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  expect(scraped.text).toMatch(/^talkbooth_voice_workers 2$/m);
  expect(scraped.text).toMatch(/^talkbooth_voice_worker_capacity 4$/m);
  expect(scraped.text).toMatch(/^talkbooth_voice_worker_places_taken 0$/m);
  const [assistant] = await first.client(privateKey).assistant.list();
  assistantId = assistant!.id;
});

afterAll(async () => {
  killMainProcesses();
  for (const server of [...(api ?? []), survivor]) await server?.close();
});

function voiceEnv(port: number): Record<string, string> {
  return {
    ROLE: 'voice',
    PORT: String(port),
    WORKER_URL: `http://127.0.0.1:${port}`,
    MAX_LIVE_CALLS: '2',
    ...LEASE,
  };
}

/** Which worker each web call was dispatched to, from the API replicas' own logs. */
function dispatchedTo(callId: string): string | undefined {
  for (const line of api.flatMap((server) => server.logs)) {
    if (!line.includes('web call dispatched') || !line.includes(callId)) continue;
    return (JSON.parse(line) as { worker: string }).worker;
  }
  return undefined;
}

describe('a split deployment: two API replicas, two voice workers (PostgreSQL, Redis)', () => {
  it('spreads calls from both API replicas over the workers by load, and answers 429 when all are full', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 4; n += 1) {
      const call = await api[n % 2]!.client(privateKey).call.createWeb({ assistantId });
      // The browser keeps the API's address: the socket is relayed from there.
      expect(call.webCallUrl).toMatch(
        new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/ws/call/${call.id}\\?`),
      );
      ids.push(call.id);
    }
    const workers = ids.map(dispatchedTo);
    expect(new Set(workers).size).toBe(2);
    for (const worker of new Set(workers))
      expect(workers.filter((w) => w === worker)).toHaveLength(2);

    const refused = await fetch(`${api[1].baseUrl}/platform/call/web`, {
      method: 'POST',
      headers: { authorization: `Bearer ${privateKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId }),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: ALL_WORKERS_BUSY });
    // Nobody opened those links: their places lapse (15 s), and calls are taken again.
    await expect
      .poll(async () => (await api[0].get('/readyz')).status, { timeout: 30_000, interval: 500 })
      .toBe(200);
  });

  it('relays live calls; a killed worker’s call ends as worker-lost with its messages, the other goes on, new calls go to the survivor', async () => {
    const calls = [];
    for (let n = 0; n < 2; n += 1) {
      const call = await api[n]!.client(privateKey).call.createWeb({
        assistantId,
        assistantOverrides: { variableValues: { name: 'Sam' } },
      });
      const client = await CallClient.connect(call.webCallUrl!);
      client.startMicrophone();
      calls.push({ call, client, worker: dispatchedTo(call.id)! });
    }
    for (const { client } of calls) {
      await client.heard('Hello Sam,');
      await untilAssistantStops(client, 0);
    }
    const onDoomed = calls.find(({ worker }) => worker.includes(`:${doomed.child.pid}:`));
    const onSurvivor = calls.find((c) => c !== onDoomed);
    expect(onDoomed).toBeDefined();
    expect(onSurvivor).toBeDefined();
    await recordWhere(api[0], onDoomed!.call.id, (c) => (c.messages ?? []).length > 0, 'greeting');

    doomed.child.kill('SIGKILL');
    await onDoomed!.client.whenClosed();
    expect(onDoomed!.client.closeCode).toBe(4503);
    const lost = await endedRecord(api[0], onDoomed!.call.id, 20_000);
    expect(lost.endedReason).toBe('worker-lost');
    expect(lost.messages?.[0]).toMatchObject({ message: expect.stringContaining('Hello Sam') });

    // The survivor's call is undisturbed: it still hears and answers.
    const hours = demo.knowledgeBase.find((entry) => entry.id === 'hours')!;
    const from = onSurvivor!.client.messages.length;
    await onSurvivor!.client.speak(await spokenLine(hours.questions[0]!));
    await onSurvivor!.client.heard(hours.answer.split(' ').slice(0, 4).join(' '), from, 30_000);
    await onSurvivor!.client.close();
    expect((await endedRecord(api[0], onSurvivor!.call.id)).endedReason).toBe(
      'customer-ended-call',
    );

    // New calls go to the worker that is left.
    await expect
      .poll(
        async () =>
          ((await api[0].get('/readyz')).json as { checks: { calls: string } }).checks.calls,
        {
          timeout: 15_000,
        },
      )
      .toMatch(/^1 voice worker, /);
    const next = await api[1].client(privateKey).call.createWeb({ assistantId });
    expect(dispatchedTo(next.id)).toBe(onSurvivor!.worker);
  });

  it('uses an assistant edited through one API replica in the next call through the other', async () => {
    const firstMessage = 'Good afternoon from the edited greeting.';
    await api[1].client(privateKey).assistant.update(assistantId, { firstMessage });
    const call = await api[0].client(privateKey).call.createWeb({ assistantId });
    const client = await CallClient.connect(call.webCallUrl!);
    client.startMicrophone();
    await client.heard('Good afternoon from the edited greeting');
    await client.close();
  });
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
