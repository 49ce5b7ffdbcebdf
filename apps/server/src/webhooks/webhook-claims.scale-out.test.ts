import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createLogger } from '../logger.js';
import { openDatabase } from '../db/open-database.js';
import { loadMasterKey } from '../security/master-key.js';
import { SecretBox } from '../security/secret-box.js';
import { createOutboundFetch } from '../security/outbound.js';
import { serversClosedAfterEachTest } from '../test-support/test-server.js';
import { startWebhookListener, type WebhookListener } from '../test-support/webhook-listener.js';
import { enqueueDeliveries, WebhookOutbox } from './webhook-outbox.js';
import { WebhookSender } from './webhook-sender.js';

// Scale-out project only (PostgreSQL): several processes share one database there, which a
// SQLite file never is.
const startServer = serversClosedAfterEachTest();
const listeners: WebhookListener[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
});

describe('webhook senders sharing one PostgreSQL database', () => {
  it('send each delivery once: a row claimed by one sender is skipped by the others', async () => {
    // Answers slowly, so that rounds of the senders overlap.
    const hooks = await startWebhookListener({ delayMs: 30 });
    listeners.push(hooks);
    const server = await startServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
    const box = new SecretBox(loadMasterKey(undefined, server.dataDir));
    const org = (await server.db.get<{ id: string }>('select id from orgs limit 1'))!;
    const count = 60;
    const setup = openDatabase(server.db.url);
    await enqueueDeliveries(
      setup,
      box,
      Array.from({ length: count }, (_, n) => ({
        orgId: org.id,
        callId: null,
        url: hooks.url,
        secret: 'claims-secret',
        message: {
          type: 'status-update' as const,
          body: { message: { type: 'status-update' as const, n } },
        },
      })),
      new Date(),
    );
    await setup.destroy();

    // Three more senders, each with a database pool of its own, as separate processes.
    const log = createLogger({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const outbound = createOutboundFetch({ allowPrivate: true });
    const senders = Array.from({ length: 3 }, () => {
      const db = openDatabase(server.db.url);
      const sender = new WebhookSender(
        { outbox: new WebhookOutbox(db, box), fetch: outbound.fetch, log, now: () => new Date() },
        { pollIntervalMs: 20, retryDelaysMs: [50, 50] },
      );
      return { db, sender };
    });
    try {
      for (const { sender } of senders) sender.start();
      await vi.waitFor(
        async () =>
          expect(await server.db.count('webhook_deliveries', "status = 'delivered'")).toBe(count),
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      for (const { db, sender } of senders) {
        await sender.stop();
        await db.destroy();
      }
      await outbound.close();
    }
    const numbers = hooks.received.map((r) => r.body.message.n);
    expect(numbers).toHaveLength(count);
    expect(new Set(numbers).size).toBe(count);
    expect(await server.db.count('webhook_attempts')).toBe(count);
    expect(await server.db.count('webhook_deliveries', 'attempts <> 1')).toBe(0);
  });
});
