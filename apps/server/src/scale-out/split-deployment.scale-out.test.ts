import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PlatformClient } from '@talkbooth/platform-client';
import type { Call } from '@talkbooth/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import demo from '../db/seed/demo-clinic.json' with { type: 'json' };
import { CallClient } from '../test-support/call-client.js';
import { endedRecord, recordWhere, untilAssistantStops } from '../test-support/calls.js';
import { killMainProcesses, startMain, type MainProcess } from '../test-support/main-process.js';
import { freePort } from '../test-support/ports.js';
import { spokenLine } from '../test-support/speech-audio.js';
import { redisEnvFor, testDatabaseFor, type TestDatabase } from '../test-support/test-database.js';
import { DEMO_CODE } from '../test-support/test-server.js';
import { ALL_WORKERS_BUSY } from './messages.js';

// Four real server processes on one PostgreSQL database and one Redis, real-time calls.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 90_000 });

/**
 * Short leases, so a killed worker's calls are ended within seconds; not so short that a
 * worker busy with its calls, beside the other test processes on two cores, misses a
 * renewal (a 2 s lease ran out under twelve calls and ended a live one).
 */
const LEASE = { CALL_LEASE_SECONDS: '6' };
const METRICS_TOKEN = 'split-deployment-metrics-token';
/** Places per worker: the twelve calls fill both. */
const PLACES = 6;
const CALLS = 2 * PLACES;

/** One server process of the deployment, reached over HTTP only. */
interface Replica {
  process: MainProcess;
  port: number;
  baseUrl: string;
  client(token?: string): PlatformClient;
}

let dataDir: string;
let db: TestDatabase;
let api: [Replica, Replica];
let workers: [Replica, Replica];
let privateKey: string;
let assistantId: string;

