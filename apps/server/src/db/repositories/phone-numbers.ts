import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PhoneNumber } from '@talkbooth/protocol';
import type { SecretBox } from '../../security/secret-box.js';
import { applyListFilters, type ListFilters } from '../list-filters.js';
import type { Database, PhoneNumberTable } from '../schema.js';
import { packDocument, unpackDocument } from './documents.js';

export const PHONE_NUMBER_SECRET_PATHS = ['serverUrlSecret'] as const;

/** A phone number as the API shows it, secrets included: mask before answering. */
export type StoredPhoneNumber = PhoneNumber;

/** What a phone number is made of, before the server adds id and times. */
export interface PhoneNumberFields {
  provider: 'twilio' | 'vonage';
  number: string;
  assistantId?: string | undefined;
  credentialId?: string | undefined;
  /** Everything else the API carries (name, twilioAccountSid, serverUrl, unknown fields…). */
  [field: string]: unknown;
}

const context = (id: string) => `phone_numbers:${id}`;
const COLUMN_KEYS = ['provider', 'number', 'assistantId', 'credentialId'];

/** Phone numbers of one organisation. The number is unique within the organisation. */
export class PhoneNumberRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  async create(
    orgId: string,
    fields: PhoneNumberFields,
    now: Date,
    trx: Kysely<Database> = this.db,
  ): Promise<StoredPhoneNumber> {
    const id = crypto.randomUUID();
    const at = now.toISOString();
    const row: PhoneNumberTable = {
      id,
      org_id: orgId,
      ...this.pack(id, fields),
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('phone_numbers').values(row).execute();
    return this.unpack(row);
  }

  async list(orgId: string, filters: ListFilters): Promise<StoredPhoneNumber[]> {
    const rows = await applyListFilters(
      this.db.selectFrom('phone_numbers').selectAll().where('org_id', '=', orgId),
      filters,
    ).execute();
    return rows.map((row) => this.unpack(row));
  }

  async get(orgId: string, id: string): Promise<StoredPhoneNumber | undefined> {
    const row = await this.db
      .selectFrom('phone_numbers')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : this.unpack(row);
  }

  async replace(
    orgId: string,
    id: string,
    fields: PhoneNumberFields,
    now: Date,
  ): Promise<StoredPhoneNumber | undefined> {
    const result = await this.db
      .updateTable('phone_numbers')
      .set({ ...this.pack(id, fields), updated_at: now.toISOString() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows === 0n ? undefined : this.get(orgId, id);
  }

  async delete(orgId: string, id: string): Promise<StoredPhoneNumber | undefined> {
    const stored = await this.get(orgId, id);
    if (stored === undefined) return undefined;
    await this.db
      .deleteFrom('phone_numbers')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    return stored;
  }

  private pack(id: string, fields: PhoneNumberFields) {
    const rest = Object.fromEntries(
      Object.entries(fields).filter(([key]) => !COLUMN_KEYS.includes(key)),
    );
    return {
      provider: fields.provider,
      number: fields.number,
      assistant_id: fields.assistantId ?? null,
      credential_id: fields.credentialId ?? null,
      ...packDocument(this.box, rest, PHONE_NUMBER_SECRET_PATHS, context(id)),
    };
  }

  private unpack(row: PhoneNumberTable): StoredPhoneNumber {
    const stored = unpackDocument(this.box, row, context(row.id));
    return {
      ...stored.body,
      provider: row.provider,
      number: row.number,
      ...(row.assistant_id === null ? {} : { assistantId: row.assistant_id }),
      ...(row.credential_id === null ? {} : { credentialId: row.credential_id }),
      id: stored.id,
      orgId: stored.orgId,
      createdAt: stored.createdAt,
      updatedAt: stored.updatedAt,
    };
  }
}
