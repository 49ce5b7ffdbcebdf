import type { Kysely } from 'kysely';
import type { TalkDocument } from '@talkbooth/protocol';
import type { Database } from '../schema.js';

/** A product's talk documents in their stored order; empty when the product has none. */
export async function listTalkDocuments(
  db: Kysely<Database>,
  product: string,
): Promise<TalkDocument[]> {
  const rows = await db
    .selectFrom('talk_documents')
    .select(['doc_id', 'data'])
    .where('product', '=', product)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ ...(JSON.parse(row.data) as object), id: row.doc_id }));
}

export async function insertTalkDocuments(
  db: Kysely<Database>,
  product: string,
  documents: readonly TalkDocument[],
  now: Date,
): Promise<void> {
  if (documents.length === 0) return;
  const at = now.toISOString();
  await db
    .insertInto('talk_documents')
    .values(
      documents.map(({ id, ...rest }, position) => ({
        product,
        doc_id: id,
        position,
        data: JSON.stringify(rest),
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}
