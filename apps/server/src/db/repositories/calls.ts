import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Call } from '@talkbooth/protocol';
import type { SecretBox } from '../../security/secret-box.js';
import { hashToken, randomToken } from '../../security/tokens.js';
import { applyListFilters, type ListFilters } from '../list-filters.js';
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
export class CallRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  async create(
    orgId: string,
    columns: CallColumns,
    body: Record<string, unknown>,
    now: Date,
  ): Promise<StoredCall> {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    const row: CallTable = {
      id,
      org_id: orgId,
      ...toColumns(columns),
      ...packDocument(this.box, withoutServerOwnedKeys(body), CALL_SECRET_PATHS, context(id)),
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('calls').values(row).execute();
    return this.unpack(row);
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
   * document fields (messages, transcript…), replacing the keys given. One writer per
   * call (its session), so read-modify-write in a transaction is enough.
   */
  async update(
    id: string,
    columns: Partial<CallColumns>,
    fields: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('calls')
        .select('data')
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined) return;
      const data = {
        ...(JSON.parse(row.data) as Record<string, unknown>),
        ...withoutServerOwnedKeys(fields),
      };
      const set: Partial<CallTable> = { data: JSON.stringify(data), updated_at: now.toISOString() };
      if (columns.status !== undefined) set.status = columns.status;
      if (columns.startedAt !== undefined) set.started_at = columns.startedAt;
      if (columns.endedAt !== undefined) set.ended_at = columns.endedAt;
      if (columns.endedReason !== undefined) set.ended_reason = columns.endedReason;
      if (columns.cost !== undefined) set.cost = columns.cost;
      await trx.updateTable('calls').set(set).where('id', '=', id).execute();
    });
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

function withoutServerOwnedKeys(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(([key]) => !SERVER_OWNED_KEYS.includes(key)),
  );
}
