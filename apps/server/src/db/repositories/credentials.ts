import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { SECRET_FIELDS, type CreateCredential } from '@talkbooth/protocol';
import type { SecretBox } from '../../security/secret-box.js';
import { applyListFilters, type ListFilters } from '../list-filters.js';
import type { CredentialTable, Database } from '../schema.js';
import { packDocument, unpackDocument, type StoredDocument } from './documents.js';

export type StoredCredential = StoredDocument<CreateCredential & Record<string, unknown>>;

/** The secret fields of a provider's credential. */
export const credentialSecretPaths = (provider: string): readonly string[] =>
  SECRET_FIELDS[provider] ?? ['apiKey'];

const context = (id: string) => `credentials:${id}`;

/** Credentials of one organisation: secrets sealed at rest, never stored in the clear. */
export class CredentialRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  async create(
    orgId: string,
    body: CreateCredential,
    now: Date,
    trx: Kysely<Database> = this.db,
  ): Promise<StoredCredential> {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    const row: CredentialTable = {
      id,
      org_id: orgId,
      provider: body.provider,
      ...this.pack(id, body),
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('credentials').values(row).execute();
    return this.unpack(row);
  }

  async list(orgId: string, filters: ListFilters): Promise<StoredCredential[]> {
    const rows = await applyListFilters(
      this.db.selectFrom('credentials').selectAll().where('org_id', '=', orgId),
      filters,
    ).execute();
    return rows.map((row) => this.unpack(row));
  }

  async get(orgId: string, id: string): Promise<StoredCredential | undefined> {
    const row = await this.db
      .selectFrom('credentials')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : this.unpack(row);
  }

  async replace(
    orgId: string,
    id: string,
    body: CreateCredential,
    now: Date,
  ): Promise<StoredCredential | undefined> {
    const result = await this.db
      .updateTable('credentials')
      .set({ provider: body.provider, ...this.pack(id, body), updated_at: now.toISOString() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows === 0n ? undefined : this.get(orgId, id);
  }

  /** The newest credential of each provider: what a call uses to reach hosted providers. */
  async newestByProvider(orgId: string): Promise<StoredCredential[]> {
    const rows = await this.db
      .selectFrom('credentials')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at', 'desc')
      .execute();
    const seen = new Set<string>();
    return rows
      .filter((row) => !seen.has(row.provider) && seen.add(row.provider))
      .map((row) => this.unpack(row));
  }

  /** The phone numbers that use a credential (a credential in use cannot be deleted). */
  async usedBy(orgId: string, id: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('phone_numbers')
      .select('number')
      .where('org_id', '=', orgId)
      .where('credential_id', '=', id)
      .execute();
    return rows.map((row) => row.number);
  }

  async delete(orgId: string, id: string): Promise<StoredCredential | undefined> {
    const stored = await this.get(orgId, id);
    if (stored === undefined) return undefined;
    await this.db
      .deleteFrom('credentials')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    return stored;
  }

  private pack(id: string, body: CreateCredential) {
    return packDocument(this.box, body, credentialSecretPaths(body.provider), context(id));
  }

  private unpack(row: CredentialTable): StoredCredential {
    return unpackDocument(this.box, row, context(row.id));
  }
}
