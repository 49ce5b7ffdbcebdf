import { z } from 'zod';

/** An ISO-8601 date-time such as `2024-05-01T12:00:00.000Z` (any offset accepted). */
export const isoDateTime = z.iso.datetime({
  offset: true,
  error: 'Use an ISO-8601 date and time, like 2024-05-01T12:00:00Z.',
});

/** A phone number in E.164 form: `+` and up to 15 digits, no spaces. */
export const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, {
  error: 'Use the E.164 form: + and 7 to 15 digits, like +14155550123.',
});

/** Free-form key/value data kept as given. */
export const metadataSchema = z.record(z.string(), z.unknown());

/** The fields every stored resource carries. */
export const resourceFields = {
  id: z.string(),
  orgId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const idParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 1000;

/** The list filters every collection takes; results are newest first. */
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${LIST_LIMIT_MAX}.` })
    .int({ error: `limit must be a whole number from 1 to ${LIST_LIMIT_MAX}.` })
    .min(1, { error: `limit must be a whole number from 1 to ${LIST_LIMIT_MAX}.` })
    .max(LIST_LIMIT_MAX, { error: `limit must be at most ${LIST_LIMIT_MAX}.` })
    .default(LIST_LIMIT_DEFAULT),
  createdAtGt: isoDateTime.optional(),
  createdAtLt: isoDateTime.optional(),
  createdAtGe: isoDateTime.optional(),
  createdAtLe: isoDateTime.optional(),
  updatedAtGt: isoDateTime.optional(),
  updatedAtLt: isoDateTime.optional(),
  updatedAtGe: isoDateTime.optional(),
  updatedAtLe: isoDateTime.optional(),
});
export type ListQuery = z.input<typeof listQuerySchema>;
