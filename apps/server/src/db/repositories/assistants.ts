import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AssistantDto } from '@talkbooth/protocol';
import type { SecretBox } from '../../security/secret-box.js';
import { applyListFilters, type ListFilters } from '../list-filters.js';
import type { Database } from '../schema.js';
import { lockingRead } from '../row-locks.js';
import {
  packDocument,
  unpackDocument,
  type DocumentRow,
  type StoredDocument,
} from './documents.js';

export const ASSISTANT_SECRET_PATHS = ['serverUrlSecret'] as const;
export type StoredAssistant = StoredDocument<AssistantDto & Record<string, unknown>>;

const context = (id: string) => `assistants:${id}`;
const COLUMNS = ['id', 'org_id', 'data', 'secrets', 'created_at', 'updated_at'] as const;

/** Assistants of one organisation; every query is scoped by `orgId`. */
export class AssistantRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  async create(orgId: string, body: AssistantDto, now: Date): Promise<StoredAssistant> {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    await this.db
      .insertInto('assistants')
      .values({
        id,
        org_id: orgId,
        name: body.name ?? '',
        ...this.pack(id, body),
        created_at: at,
        updated_at: at,
      })
      .execute();
    return this.unpack({
      id,
      org_id: orgId,
      ...this.pack(id, body),
      created_at: at,
      updated_at: at,
    });
  }

  async list(orgId: string, filters: ListFilters): Promise<StoredAssistant[]> {
    return (await this.listRows(orgId, filters)).map((row) => this.unpack(row));
  }

  /**
   * The rows `list` unpacks, still packed (secrets sealed): for an answer that is a function
   * of the stored row alone and is remembered by it (see platform/answer-memo.ts). Unpack
   * one with `unpack` only when it is needed.
   */
  async listRows(orgId: string, filters: ListFilters): Promise<DocumentRow[]> {
    return applyListFilters(
      this.db.selectFrom('assistants').select(COLUMNS).where('org_id', '=', orgId),
      filters,
    ).execute();
  }

  async get(orgId: string, id: string): Promise<StoredAssistant | undefined> {
    const row = await this.db
      .selectFrom('assistants')
      .select(COLUMNS)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : this.unpack(row);
  }

  async exists(orgId: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('assistants')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Assistants visitors can reach by an access code now (not revoked, expired or used
   * up), across organisations, the most recently updated first: the server gets their
   * engines ready at start.
   */
  async reachableByCode(now: Date, limit: number): Promise<StoredAssistant[]> {
    const at = now.toISOString();
    const rows = await this.db
      .selectFrom('assistants as a')
      .select(['a.id', 'a.org_id', 'a.data', 'a.secrets', 'a.created_at', 'a.updated_at'])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('access_codes as c')
            .select('c.id')
            .whereRef('c.assistant_id', '=', 'a.id')
            .where('c.revoked_at', 'is', null)
            .where((code) =>
              code.or([code('c.expires_at', 'is', null), code('c.expires_at', '>', at)]),
            )
            .where((code) =>
              code.or([
                code('c.max_uses', 'is', null),
                code('c.use_count', '<', code.ref('c.max_uses')),
              ]),
            ),
        ),
      )
      .orderBy('a.updated_at', 'desc')
      .orderBy('a.id')
      .limit(limit)
      .execute();
    return rows.map((row) => this.unpack(row));
  }

  /** Replaces the stored definition; undefined when there is no such assistant. */
  async replace(
    orgId: string,
    id: string,
    body: AssistantDto,
    now: Date,
  ): Promise<StoredAssistant | undefined> {
    const at = now.toISOString();
    const packed = this.pack(id, body);
    const result = await this.db
      .updateTable('assistants')
      .set({ name: body.name ?? '', ...packed, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return undefined;
    return this.get(orgId, id);
  }

  async delete(orgId: string, id: string): Promise<StoredAssistant | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('assistants')
        .select(COLUMNS)
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .$call(lockingRead(trx))
        .executeTakeFirst();
      if (row === undefined) return undefined;
      await trx.deleteFrom('assistants').where('org_id', '=', orgId).where('id', '=', id).execute();
      return this.unpack(row);
    });
  }

  private pack(id: string, body: AssistantDto) {
    return packDocument(this.box, body, ASSISTANT_SECRET_PATHS, context(id));
  }

  /** A row as `listRows` answers it, its secrets opened. */
  unpack(row: DocumentRow): StoredAssistant {
    return unpackDocument(this.box, row, context(row.id));
  }
}
