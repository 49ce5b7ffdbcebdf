import { z } from 'zod';
import { isoDateTime, listQuerySchema, resourceFields } from './common.js';

/**
 * Access codes (UniCodes), our extension: a visitor enters one to reach an assistant.
 * Only a keyed hash is stored, so the code is shown once, when it is created.
 */
export const createAccessCodeSchema = z.object({
  assistantId: z
    .string({ error: 'Give the assistantId the code opens.' })
    .min(1, { error: 'Give the assistantId the code opens.' }),
  /** A code of your own (6–64 letters, digits, "-" or "_"); otherwise one is generated. */
  code: z
    .string()
    .regex(/^[\p{L}\p{N}_-]{6,64}$/u, { error: 'A code is 6 to 64 letters, digits, "-" or "_".' })
    .optional(),
  label: z.string().max(200).optional(),
  expiresAt: isoDateTime.optional(),
  maxUses: z
    .number()
    .int()
    .min(1, { error: 'maxUses is a whole number of at least 1.' })
    .optional(),
});
export type CreateAccessCode = z.input<typeof createAccessCodeSchema>;

export const ACCESS_CODE_STATUSES = ['active', 'revoked', 'expired', 'used-up'] as const;

export const accessCodeSchema = z.object({
  ...resourceFields,
  assistantId: z.string(),
  label: z.string().nullable(),
  expiresAt: z.string().nullable(),
  maxUses: z.number().nullable(),
  useCount: z.number(),
  revokedAt: z.string().nullable(),
  status: z.enum(ACCESS_CODE_STATUSES),
});
export type AccessCode = z.infer<typeof accessCodeSchema>;

/** The answer to a create: the only time the code itself is shown. */
export const createdAccessCodeSchema = accessCodeSchema.extend({ code: z.string() });
export type CreatedAccessCode = z.infer<typeof createdAccessCodeSchema>;

export const accessCodeListQuerySchema = listQuerySchema.extend({
  assistantId: z.string().min(1).optional(),
});
