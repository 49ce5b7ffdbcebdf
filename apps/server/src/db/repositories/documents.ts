import type { SecretBox } from '../../security/secret-box.js';
import { joinSecrets, splitSecrets } from '../../security/secret-fields.js';

/**
 * Resources stored as a JSON document (`data`) with their write-only fields sealed apart
 * (`secrets`): assistants, calls, credentials, phone numbers.
 */
export type Document = Record<string, unknown>;

/** The resource fields the server owns; clients cannot set them through the body. */
const SERVER_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];

export interface StoredDocument<T extends Document = Document> {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
  /** The whole document, secrets included: mask before answering. */
  body: T;
}

/** Splits a document into the JSON to store and the sealed secrets. */
export function packDocument(
  box: SecretBox,
  body: Document,
  secretPaths: readonly string[],
  context: string,
): { data: string; secrets: string | null } {
  const withoutServerFields = Object.fromEntries(
    Object.entries(body).filter(([key]) => !SERVER_FIELDS.includes(key)),
  );
  const { open, secrets } = splitSecrets(withoutServerFields, secretPaths);
  return { data: JSON.stringify(open), secrets: box.sealJson(secrets, context) };
}

/** A document's row as stored: the open JSON and the sealed secrets, not yet unpacked. */
export interface DocumentRow {
  id: string;
  org_id: string;
  data: string;
  secrets: string | null;
  created_at: string;
  updated_at: string;
}

export function unpackDocument<T extends Document>(
  box: SecretBox,
  row: DocumentRow,
  context: string,
): StoredDocument<T> {
  const open = JSON.parse(row.data) as Document;
  return {
    id: row.id,
    orgId: row.org_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    body: joinSecrets(open, box.openJson(row.secrets, context)) as T,
  };
}
