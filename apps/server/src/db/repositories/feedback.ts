import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface NewFeedback {
  product: string;
  message: string;
  rating: number | null;
  callId: string | null;
  assistantId: string | null;
}

export async function insertFeedback(
  db: Kysely<Database>,
  feedback: NewFeedback,
  now: Date,
): Promise<{ id: string; createdAt: string }> {
  const id = crypto.randomUUID();
  const createdAt = now.toISOString();
  await db
    .insertInto('feedback')
    .values({
      id,
      product: feedback.product,
      message: feedback.message,
      rating: feedback.rating,
      call_id: feedback.callId,
      assistant_id: feedback.assistantId,
      created_at: createdAt,
    })
    .execute();
  return { id, createdAt };
}

/** The call feedback names, with its assistant, or undefined when there is no such call. */
export async function findCallOfFeedback(
  db: Kysely<Database>,
  callId: string,
): Promise<{ id: string; assistantId: string | null } | undefined> {
  const row = await db
    .selectFrom('calls')
    .select(['id', 'assistant_id'])
    .where('id', '=', callId)
    .executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, assistantId: row.assistant_id };
}
