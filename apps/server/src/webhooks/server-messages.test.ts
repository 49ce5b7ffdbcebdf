import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AssistantDto } from '@talkbooth/protocol';
import demo from '../db/seed/demo-clinic.json' with { type: 'json' };
import { openDatabase } from '../db/open-database.js';
import { spokenLine } from '../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  startCall,
  untilAssistantStops,
} from '../test-support/calls.js';
import { startWebhookListener, type WebhookListener } from '../test-support/webhook-listener.js';
import { listWebhookDeliveries } from './webhook-outbox.js';

// Real-time calls: a conversation takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const SECRET = 'whsec-Zq81-never-in-a-log-7f3a';
const OVERRIDE_SECRET = 'override-secret-Kp2w-not-in-logs';

let server: TestServer;
let listener: WebhookListener;
let demoBody: AssistantDto;
beforeAll(async () => {
  listener = await startWebhookListener();
  // The listener is on this machine: let the server reach private addresses.
  server = await startTestServer({
    env: { OUTBOUND_ALLOW_PRIVATE: 'true', CALL_LEASE_SECONDS: '2' },
    webhooks: { retryDelaysMs: [100, 100], pollIntervalMs: 100, tryTimeoutMs: 2_000 },
  });
  const {
    id: _id,
    orgId: _org,
    createdAt: _c,
    updatedAt: _u,
    ...body
  } = await server.client().assistant.get(await demoAssistantId(server));
  demoBody = body;
});
afterAll(async () => {
  await server.close();
  await listener.close();
});

/** The demo clinic, reporting to the listener. */
async function reportingAssistant(settings: AssistantDto): Promise<string> {
  const created = await server.client().assistant.create({ ...demoBody, ...settings });
  return created.id;
}

/** The messages the listener got for one call, in arrival order. */
const forCall = (callId: string) =>
  listener.received
    .map((r) => r.body.message)
    .filter((m) => (m.call as { id?: string } | undefined)?.id === callId);

async function rowsOf(callId: string) {
  return server.db.all<{ message_type: string; status: string; attempts: number }>(
    'select message_type, status, attempts from webhook_deliveries where call_id = ? order by created_at',
    callId,
  );
}

/** A refused phone call: recorded at once as ended, so it reports its end at once. */
async function refusedPhoneCall(assistantId: string): Promise<string> {
  const answer = await server.post(
    '/platform/call/phone',
    {
      assistantId,
      customer: { number: '+15555550100' },
      phoneNumber: { twilioPhoneNumber: '+15555550101' },
    },
    { authorization: `Bearer ${server.privateKey}` },
  );
  expect(answer.status).toBe(400);
  const id = /call ([0-9a-f-]{36})/.exec((answer.json as { message: string }).message)?.[1];
  expect(id).toBeDefined();
  return id!;
}

