import crypto from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Database, WebhookDeliveryStatus, WebhookDeliveryTable } from '../db/schema.js';
import type { SecretBox } from '../security/secret-box.js';
import type { ServerMessageBody } from './server-messages.js';

/**
 * The durable outbox of server messages (`webhook_deliveries`, one row per message to
 * POST, and `webhook_attempts`, one row per try). Rows are queued in the transaction that
 * writes the call change they report, so a message exists exactly when its change does;
 * senders claim due rows with a conditional UPDATE on `claimed_until`, so among processes
 * sharing the database one sends a row at a time. The database is used even with Redis
 * configured: the Redis of a deployment here keeps nothing on disk.
 */

/** The context a delivery's secret is sealed under: it opens for this row only. */
const secretContext = (id: string) => `webhook_deliveries:${id}`;

export interface NewDelivery {
  orgId: string;
  callId: string | null;
  url: string;
  secret: string | undefined;
  message: ServerMessageBody;
}

/**
 * Queues messages (on `db`, usually the transaction of the change they report). Rows
 * queued together get createdAt a millisecond apart, in order, so they are sent and
 * listed in the order given.
 */
export async function enqueueDeliveries(
  db: Kysely<Database>,
  box: SecretBox,
  deliveries: readonly NewDelivery[],
  now: Date,
): Promise<void> {
  if (deliveries.length === 0) return;
  const rows: Insertable<WebhookDeliveryTable>[] = deliveries.map((delivery, index) => {
    const id = crypto.randomUUID();
    const at = new Date(now.getTime() + index).toISOString();
    return {
      id,
      org_id: delivery.orgId,
      call_id: delivery.callId,
      url: delivery.url,
      message_type: delivery.message.type,
      payload: JSON.stringify(delivery.message.body),
      sealed_secret:
        delivery.secret === undefined ? null : box.seal(delivery.secret, secretContext(id)),
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      claimed_until: null,
      last_status_code: null,
      last_error: null,
      delivered_at: null,
      created_at: at,
      updated_at: at,
    };
  });
  await db.insertInto('webhook_deliveries').values(rows).execute();
}

/** A delivery a sender has claimed: what to POST, with its secret opened. */
export interface ClaimedDelivery {
  id: string;
  orgId: string;
  callId: string | null;
  url: string;
  messageType: string;
  payload: string;
  secret: string | undefined;
  /** Tries made before this one. */
  attempts: number;
  createdAt: string;
}

/** How one try went. */
export interface AttemptResult {
  /** The listener's HTTP status; null when none came. */
  statusCode: number | null;
  /** Why the try failed; null when it succeeded. */
  error: string | null;
  durationMs: number;
}

/** The sender's side of the outbox. */
export class WebhookOutbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  /**
   * Claims up to `limit` due rows (pending, due by `now`, unclaimed or whose claim
   * lapsed) until `claimedUntil`. Each claim is a conditional UPDATE: of two processes
   * racing for a row, the second re-reads it claimed (PostgreSQL re-checks the condition
   * on the row it waited for) and skips it.
   */
  async claimDue(now: Date, claimedUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const at = now.toISOString();
    const candidates = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
      .orderBy('next_attempt_at')
      .orderBy('created_at')
      .limit(limit)
      .execute();
    const claimed: string[] = [];
    for (const { id } of candidates) {
      const result = await this.db
        .updateTable('webhook_deliveries')
        .set({ claimed_until: claimedUntil.toISOString(), updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
        .executeTakeFirst();
      if (result.numUpdatedRows === 1n) claimed.push(id);
    }
    if (claimed.length === 0) return [];
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', 'in', claimed)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      callId: row.call_id,
      url: row.url,
      messageType: row.message_type,
      payload: row.payload,
      secret:
        row.sealed_secret === null
          ? undefined
          : this.box.open(row.sealed_secret, secretContext(row.id)),
      attempts: row.attempts,
      createdAt: row.created_at,
    }));
  }

  /**
   * Logs a try and moves the delivery on: delivered, failed after `maxAttempts`, or
   * pending again at `retryAt`. The claim is given up either way.
   */
  async recordAttempt(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    at: Date,
    next: { maxAttempts: number; retryAt: Date },
  ): Promise<WebhookDeliveryStatus> {
    const attempt = delivery.attempts + 1;
    const status: WebhookDeliveryStatus =
      result.error === null ? 'delivered' : attempt >= next.maxAttempts ? 'failed' : 'pending';
    const iso = at.toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: crypto.randomUUID(),
          delivery_id: delivery.id,
          attempt,
          status_code: result.statusCode,
          error: result.error,
          duration_ms: Math.round(result.durationMs),
          at: iso,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status,
          attempts: attempt,
          last_status_code: result.statusCode,
          last_error: result.error,
          next_attempt_at: status === 'pending' ? next.retryAt.toISOString() : null,
          claimed_until: null,
          delivered_at: status === 'delivered' ? iso : null,
          updated_at: iso,
        })
        .where('id', '=', delivery.id)
        .execute();
    });
    return status;
  }

  /** Gives a claimed delivery back untried (the server is shutting down mid-try). */
  async release(id: string, at: Date): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: null, updated_at: at.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** When the earliest pending, unclaimed delivery is due; null when none waits. */
  async nextDueAt(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('status', '=', 'pending')
      .where('claimed_until', 'is', null)
      .executeTakeFirst();
    const due = row?.due;
    return due === null || due === undefined ? null : new Date(due);
  }
}

