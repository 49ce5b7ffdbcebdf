import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { withoutServerWrittenCallFields, type Call } from '@talkbooth/protocol';
import type { SecretBox } from '../../security/secret-box.js';
import { hashToken, randomToken } from '../../security/tokens.js';
import { applyListFilters, type ListFilters } from '../list-filters.js';
import { lockingRead } from '../row-locks.js';
import type { CallTable, Database } from '../schema.js';
import { packDocument, unpackDocument } from './documents.js';

export const CALL_SECRET_PATHS = [
  'assistant.serverUrlSecret',
  'assistantOverrides.serverUrlSecret',
] as const;

/** The call fields kept in their own columns (for filters and metrics); the rest is JSON. */
export interface CallColumns {
  type: Call['type'];
  status: Call['status'];
  assistantId?: string | undefined;
  endedReason?: string | undefined;
  startedAt?: string | undefined;
  endedAt?: string | undefined;
  cost?: number | undefined;
}

/** A call with its secrets (inline assistants may carry a serverUrlSecret): mask before answering. */
export type StoredCall = Call;

export type JoinTokenProblem = 'unknown' | 'used' | 'expired';

/** Who serves a live call, and until when unless renewed. */
export interface CallLease {
  owner: string;
  expiresAt: Date;
}

/** A call ended because nobody was serving it any more. */
export interface AbandonedCall {
  id: string;
  reason: 'server-crashed' | 'worker-lost' | 'call-start-timeout';
}

/** A write that changed a call: what its server messages (webhooks/) are made from. */
export interface CallChange {
  /** The call as the write leaves it (secrets included: never answer it as it is). */
  call: StoredCall;
  /** Its status before the write (null for a call just created). */
  previousStatus: string | null;
  /** How many lines its `messages` held before the write. */
  previousMessageCount: number;
}

/**
 * Told of every write that starts, ends or adds to a call, inside the transaction that
 * writes it, so what it queues is stored with the change or not at all (see
 * webhooks/call-server-messages.ts).
 */
export interface CallChangeListener {
  /** Runs in the write's transaction; true when it queued something. */
  changed(trx: Kysely<Database>, change: CallChange): Promise<boolean>;
  /** Runs once that transaction has committed, when `changed` answered true. */
  committed(): void;
}

/** Statuses of a call that somebody is (or should be) serving. */
const LIVE_STATUSES = ['ringing', 'in-progress', 'forwarding'];

const context = (id: string) => `calls:${id}`;
/** Keys the server owns: kept in columns, or (webCallUrl) only ever in the create answer. */
const SERVER_OWNED_KEYS: readonly string[] = [
  'type',
  'status',
  'assistantId',
  'endedReason',
  'startedAt',
  'endedAt',
  'cost',
  'webCallUrl',
];

/** Calls of one organisation, and the single-use tokens that let a browser join a web call. */
/** Leases held by a voice worker (ROLE=voice) start with this: its lost calls are `worker-lost`. */
export const VOICE_WORKER_OWNER = 'voice@';

const ABANDONED_DETAIL: Record<AbandonedCall['reason'], string> = {
  'call-start-timeout': 'Nobody opened the call link before it expired.',
  'server-crashed':
    'The server serving this call stopped without ending it (it crashed or was killed); the call was ended when its lease ran out.',
  'worker-lost':
    'The voice worker serving this call stopped without ending it (it crashed or was killed); another process ended the call when its lease ran out.',
};

