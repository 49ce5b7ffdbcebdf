import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createdInviteSchema, webhookDeliveryListSchema } from '@talkbooth/protocol';
import { openDatabase } from '../../db/open-database.js';
import type { Database } from '../../db/schema.js';
import { loadMasterKey } from '../../security/master-key.js';
import { SecretBox } from '../../security/secret-box.js';
import { ConsoleBrowser } from '../../test-support/console-browser.js';
import { serversClosedAfterEachTest } from '../../test-support/test-server.js';
import type { ServerMessageBody } from '../../webhooks/server-messages.js';
import { WebhookOutbox, enqueueDeliveries } from '../../webhooks/webhook-outbox.js';

/**
 * The console's webhook delivery log, `GET /console/api/webhooks` (real server, real
 * database). Deliveries are queued and tried with the outbox's own functions, through a
 * second connection; the server's own sender polls once an hour here, so it leaves them be.
 */
const start = serversClosedAfterEachTest();
const opened: Kysely<Database>[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

const SECRET = 'whsec-route-test-secret-9731';

async function serverWithOwner() {
  const server = await start({ webhooks: { pollIntervalMs: 3_600_000 } });
  const owner = new ConsoleBrowser(server.baseUrl);
  const joined = await owner.join({
    username: 'Owner',
    email: 'owner@example.com',
    password: 'owner password',
  });
  const db = openDatabase(server.db.url);
  opened.push(db);
  const box = new SecretBox(loadMasterKey(undefined, server.dataDir));
  return { server, owner, orgId: joined.organisation.id, db, box };
}

const message = (type: 'status-update' | 'end-of-call-report'): ServerMessageBody => ({
  type,
  body: { message: { type, call: { id: 'call-1' } } },
});

type Arranged = Awaited<ReturnType<typeof serverWithOwner>>;

/**
 * Three deliveries for `orgId`: two status updates queued together at 10:00 (one
 * delivered on its second try, one that failed), then an end-of-call report at 10:05
 * still pending.
 */
async function arrangeDeliveries({ db, box }: Arranged, orgId: string) {
  await enqueueDeliveries(
    db,
    box,
    [
      {
        orgId,
        callId: null,
        url: 'https://hooks.example/first',
        secret: SECRET,
        message: message('status-update'),
      },
      {
        orgId,
        callId: null,
        url: 'https://hooks.example/second',
        secret: SECRET,
        message: message('status-update'),
      },
    ],
    new Date('2025-03-01T10:00:00.000Z'),
  );
  const outbox = new WebhookOutbox(db, box);
  const claimed = await outbox.claimDue(
    new Date('2025-03-01T10:00:01.000Z'),
    new Date('2025-03-01T10:10:00.000Z'),
    10,
  );
  expect(claimed.map((c) => c.url)).toEqual([
    'https://hooks.example/first',
    'https://hooks.example/second',
  ]);
  const [first, second] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
  const next = { maxAttempts: 2, retryAt: new Date('2025-03-01T10:00:30.000Z') };
  await outbox.recordAttempt(
    first,
    { statusCode: 500, error: 'The listener answered 500 Internal Server Error.', durationMs: 41 },
    new Date('2025-03-01T10:00:02.000Z'),
    next,
  );
  await outbox.recordAttempt(
    { ...first, attempts: 1 },
    { statusCode: 200, error: null, durationMs: 12 },
    new Date('2025-03-01T10:00:31.000Z'),
    next,
  );
  await outbox.recordAttempt(
    second,
    { statusCode: null, error: 'connect ECONNREFUSED', durationMs: 3 },
    new Date('2025-03-01T10:00:02.000Z'),
    { maxAttempts: 1, retryAt: new Date('2025-03-01T10:00:30.000Z') },
  );
  await enqueueDeliveries(
    db,
    box,
    [
      {
        orgId,
        callId: null,
        url: 'https://hooks.example/third',
        secret: undefined,
        message: message('end-of-call-report'),
      },
    ],
    new Date('2025-03-01T10:05:00.000Z'),
  );
}

const list = async (browser: ConsoleBrowser, query = '') => {
  const answer = await browser.get(`/console/api/webhooks${query}`);
  expect(answer.status).toBe(200);
  return { page: webhookDeliveryListSchema.parse(answer.json), text: answer.text };
};

describe('the webhook delivery log (GET /console/api/webhooks)', () => {
  it("lists the organisation's deliveries newest first, with their tries, and no secret", async () => {
    const arranged = await serverWithOwner();
    await arrangeDeliveries(arranged, arranged.orgId);

    const { page, text } = await list(arranged.owner);
    expect(page.hasMore).toBe(false);
    expect(page.items.map((d) => [d.url, d.messageType, d.status, d.attemptCount])).toEqual([
      ['https://hooks.example/third', 'end-of-call-report', 'pending', 0],
      ['https://hooks.example/second', 'status-update', 'failed', 1],
      ['https://hooks.example/first', 'status-update', 'delivered', 2],
    ]);
    const [third, second, first] = page.items;
    expect(third).toMatchObject({
      createdAt: '2025-03-01T10:05:00.000Z',
      lastStatusCode: null,
      lastError: null,
      deliveredAt: null,
      attempts: [],
    });
    expect(second).toMatchObject({
      lastStatusCode: null,
      lastError: 'connect ECONNREFUSED',
      nextAttemptAt: null,
    });
    expect(first).toMatchObject({
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: '2025-03-01T10:00:31.000Z',
    });
    expect(first!.attempts).toEqual([
      {
        attempt: 1,
        statusCode: 500,
        error: 'The listener answered 500 Internal Server Error.',
        durationMs: 41,
        at: '2025-03-01T10:00:02.000Z',
      },
      { attempt: 2, statusCode: 200, error: null, durationMs: 12, at: '2025-03-01T10:00:31.000Z' },
    ]);

    // Neither the secret nor its sealed form, nor the body posted, is in the answer.
    const sealed = await arranged.server.db.all<{ sealed_secret: string | null }>(
      'select sealed_secret from webhook_deliveries where sealed_secret is not null',
    );
    expect(sealed).toHaveLength(2);
    expect(text).not.toContain(SECRET);
    for (const row of sealed) expect(text).not.toContain(row.sealed_secret);
    expect(text).not.toMatch(/secret|payload/i);
  });

  it('pages with before (and beforeId for rows of the same millisecond)', async () => {
    const arranged = await serverWithOwner();
    await arrangeDeliveries(arranged, arranged.orgId);

    const first = await list(arranged.owner, '?limit=2');
    expect(first.page.hasMore).toBe(true);
    expect(first.page.items.map((d) => d.url)).toEqual([
      'https://hooks.example/third',
      'https://hooks.example/second',
    ]);
    const last = first.page.items[1]!;
    const next = await list(
      arranged.owner,
      `?limit=2&before=${encodeURIComponent(last.createdAt)}&beforeId=${last.id}`,
    );
    expect(next.page).toMatchObject({ hasMore: false });
    expect(next.page.items.map((d) => d.url)).toEqual(['https://hooks.example/first']);

    // `before` alone: everything created before that instant.
    const older = await list(arranged.owner, '?before=2025-03-01T10:04:00Z');
    expect(older.page.items.map((d) => d.url)).toEqual([
      'https://hooks.example/second',
      'https://hooks.example/first',
    ]);

    const wrong = await arranged.owner.get('/console/api/webhooks?limit=500&before=yesterday');
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ fields: { limit: expect.any(String) } });
  });

  it('any role reads it; another organisation sees none of it; nobody signed out does', async () => {
    const arranged = await serverWithOwner();
    const { server, owner } = arranged;
    await arrangeDeliveries(arranged, arranged.orgId);

    const invite = createdInviteSchema.parse(
      (await owner.post('/console/api/team/invites', { role: 'viewer' })).json,
    );
    const viewer = new ConsoleBrowser(server.baseUrl);
    await viewer.join({
      username: 'Viewer',
      email: 'viewer@example.com',
      password: 'viewer password',
      invite: new URL(invite.url).searchParams.get('invite')!,
    });
    expect((await list(viewer)).page.items).toHaveLength(3);

    const stranger = new ConsoleBrowser(server.baseUrl);
    const other = await stranger.join({
      username: 'Other',
      email: 'other@example.com',
      password: 'other password',
    });
    expect(other.organisation.id).not.toBe(arranged.orgId);
    expect((await list(stranger)).page).toEqual({ items: [], hasMore: false });

    // The other organisation's own delivery is its alone.
    await enqueueDeliveries(
      arranged.db,
      arranged.box,
      [
        {
          orgId: other.organisation.id,
          callId: null,
          url: 'https://other.example/hook',
          secret: undefined,
          message: message('status-update'),
        },
      ],
      new Date('2025-03-02T09:00:00.000Z'),
    );
    expect((await list(stranger)).page.items.map((d) => d.url)).toEqual([
      'https://other.example/hook',
    ]);
    expect((await list(owner)).page.items.map((d) => d.url)).not.toContain(
      'https://other.example/hook',
    );

    expect((await server.get('/console/api/webhooks')).status).toBe(401);
  });
});