/** One try of a delivery, as the console shows it. */
export interface WebhookAttemptView {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

/** A delivery as the console shows it: never its secret, only whether it has one. */
export interface WebhookDeliveryView {
  id: string;
  callId: string | null;
  url: string;
  messageType: string;
  status: WebhookDeliveryStatus;
  /** The body POSTed (`{ message: { type, call, … } }`). */
  payload: unknown;
  /** Whether an `x-vapi-secret` is sent with it. */
  withSecret: boolean;
  /** Tries made so far. */
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Every try, first to last. */
  attempts: WebhookAttemptView[];
}

export interface WebhookDeliveryPage {
  /** At most this many (default 50, at most 200). */
  limit?: number | undefined;
  /** Only deliveries created before this time (the last row's createdAt, for the next page). */
  before?: string | undefined;
  /**
   * With `before`: the last row's id, so rows created in the same millisecond as it
   * are not skipped (rows are ordered by createdAt, then id).
   */
  beforeId?: string | undefined;
}

/**
 * An organisation's deliveries, newest first, each with its tries: for the console.
 * Page on with `before` (and `beforeId`) set to the last row's createdAt (and id).
 */
export async function listWebhookDeliveries(
  db: Kysely<Database>,
  orgId: string,
  page: WebhookDeliveryPage = {},
): Promise<WebhookDeliveryView[]> {
  const limit = Math.min(Math.max(Math.trunc(page.limit ?? 50), 1), 200);
  let query = db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'call_id',
      'url',
      'message_type',
      'status',
      'payload',
      'sealed_secret',
      'attempts',
      'next_attempt_at',
      'last_status_code',
      'last_error',
      'delivered_at',
      'created_at',
      'updated_at',
    ])
    .where('org_id', '=', orgId);
  const { before, beforeId } = page;
  if (before !== undefined) {
    query =
      beforeId === undefined
        ? query.where('created_at', '<', before)
        : query.where((eb) =>
            eb.or([
              eb('created_at', '<', before),
              eb.and([eb('created_at', '=', before), eb('id', '<', beforeId)]),
            ]),
          );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'status_code', 'error', 'duration_ms', 'at'])
    .where(
      'delivery_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('attempt')
    .execute();
  const byDelivery = new Map<string, WebhookAttemptView[]>();
  for (const row of attempts) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push({
      attempt: row.attempt,
      statusCode: row.status_code,
      error: row.error,
      durationMs: row.duration_ms,
      at: row.at,
    });
    byDelivery.set(row.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    callId: row.call_id,
    url: row.url,
    messageType: row.message_type,
    status: row.status,
    payload: JSON.parse(row.payload) as unknown,
    withSecret: row.sealed_secret !== null,
    attemptCount: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    attempts: byDelivery.get(row.id) ?? [],
  }));
}
