import { afterEach, describe, expect, it, vi } from 'vitest';
import { serversClosedAfterEachTest, type TestServer } from '../test-support/test-server.js';
import {
  startWebhookListener,
  type ListenerAnswer,
  type WebhookListener,
} from '../test-support/webhook-listener.js';

/**
 * Delivery of server messages: retries with backoff, giving up, and surviving a restart.
 * A refused phone call (no telephony here) is recorded as ended at once, so it queues its
 * end-of-call report without a real-time call.
 */
const startServer = serversClosedAfterEachTest();
const listeners: WebhookListener[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
});

async function listener(answer?: (index: number) => ListenerAnswer, port?: number) {
  const started = await startWebhookListener({
    ...(answer === undefined ? {} : { answer }),
    ...(port === undefined ? {} : { port }),
  });
  listeners.push(started);
  return started;
}

/** Short timings: five tries 60 ms apart, a try cut off after 400 ms. */
const TIMINGS = { retryDelaysMs: [60, 60, 60, 60], pollIntervalMs: 50, tryTimeoutMs: 400 };

function serverWithShortRetries(dataDir?: string, timings = TIMINGS) {
  return startServer({
    env: { OUTBOUND_ALLOW_PRIVATE: 'true' },
    webhooks: timings,
    ...(dataDir === undefined ? {} : { dataDir }),
  });
}

/** Creates an assistant reporting its calls' ends to `url`, then a refused phone call of it. */
async function reportedCall(server: TestServer, url: string): Promise<string> {
  const assistant = await server.client().assistant.create({
    name: 'Reports',
    serverUrl: url,
    serverUrlSecret: 'delivery-test-secret-41',
    serverMessages: ['end-of-call-report'],
  });
  const answer = await server.post(
    '/platform/call/phone',
    {
      assistantId: assistant.id,
      customer: { number: '+15555550100' },
      phoneNumber: { twilioPhoneNumber: '+15555550101' },
    },
    { authorization: `Bearer ${server.privateKey}` },
  );
  expect(answer.status).toBe(400);
  return /call ([0-9a-f-]{36})/.exec((answer.json as { message: string }).message)![1]!;
}

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

const deliveryOf = async (server: TestServer, callId: string) =>
  (await server.db.get<DeliveryRow>(
    'select id, status, attempts, last_status_code, last_error, delivered_at, next_attempt_at from webhook_deliveries where call_id = ?',
    callId,
  ))!;

const attemptsOf = (server: TestServer, deliveryId: string) =>
  server.db.all<{
    attempt: number;
    status_code: number | null;
    error: string | null;
    duration_ms: number;
  }>(
    'select attempt, status_code, error, duration_ms from webhook_attempts where delivery_id = ? order by attempt',
    deliveryId,
  );

/** Waits until the delivery of `callId` is no longer pending. */
async function settled(server: TestServer, callId: string): Promise<DeliveryRow> {
  let row: DeliveryRow | undefined;
  await vi.waitFor(
    async () => {
      row = await deliveryOf(server, callId);
      expect(row.status).not.toBe('pending');
    },
    { timeout: 10_000, interval: 25 },
  );
  return row!;
}

describe('delivering server messages', () => {
  it('retries after a 500 with backoff, logging each try, until the listener takes it', async () => {
    const hooks = await listener((n) => (n < 2 ? 500 : 200));
    const server = await serverWithShortRetries();
    const callId = await reportedCall(server, hooks.url);
    const row = await settled(server, callId);
    expect(row).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(row.delivered_at).not.toBeNull();
    const tries = await attemptsOf(server, row.id);
    expect(tries.map((t) => [t.attempt, t.status_code, t.error])).toEqual([
      [1, 500, 'The listener answered 500 Internal Server Error.'],
      [2, 500, 'The listener answered 500 Internal Server Error.'],
      [3, 200, null],
    ]);
    // The same body each time, and the retries waited.
    expect(hooks.received).toHaveLength(3);
    expect(new Set(hooks.received.map((r) => r.raw)).size).toBe(1);
    expect(hooks.received[0]!.body.message).toMatchObject({
      type: 'end-of-call-report',
      endedReason: 'telephony-not-configured',
      call: { id: callId },
    });
    expect(hooks.received[2]!.at - hooks.received[0]!.at).toBeGreaterThanOrEqual(2 * 60 - 10);
  });

  it('marks a delivery failed after the last try when the listener never takes it', async () => {
    const hooks = await listener(() => 503);
    const server = await serverWithShortRetries();
    const callId = await reportedCall(server, hooks.url);
    const row = await settled(server, callId);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 5,
      last_status_code: 503,
      last_error: 'The listener answered 503 Service Unavailable.',
      delivered_at: null,
      next_attempt_at: null,
    });
    expect((await attemptsOf(server, row.id)).map((t) => t.attempt)).toEqual([1, 2, 3, 4, 5]);
    // No sixth try.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hooks.received).toHaveLength(5);
    expect(server.logs.join('')).toContain('server message failed: no more tries');
  });

  it('cuts a try off when the listener does not answer in time, and tries again', async () => {
    const hooks = await listener((n) => (n === 0 ? 'hang' : 204));
    const server = await serverWithShortRetries();
    const callId = await reportedCall(server, hooks.url);
    const row = await settled(server, callId);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 204 });
    const tries = await attemptsOf(server, row.id);
    expect(tries.map((t) => [t.status_code, t.error])).toEqual([
      [null, 'No answer within 0.4 s.'],
      [204, null],
    ]);
    expect(tries[0]!.duration_ms).toBeGreaterThanOrEqual(390);
  });

  it('sends after a restart what was still pending (or claimed by a process that died)', async () => {
    // The listener is down: find a free port, then close it.
    const down = await startWebhookListener();
    await down.close();
    const first = await serverWithShortRetries(undefined, {
      ...TIMINGS,
      retryDelaysMs: [60_000, 60_000],
    });
    const callId = await reportedCall(first, down.url);
    await vi.waitFor(async () => expect((await deliveryOf(first, callId)).attempts).toBe(1), {
      timeout: 10_000,
      interval: 25,
    });
    const before = await deliveryOf(first, callId);
    expect(before.status).toBe('pending');
    expect(before.last_status_code).toBeNull();
    expect(before.last_error).toMatch(/^The request failed: .*ECONNREFUSED/);
    const dataDir = first.dataDir;
    await first.close();

    // As if another process had claimed it and died: its claim ran out a moment ago.
    const past = new Date(Date.now() - 1_000).toISOString();
    await first.db.run(
      'update webhook_deliveries set next_attempt_at = ?, claimed_until = ? where call_id = ?',
      past,
      past,
      callId,
    );
    await first.db.close();
    const hooks = await listener(undefined, down.port);
    const second = await serverWithShortRetries(dataDir);
    const row = await settled(second, callId);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.headers['x-vapi-secret']).toBe('delivery-test-secret-41');
    expect(hooks.received[0]!.body.message).toMatchObject({
      type: 'end-of-call-report',
      call: { id: callId },
    });
  });
});