async function startReplica(env: Record<string, string>, port?: number): Promise<Replica> {
  port ??= await freePort();
  const process = startMain(
    {
      ...env,
      PORT: String(port),
      DATABASE_URL: db.url,
      ...redisEnvFor(dataDir),
      DEMO_UNICODE: DEMO_CODE,
      LOG_LEVEL: 'info',
      ...LEASE,
    },
    dataDir,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await process.waitFor(env.ROLE === 'voice' ? /voice worker listening/ : /Talkbooth is running/);
  return {
    process,
    port,
    baseUrl,
    client: (token = privateKey) => new PlatformClient({ token, baseUrl: `${baseUrl}/platform` }),
  };
}

const voiceEnv = (port: number): Record<string, string> => ({
  ROLE: 'voice',
  WORKER_URL: `http://127.0.0.1:${port}`,
  MAX_LIVE_CALLS: String(PLACES),
  // As a deployed worker does (it warms three by default): the demo's recogniser loaded,
  // its language model built, before calls come. Cold, six calls arriving at once each
  // waited for the model build (5 s with one core free) and then for six greetings.
  WARM_ASSISTANTS: '1',
});

async function startWorker(): Promise<Replica> {
  // The worker publishes its own address, so its port is chosen before it starts.
  const port = await freePort();
  const worker = await startReplica(voiceEnv(port), port);
  // The first worker builds the language model; the second finds it in the shared cache.
  await worker.process.waitFor(/assistants ready for their first calls/, 60_000);
  return worker;
}

async function readyCalls(replica: Replica): Promise<string | undefined> {
  const response = await fetch(`${replica.baseUrl}/readyz`);
  return ((await response.json()) as { checks?: { calls?: string } }).checks?.calls;
}

/** The language models built so far (the processes share the data folder and its model cache). */
function languageModels(): string[] {
  const folder = path.join(dataDir, 'models', 'language-models');
  return fs.existsSync(folder)
    ? fs.readdirSync(folder).filter((name) => name.startsWith('domain-'))
    : [];
}

/** Which worker (by process id) each web call went to, from the API processes' own logs. */
function workerPidOf(callId: string): number | undefined {
  for (const line of api.flatMap((r) => r.process.output().stdout.split('\n'))) {
    if (!line.includes('web call dispatched') || !line.includes(callId)) continue;
    const worker = (JSON.parse(line) as { worker: string }).worker;
    return Number(worker.split(':').at(-2));
  }
  return undefined;
}

/**
 * {@link workerPidOf} for each call, once every call's dispatch is in the logs: an API
 * process writes its log line as it answers, and the line may reach this process's pipe a
 * moment after the answer does (seen on a busy machine).
 */
function workerPidsOf(callIds: readonly string[]): Promise<number[]> {
  return vi.waitFor(
    () => {
      const pids = callIds.map(workerPidOf);
      expect(pids).not.toContain(undefined);
      return pids as number[];
    },
    { timeout: 10_000, interval: 100 },
  );
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-split-'));
  db = await testDatabaseFor(dataDir);
  // The first API process migrates, seeds and makes the keys; the rest find them.
  const first = await startReplica({ ROLE: 'api', METRICS_TOKEN, TRUST_PROXY: 'true' });
  privateKey = (await first.process.waitFor(/private\s+(\S+)/))[1]!;
  api = [first, await startReplica({ ROLE: 'api', TRUST_PROXY: 'true' })];
  workers = [await startWorker(), await startWorker()];
  await vi.waitFor(
    async () => expect(await readyCalls(first)).toBe(`2 voice workers, 0 of ${CALLS} places taken`),
    { timeout: 20_000, interval: 200 },
  );
  const scraped = await fetch(`${first.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const metrics = await scraped.text();
  expect(metrics).toMatch(/^talkbooth_voice_workers 2$/m);
  expect(metrics).toMatch(new RegExp(`^talkbooth_voice_worker_capacity ${CALLS}$`, 'm'));
  // An API process runs no calls: it reports its workers' capacity, not one of its own.
  expect(metrics).not.toMatch(/^talkbooth_call_capacity /m);
  const [assistant] = await first.client().assistant.list();
  assistantId = assistant!.id;
});

afterAll(async () => {
  killMainProcesses();
  await db?.close();
  if (dataDir !== undefined) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a split deployment: two API processes, two voice workers, one PostgreSQL, one Redis', () => {
  it('holds a rate limit spent on one API process on the other', async () => {
    const guess = (replica: Replica, unicode: string, from: string) =>
      fetch(`${replica.baseUrl}/api/get-assistant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ unicode }),
      });
    const guesser = '198.51.100.40';
    // The default limit: ten wrong codes per address in fifteen minutes.
    for (let n = 0; n < 10; n += 1)
      expect((await guess(api[n % 2]!, `wrong-${n}`, guesser)).status).toBe(200);
    for (const replica of api) expect((await guess(replica, DEMO_CODE, guesser)).status).toBe(429);
    expect((await guess(api[1], DEMO_CODE, '198.51.100.41')).status).toBe(200);
  });

  it('uses an assistant edited through one API process in the next call on either worker', async () => {
    const stored = await api[0].client().assistant.get(assistantId);
    const original = { firstMessage: stored.firstMessage!, model: stored.model! };
    const firstMessage = 'Good afternoon from the edited greeting.';
    // A new knowledge entry is a new vocabulary: the workers hear of the change through
    // Redis and build its language model before any call needs it.
    const modelsBefore = languageModels();
    await api[1].client().assistant.update(assistantId, {
      firstMessage,
      model: {
        ...original.model,
        knowledge: [
          ...(original.model.knowledge ?? []),
          {
            id: 'bicycles',
            questions: ['Can I leave my bicycle outside?'],
            answer: 'Yes, there is a covered bicycle rack by the side door.',
          },
        ],
      },
    });
    await vi.waitFor(() => expect(languageModels().length).toBeGreaterThan(modelsBefore.length), {
      timeout: 30_000,
      interval: 200,
    });
    const calls = await Promise.all(
      api.map((replica) => replica.client().call.createWeb({ assistantId })),
    );
    // Least loaded first: one call on each worker.
    expect(new Set(await workerPidsOf(calls.map((call) => call.id))).size).toBe(2);
    for (const call of calls) {
      const client = await CallClient.connect(call.webCallUrl!);
      client.startMicrophone();
      await client.heard('Good afternoon from the edited greeting');
      await client.close();
      await endedRecord(api[0], call.id);
    }
    await api[0].client().assistant.update(assistantId, original);
  });

  it(`spreads ${CALLS} calls from both API processes over the workers by load; each greets and answers; one more is refused`, async () => {
    const calls: Call[] = [];
    for (let n = 0; n < CALLS; n += 1) {
      const call = await api[n % 2]!.client().call.createWeb({
        assistantId,
        assistantOverrides: { variableValues: { name: 'Sam' } },
      });
      // The browser keeps the API's address: the socket is relayed from there.
      expect(call.webCallUrl).toMatch(
        new RegExp(`^ws://127\\.0\\.0\\.1:${api[n % 2]!.port}/ws/call/${call.id}\\?`),
      );
      calls.push(call);
    }
    const pids = await workerPidsOf(calls.map((call) => call.id));
    for (const worker of workers)
      expect(pids.filter((pid) => pid === worker.process.child.pid)).toHaveLength(PLACES);

    const refused = await fetch(`${api[1].baseUrl}/platform/call/web`, {
      method: 'POST',
      headers: { authorization: `Bearer ${privateKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId }),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: ALL_WORKERS_BUSY });

    live = await Promise.all(
      calls.map(async (call, n) => {
        const client = await CallClient.connect(call.webCallUrl!);
        client.startMicrophone();
        await client.heard('Hello Sam,');
        await untilAssistantStops(client, 0);
        return { call, client, pid: pids[n]! };
      }),
    );
    // Every caller asks, a moment apart, as callers do; every one is answered.
    await Promise.all(live.map(({ client }, n) => askHours(client, n * 300)));
    for (const { call } of live) {
      await recordWhere(
        api[0],
        call.id,
        (c) => (c.messages ?? []).some((m) => m.role === 'user'),
        'the question in the record',
      );
    }
  });

  it('ends a killed worker’s calls as worker-lost with their messages; the other worker’s go on; new calls go to the survivor', async () => {
    expect(live).toHaveLength(CALLS);
    const [survivor, doomed] = workers;
    const lost = live.filter(({ pid }) => pid === doomed.process.child.pid);
    const going = live.filter(({ pid }) => pid === survivor.process.child.pid);

    doomed.process.child.kill('SIGKILL');
    for (const { call, client } of lost) {
      await client.whenClosed();
      expect(client.closeCode).toBe(4503);
      const record = await endedRecord(api[0], call.id, 20_000);
      expect(record.endedReason).toBe('worker-lost');
      // Everything said before the worker died is kept: the greeting, the question, the answer.
      expect(record.messages?.[0]).toMatchObject({ message: expect.stringContaining('Hello Sam') });
      expect(record.messages?.some((m) => m.role === 'user')).toBe(true);
      expect(record.messages?.filter((m) => m.role === 'bot').length).toBeGreaterThanOrEqual(2);
    }

    // The survivor's calls are undisturbed: each one still hears and answers.
    await Promise.all(going.map(({ client }, n) => askHours(client, n * 300)));
    // Live-call control through either API process reaches the worker running the call.
    const [controlled, ...rest] = going;
    const from = controlled!.client.messages.length;
    await api[0].client().call.control(controlled!.call.id, {
      type: 'say',
      content: 'A word from the front desk.',
    });
    await controlled!.client.heard('word from the front desk', from);
    await api[1].client().call.control(controlled!.call.id, { type: 'end-call' });
    await controlled!.client.whenClosed();
    expect((await endedRecord(api[0], controlled!.call.id)).endedReason).toBe('manually-canceled');
    for (const { call, client } of rest) {
      await client.close();
      expect((await endedRecord(api[1], call.id)).endedReason).toBe('customer-ended-call');
    }

    await expect
      .poll(() => readyCalls(api[0]), { timeout: 15_000, interval: 200 })
      .toBe(`1 voice worker, 0 of ${PLACES} places taken`);
    const next = await api[1].client().call.createWeb({ assistantId });
    expect(await workerPidsOf([next.id])).toEqual([survivor.process.child.pid]);
  });

  it('drops only the calls an API process relayed when it dies (kill -9); the other API’s calls go on', async () => {
    const [doomed, remaining] = api;
    const calls = await Promise.all(
      api.map(async (replica) => {
        const call = await replica.client().call.createWeb({
          assistantId,
          assistantOverrides: { variableValues: { name: 'Sam' } },
        });
        const client = await CallClient.connect(call.webCallUrl!);
        client.startMicrophone();
        await client.heard('Hello Sam,');
        await untilAssistantStops(client, 0);
        return { call, client };
      }),
    );
    const [cut, kept] = calls as [(typeof calls)[0], (typeof calls)[0]];

    doomed.process.child.kill('SIGKILL');
    await cut.client.whenClosed();
    // To the worker, the relayed socket closing is the caller hanging up: the record says so.
    const dropped = await endedRecord(remaining, cut.call.id, 20_000);
    expect(dropped.endedReason).toBe('customer-ended-call');
    expect(dropped.messages?.[0]).toMatchObject({ message: expect.stringContaining('Hello Sam') });

    await askHours(kept.client, 0);
    await kept.client.close();
    expect((await endedRecord(remaining, kept.call.id)).endedReason).toBe('customer-ended-call');
  });
});

let live: { call: Call; client: CallClient; pid: number }[] = [];

const hours = demo.knowledgeBase.find((entry) => entry.id === 'hours')!;

/** Asks the demo's opening-hours question after `delayMs`, and waits for the answer. */
async function askHours(client: CallClient, delayMs: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const from = client.messages.length;
  await client.speak(await spokenLine(hours.questions[0]!));
  await client.heard(hours.answer.split(' ').slice(0, 4).join(' '), from, 45_000);
  await untilAssistantStops(client, from, 30_000);
}