describe("an assistant's server messages (webhooks) on a real web call", () => {
  it('posts status updates, each final transcript line and the end-of-call report with the brief', async () => {
    const assistantId = await reportingAssistant({
      serverUrl: listener.url,
      serverUrlSecret: SECRET,
      serverMessages: ['status-update', 'end-of-call-report', 'transcript'],
    });
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);
    const lines = [
      ['i would like to give a brief', demo.intake.questions[0]!.ask],
      ['i have a bad cough and a sore throat', demo.intake.questions[1]!.ask],
    ] as const;
    for (const [line, expected] of lines) {
      const from = client.messages.length;
      await client.speak(await spokenLine(line));
      await client.heard(expected, from, 20_000);
      await untilAssistantStops(client, from);
    }
    // Ended through the platform API, as an operator would.
    await server.client().call.control(call.id, { type: 'end-call' });
    const record = (await endedRecord(server, call.id)) as Awaited<
      ReturnType<typeof endedRecord>
    > & { analysis?: { summary: string; structuredData: { brief?: Record<string, string> } } };
    expect(record.endedReason).toBe('manually-canceled');
    await listener.waitFor(
      () => forCall(call.id).some((m) => m.type === 'end-of-call-report'),
      'the end-of-call report',
    );

    const messages = forCall(call.id);
    // Every request: JSON, with the secret in its header.
    for (const received of listener.received.filter((r) => messages.includes(r.body.message))) {
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers['x-vapi-secret']).toBe(SECRET);
    }
    const statuses = messages.filter((m) => m.type === 'status-update');
    expect(statuses.map((m) => [m.status, m.endedReason])).toEqual([
      ['in-progress', undefined],
      ['ended', 'manually-canceled'],
    ]);
    expect(statuses[0]).toMatchObject({
      call: { id: call.id, status: 'in-progress', assistantId },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // One transcript message per spoken line of the record, in order, each once.
    const spoken = (record.messages ?? []).filter((m) => m.role !== 'system');
    const transcripts = messages.filter((m) => m.type === 'transcript');
    expect(transcripts.map((m) => [m.role, m.transcript])).toEqual(
      spoken.map((m) => [m.role === 'bot' ? 'assistant' : 'user', m.message]),
    );
    expect(transcripts.filter((m) => m.role === 'user')).toHaveLength(2);
    for (const m of transcripts) expect(m.transcriptType).toBe('final');

    const reports = messages.filter((m) => m.type === 'end-of-call-report');
    expect(reports).toHaveLength(1);
    const report = reports[0]!;
    expect(report).toMatchObject({
      endedReason: 'manually-canceled',
      transcript: record.transcript,
      summary: record.summary,
      messages: record.messages,
      analysis: {
        summary: record.summary,
        structuredData: record.analysis?.structuredData,
      },
      startedAt: record.startedAt,
      endedAt: record.endedAt,
      call: { id: call.id, status: 'ended', endedReason: 'manually-canceled' },
    });
    // The caller's reason is in the report's transcript as a line of its own. What this test
    // checks is the delivery, not recognition: under CI load the live recogniser once heard
    // "bite and a bad cough", so only the words the brief is built from are required.
    // Line by line, so a failure shows every line of the transcript.
    expect(String(report.transcript).split('\n')).toContainEqual(
      expect.stringMatching(/^User: .*\bcough\b/),
    );
    const brief = (report.analysis as { structuredData: { brief?: Record<string, string> } })
      .structuredData.brief;
    expect(brief?.reason).toMatch(/cough/);
    // The end comes last: after every transcript line and the ended status.
    expect(messages[messages.length - 1]).toBe(report);

    // Each stored as delivered at the first try (the last one a moment after it arrived).
    await vi.waitFor(async () => {
      const rows = await rowsOf(call.id);
      expect(rows.map((row) => [row.message_type, row.status, row.attempts])).toEqual(
        messages.map((m) => [m.type, 'delivered', 1]),
      );
    });
  });

  it('sends only the types serverMessages lists, and nothing without a serverUrl', async () => {
    const onlyReport = await reportingAssistant({
      serverUrl: listener.url,
      serverMessages: ['end-of-call-report'],
    });
    const silent = await reportingAssistant({ serverMessages: ['status-update', 'transcript'] });
    const reported = await refusedPhoneCall(onlyReport);
    const unreported = await refusedPhoneCall(silent);
    await listener.waitFor(() => forCall(reported).length > 0, 'the refused call report');
    expect(forCall(reported).map((m) => m.type)).toEqual(['end-of-call-report']);
    expect(forCall(reported)[0]).toMatchObject({ endedReason: 'telephony-not-configured' });
    // Without a secret there is no secret header.
    const request = listener.received.find((r) => r.body.message === forCall(reported)[0])!;
    expect(request.headers['x-vapi-secret']).toBeUndefined();
    expect(await rowsOf(reported)).toHaveLength(1);
    expect(await rowsOf(unreported)).toEqual([]);
    expect(forCall(unreported)).toEqual([]);
  });

  it('uses the default list when serverMessages is absent (status and report, no transcript), from an inline assistant with overrides', async () => {
    const { call, client } = await startCall(server, {
      assistant: { ...demoBody, serverMessages: undefined },
      // The webhook comes with the call's overrides, its secret sealed with the call.
      assistantOverrides: {
        ...BOOTH_OVERRIDES,
        serverUrl: listener.url,
        serverUrlSecret: OVERRIDE_SECRET,
      },
    });
    await client.heard('Hello Sam,');
    await client.close();
    await endedRecord(server, call.id);
    await listener.waitFor(
      () => forCall(call.id).some((m) => m.type === 'end-of-call-report'),
      'the end-of-call report',
    );
    expect(forCall(call.id).map((m) => [m.type, m.status])).toEqual([
      ['status-update', 'in-progress'],
      ['status-update', 'ended'],
      ['end-of-call-report', undefined],
    ]);
    expect(
      listener.received
        .filter((r) => (r.body.message.call as { id: string }).id === call.id)
        .map((r) => r.headers['x-vapi-secret']),
    ).toEqual([OVERRIDE_SECRET, OVERRIDE_SECRET, OVERRIDE_SECRET]);
    // The call in the message never carries the secret, not even masked.
    expect(JSON.stringify(forCall(call.id))).not.toContain('serverUrlSecret');
  });

  it('reports the end of a call the sweep ends (its worker was lost) once', async () => {
    const assistantId = await reportingAssistant({
      serverUrl: listener.url,
      serverUrlSecret: SECRET,
    });
    const call = await server.client().call.createWeb({ assistantId });
    // As if a voice worker had started it and died: its lease ran out a while ago.
    await server.db.run(
      "update calls set status = 'in-progress', started_at = ?, lease_owner = 'voice@gone:1:x', lease_expires_at = ? where id = ?",
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() - 30_000).toISOString(),
      call.id,
    );
    const ended = await endedRecord(server, call.id);
    expect(ended.endedReason).toBe('worker-lost');
    await listener.waitFor(
      () => forCall(call.id).some((m) => m.type === 'end-of-call-report'),
      'the end-of-call report',
    );
    // Sweeps keep running every second: give them time to (wrongly) report it again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(forCall(call.id).map((m) => [m.type, m.endedReason])).toEqual([
      ['status-update', 'worker-lost'],
      ['end-of-call-report', 'worker-lost'],
    ]);
    expect(await rowsOf(call.id)).toHaveLength(2);
  });

  it('never writes a secret to the logs, the delivery list or the database file', async () => {
    const logs = server.logs.join('');
    expect(logs).toContain('server message delivered');
    for (const secret of [SECRET, OVERRIDE_SECRET]) expect(logs).not.toContain(secret);
    const db = openDatabase(server.db.url);
    try {
      const org = await server.db.get<{ org_id: string }>(
        'select org_id from webhook_deliveries limit 1',
      );
      const page = await listWebhookDeliveries(db, org!.org_id, { limit: 500 });
      expect(page.length).toBe(await server.db.count('webhook_deliveries'));
      expect(page.some((d) => d.withSecret)).toBe(true);
      expect(page[0]!.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });
      const listed = JSON.stringify(page);
      for (const secret of [SECRET, OVERRIDE_SECRET]) expect(listed).not.toContain(secret);
      // Newest first, and paging on from the last row finds the rest.
      const first = await listWebhookDeliveries(db, org!.org_id, { limit: 3 });
      const last = first[first.length - 1]!;
      const next = await listWebhookDeliveries(db, org!.org_id, {
        limit: 500,
        before: last.createdAt,
        beforeId: last.id,
      });
      expect([...first, ...next].map((d) => d.id)).toEqual(page.map((d) => d.id));
      for (let i = 1; i < page.length; i += 1)
        expect(page[i - 1]!.createdAt >= page[i]!.createdAt).toBe(true);
    } finally {
      await db.destroy();
    }
    const stored = await server.db.storedText();
    for (const secret of [SECRET, OVERRIDE_SECRET]) expect(stored).not.toContain(secret);
  });
});