export class CallRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    /** Told of each status change and conversation growth (the server messages). */
    private readonly listener?: CallChangeListener,
  ) {}

  async create(
    orgId: string,
    columns: CallColumns,
    body: Record<string, unknown>,
    now: Date,
    id: string = crypto.randomUUID(),
  ): Promise<StoredCall> {
    const at = now.toISOString();
    const row: CallTable = {
      id,
      org_id: orgId,
      ...toColumns(columns),
      ...packDocument(
        this.box,
        withoutKeys(withoutServerWrittenCallFields(body), SERVER_OWNED_KEYS),
        CALL_SECRET_PATHS,
        context(id),
      ),
      lease_owner: null,
      lease_expires_at: null,
      created_at: at,
      updated_at: at,
    };
    // A call recorded as already over (a phone call refused) reports its end.
    if (this.listener === undefined || columns.status !== 'ended') {
      await this.db.insertInto('calls').values(row).execute();
      return this.unpack(row);
    }
    return this.withChanges(async (trx, changed) => {
      await trx.insertInto('calls').values(row).execute();
      const call = this.unpack(row);
      await changed?.({ call, previousStatus: null, previousMessageCount: 0 });
      return call;
    });
  }

  async list(
    orgId: string,
    filters: ListFilters & { assistantId?: string | undefined },
  ): Promise<StoredCall[]> {
    let query = this.db.selectFrom('calls').selectAll().where('org_id', '=', orgId);
    if (filters.assistantId !== undefined)
      query = query.where('assistant_id', '=', filters.assistantId);
    const rows = await applyListFilters(query, filters).execute();
    return rows.map((row) => this.unpack(row));
  }

  async get(orgId: string, id: string): Promise<StoredCall | undefined> {
    const row = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : this.unpack(row);
  }

  /** A call by id alone: for the call socket, whose single-use token stands for the org. */
  async getById(id: string): Promise<StoredCall | undefined> {
    const row = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : this.unpack(row);
  }

  /**
   * Writes a live call's progress: column fields (status, times, reason) and top-level
   * document fields (messages, transcript…), replacing the keys given. A read-modify-write
   * in a transaction that locks the row, so a sweep ending the call meanwhile waits. The first ending
   * stands: once a call is ended (by its session, or by the sweep for a lost lease), a later
   * write keeps its status, time and reason.
   */
  async update(
    id: string,
    columns: Partial<CallColumns>,
    fields: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await this.withChanges(async (trx, changed) => {
      const row = await trx
        .selectFrom('calls')
        .selectAll()
        .where('id', '=', id)
        .$call(lockingRead(trx))
        .executeTakeFirst();
      if (row === undefined) return;
      const before = JSON.parse(row.data) as Record<string, unknown>;
      const data = { ...before, ...withoutKeys(fields, SERVER_OWNED_KEYS) };
      const set: Partial<CallTable> = { data: JSON.stringify(data), updated_at: now.toISOString() };
      if (row.status !== 'ended') {
        if (columns.status !== undefined) set.status = columns.status;
        if (columns.startedAt !== undefined) set.started_at = columns.startedAt;
        if (columns.endedAt !== undefined) set.ended_at = columns.endedAt;
        if (columns.endedReason !== undefined) set.ended_reason = columns.endedReason;
      }
      if (columns.cost !== undefined) set.cost = columns.cost;
      await trx.updateTable('calls').set(set).where('id', '=', id).execute();
      await changed?.({
        call: this.unpack({ ...row, ...set }),
        previousStatus: row.status,
        previousMessageCount: Array.isArray(before.messages) ? before.messages.length : 0,
      });
    });
  }

  /**
   * A queued call's caller connected: it is in progress from `startedAt`, served under
   * `lease`. False when the call is no longer queued (it started elsewhere, or was ended).
   */
  async markStarted(id: string, lease: CallLease, startedAt: Date): Promise<boolean> {
    const at = startedAt.toISOString();
    return this.withChanges(async (trx, changed) => {
      const result = await trx
        .updateTable('calls')
        .set({
          status: 'in-progress',
          started_at: at,
          updated_at: at,
          lease_owner: lease.owner,
          lease_expires_at: lease.expiresAt.toISOString(),
        })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (result.numUpdatedRows !== 1n) return false;
      if (changed !== undefined) {
        const row = await trx
          .selectFrom('calls')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const call = this.unpack(row);
        await changed({
          call,
          previousStatus: 'queued',
          previousMessageCount: call.messages?.length ?? 0,
        });
      }
      return true;
    });
  }

  /**
   * Renews `owner`'s lease on the live calls `ids`; answers the ids it no longer holds (the
   * call was ended meanwhile, or its lease ran out and the sweep ended it).
   */
  async renewLeases(ids: readonly string[], lease: CallLease): Promise<string[]> {
    if (ids.length === 0) return [];
    await this.db
      .updateTable('calls')
      .set({ lease_expires_at: lease.expiresAt.toISOString() })
      .where('id', 'in', ids)
      .where('lease_owner', '=', lease.owner)
      .where('status', 'in', LIVE_STATUSES)
      .execute();
    const held = await this.db
      .selectFrom('calls')
      .select('id')
      .where('id', 'in', ids)
      .where('lease_owner', '=', lease.owner)
      .where('status', 'in', LIVE_STATUSES)
      .execute();
    const still = new Set(held.map((row) => row.id));
    return ids.filter((id) => !still.has(id));
  }

  /**
   * Ends the calls nobody serves: live calls whose lease ran out by `now` (or that never
   * had one) as `server-crashed` (`worker-lost` when a voice worker held it), and web calls still queued that were created before
   * `queuedBefore` (their link expired unopened) as `call-start-timeout`. Every message
   * written so far stays; the end time is when the lease ran out. Each end is conditional
   * on the row being unchanged, so a renewal or a start racing the sweep wins.
   */
  async endAbandoned(now: Date, queuedBefore: Date): Promise<AbandonedCall[]> {
    const at = now.toISOString();
    const candidates = await this.db
      .selectFrom('calls')
      .select(['id', 'status', 'lease_expires_at', 'lease_owner'])
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', 'in', LIVE_STATUSES),
            eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', at)]),
          ]),
          eb.and([
            eb('status', '=', 'queued'),
            eb('type', '=', 'webCall'),
            eb('created_at', '<', queuedBefore.toISOString()),
          ]),
        ]),
      )
      .execute();
    const ended: AbandonedCall[] = [];
    for (const candidate of candidates) {
      const reason =
        candidate.status === 'queued'
          ? 'call-start-timeout'
          : candidate.lease_owner?.startsWith(VOICE_WORKER_OWNER) === true
            ? 'worker-lost'
            : 'server-crashed';
      const detail = ABANDONED_DETAIL[reason];
      const done = await this.withChanges(async (trx, changed) => {
        const row = await trx
          .selectFrom('calls')
          .selectAll()
          .where('id', '=', candidate.id)
          .$call(lockingRead(trx))
          .executeTakeFirst();
        if (
          row === undefined ||
          row.status !== candidate.status ||
          row.lease_expires_at !== candidate.lease_expires_at
        ) {
          return false;
        }
        const before = JSON.parse(row.data) as Record<string, unknown>;
        const set = {
          status: 'ended',
          ended_reason: reason,
          ended_at:
            row.lease_expires_at !== null && row.lease_expires_at < at ? row.lease_expires_at : at,
          data: JSON.stringify({ ...before, endedDetail: detail }),
          updated_at: at,
        };
        await trx.updateTable('calls').set(set).where('id', '=', candidate.id).execute();
        await changed?.({
          call: this.unpack({ ...row, ...set }),
          previousStatus: row.status,
          previousMessageCount: Array.isArray(before.messages) ? before.messages.length : 0,
        });
        return true;
      });
      if (done) ended.push({ id: candidate.id, reason });
    }
    return ended;
  }

  /** Calls created in [start, end), oldest first: the input of the metrics. */
  async createdBetween(orgId: string, start: Date, end: Date): Promise<StoredCall[]> {
    const rows = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('created_at', '>=', start.toISOString())
      .where('created_at', '<', end.toISOString())
      .orderBy('created_at')
      .execute();
    return rows.map((row) => this.unpack(row));
  }

  async countInProgress(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('org_id', '=', orgId)
      .where('status', 'in', ['ringing', 'in-progress', 'forwarding'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Stores a call's recording (replacing any earlier one for the call). */
  async saveRecording(
    callId: string,
    contentType: string,
    audio: Buffer,
    now: Date,
  ): Promise<void> {
    await this.db
      .insertInto('call_recordings')
      .values({ call_id: callId, content_type: contentType, audio, created_at: now.toISOString() })
      .onConflict((conflict) =>
        conflict.column('call_id').doUpdateSet({ content_type: contentType, audio }),
      )
      .execute();
  }

  /** A call's recording, when one was stored. */
  async recording(callId: string): Promise<{ contentType: string; audio: Buffer } | undefined> {
    const row = await this.db
      .selectFrom('call_recordings')
      .select(['content_type', 'audio'])
      .where('call_id', '=', callId)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : { contentType: row.content_type, audio: Buffer.from(row.audio) };
  }

  /** A new single-use token for joining the call, valid for `ttlMs`. Only its hash is kept. */
  async issueJoinToken(callId: string, ttlMs: number, now: Date): Promise<string> {
    const token = randomToken(32);
    await this.db
      .insertInto('call_join_tokens')
      .values({
        token_hash: hashToken(token),
        call_id: callId,
        expires_at: new Date(now.getTime() + ttlMs).toISOString(),
        used_at: null,
      })
      .execute();
    return token;
  }

  /**
   * Spends a join token: answers the call id the first time within its lifetime, and why
   * not otherwise. The update is conditional, so two sockets racing for one token cannot
   * both win.
   */
  async redeemJoinToken(
    token: string,
    now: Date,
  ): Promise<{ callId: string } | { problem: JoinTokenProblem }> {
    const tokenHash = hashToken(token);
    const at = now.toISOString();
    const row = await this.db
      .selectFrom('call_join_tokens')
      .select(['call_id', 'expires_at', 'used_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined) return { problem: 'unknown' };
    if (row.used_at !== null) return { problem: 'used' };
    if (row.expires_at <= at) return { problem: 'expired' };
    const spent = await this.db
      .updateTable('call_join_tokens')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return spent.numUpdatedRows === 1n ? { callId: row.call_id } : { problem: 'used' };
  }

  /**
   * Runs `write` in a transaction, with `changed` telling the listener (when there is one)
   * of the change inside it; once committed, the listener hears that it was.
   */
  private async withChanges<T>(
    write: (
      trx: Kysely<Database>,
      /** Undefined without a listener: `changed?.(…)` then skips building the change. */
      changed: ((change: CallChange) => Promise<void>) | undefined,
    ) => Promise<T>,
  ): Promise<T> {
    const { listener } = this;
    let queued = false;
    const result = await this.db.transaction().execute((trx) =>
      write(
        trx,
        listener === undefined
          ? undefined
          : async (change) => {
              if (await listener.changed(trx, change)) queued = true;
            },
      ),
    );
    if (queued) listener?.committed();
    return result;
  }

  private unpack(row: CallTable): StoredCall {
    const stored = unpackDocument(this.box, row, context(row.id));
    const columns: Record<string, unknown> = {
      type: row.type,
      status: row.status,
      assistantId: row.assistant_id ?? undefined,
      endedReason: row.ended_reason ?? undefined,
      startedAt: row.started_at ?? undefined,
      endedAt: row.ended_at ?? undefined,
      cost: row.cost ?? undefined,
    };
    const defined = Object.fromEntries(
      Object.entries(columns).filter(([, value]) => value !== undefined),
    );
    return {
      ...stored.body,
      ...defined,
      id: stored.id,
      orgId: stored.orgId,
      createdAt: stored.createdAt,
      updatedAt: stored.updatedAt,
    } as StoredCall;
  }
}

function toColumns(columns: CallColumns) {
  return {
    type: columns.type,
    status: columns.status,
    assistant_id: columns.assistantId ?? null,
    ended_reason: columns.endedReason ?? null,
    started_at: columns.startedAt ?? null,
    ended_at: columns.endedAt ?? null,
    cost: columns.cost ?? null,
  };
}

function withoutKeys(
  body: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}
