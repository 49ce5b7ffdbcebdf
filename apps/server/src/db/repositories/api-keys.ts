import { sql, type Kysely } from 'kysely';
import type { ApiKeyKind } from '../../security/api-keys.js';
import type { ApiKeyTable, Database } from '../schema.js';

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  kind: ApiKeyKind;
  name: string;
  hint: string;
  allowedOrigins: string[];
  revokedAt: string | null;
  createdAt: string;
}

export interface NewApiKey {
  id: string;
  orgId: string;
  kind: ApiKeyKind;
  name: string;
  keyHash: string;
  hint: string;
  allowedOrigins: string[];
  sealedKey: string | null;
}

const originsOf = (column: string | null): string[] =>
  column === null ? [] : (JSON.parse(column) as string[]);

const toRecord = (row: ApiKeyTable): ApiKeyRecord => ({
  id: row.id,
  orgId: row.org_id,
  kind: row.kind,
  name: row.name,
  hint: row.key_hint,
  allowedOrigins: originsOf(row.allowed_origins),
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
});

export class ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(key: NewApiKey, now: Date): Promise<ApiKeyRecord> {
    const at = now.toISOString();
    const row: ApiKeyTable = {
      id: key.id,
      org_id: key.orgId,
      kind: key.kind,
      name: key.name,
      key_hash: key.keyHash,
      key_hint: key.hint,
      allowed_origins: key.allowedOrigins.length === 0 ? null : JSON.stringify(key.allowedOrigins),
      sealed_key: key.sealedKey,
      revoked_at: null,
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return toRecord(row);
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  }

  /** How many keys of the kind the organisation has ever had (revoked ones too). */
  async countEver(orgId: string, kind: ApiKeyKind): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('org_id', '=', orgId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countActive(orgId: string, kind: ApiKeyKind): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('org_id', '=', orgId)
      .where('kind', '=', kind)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The public key to hand the web app (sealed, with its id): the newest active one that
   * works from any origin, else the newest active one.
   */
  async newestActivePublic(
    orgId: string,
  ): Promise<{ id: string; sealedKey: string; allowedOrigins: string[] } | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'sealed_key', 'allowed_origins'])
      .where('org_id', '=', orgId)
      .where('kind', '=', 'public')
      .where('revoked_at', 'is', null)
      .where('sealed_key', 'is not', null)
      .orderBy(sql`case when allowed_origins is null then 0 else 1 end`)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row?.sealed_key == null
      ? undefined
      : {
          id: row.id,
          sealedKey: row.sealed_key,
          allowedOrigins: originsOf(row.allowed_origins),
        };
  }

  async list(orgId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toRecord);
  }

  /** Revokes one of the organisation's keys; undefined when it has no key with that id. */
  async revoke(orgId: string, id: string, now: Date): Promise<ApiKeyRecord | undefined> {
    const at = now.toISOString();
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  }
}
