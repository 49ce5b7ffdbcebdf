import { z } from 'zod';
import { LIMITS } from './app-api.js';

/**
 * The operator console's own API (`/console/api`), used by the console pages with the
 * session cookie. Assistants and access codes are managed through the platform API with
 * the same session; these are the parts the platform API has no place for.
 */

export const ACCOUNT_ROLES = ['owner', 'admin', 'viewer'] as const;
export const accountRoleSchema = z.enum(ACCOUNT_ROLES, {
  error: 'The role must be owner, admin or viewer.',
});
export type AccountRole = z.infer<typeof accountRoleSchema>;

const NOT_AN_OBJECT = 'The request body must be a JSON object.';

const newPassword = z
  .string({ error: 'Enter a new password.' })
  .min(LIMITS.passwordMinLength, {
    error: `Use a password of at least ${LIMITS.passwordMinLength} characters.`,
  })
  .max(LIMITS.passwordMaxLength, {
    error: `Use a password of at most ${LIMITS.passwordMaxLength} characters.`,
  });

/** `POST /console/api/sign-in`. */
export const signInRequestSchema = z.object(
  {
    email: z
      .string({ error: 'Enter your e-mail address.' })
      .trim()
      .min(1, { error: 'Enter your e-mail address.' })
      .max(LIMITS.emailMaxLength, { error: 'This e-mail address is too long.' }),
    password: z
      .string({ error: 'Enter your password.' })
      .min(1, { error: 'Enter your password.' })
      .max(LIMITS.passwordMaxLength, { error: 'This password is too long.' }),
  },
  { error: NOT_AN_OBJECT },
);
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** Who is signed in: `GET /console/api/account`, and the answer to a sign-in. */
export const accountSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: accountRoleSchema,
  organisation: z.object({ id: z.string(), name: z.string() }),
});
export type Account = z.infer<typeof accountSchema>;

/** `POST /console/api/account/password`. */
export const changePasswordRequestSchema = z.object(
  {
    currentPassword: z
      .string({ error: 'Enter your current password.' })
      .min(1, { error: 'Enter your current password.' })
      .max(LIMITS.passwordMaxLength, { error: 'This password is too long.' }),
    newPassword,
  },
  { error: NOT_AN_OBJECT },
);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** A member of the organisation, as the team page lists it. */
export const memberSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: accountRoleSchema,
  createdAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

/** An open invite link (its token is shown once, when it is made). */
export const inviteSchema = z.object({
  id: z.string(),
  role: accountRoleSchema,
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type Invite = z.infer<typeof inviteSchema>;

export const teamSchema = z.object({
  members: z.array(memberSchema),
  invites: z.array(inviteSchema),
});
export type Team = z.infer<typeof teamSchema>;

/** `POST /console/api/team/invites`. */
export const createInviteRequestSchema = z.object(
  { role: accountRoleSchema.default('viewer') },
  { error: NOT_AN_OBJECT },
);
export type CreateInviteRequest = z.input<typeof createInviteRequestSchema>;

/** The new invite with its link: shown once. */
export const createdInviteSchema = inviteSchema.extend({ url: z.string() });
export type CreatedInvite = z.infer<typeof createdInviteSchema>;

/** `PATCH /console/api/team/members/:id`. */
export const updateMemberRequestSchema = z.object(
  { role: accountRoleSchema },
  { error: NOT_AN_OBJECT },
);

/** `POST /console/api/team/members/:id/reset-password`: a one-time password, shown once. */
export const passwordResetSchema = z.object({ temporaryPassword: z.string() });
export type PasswordReset = z.infer<typeof passwordResetSchema>;

/** A platform API key as the console lists it: never the key itself. */
export const apiKeySchema = z.object({
  id: z.string(),
  kind: z.enum(['private', 'public']),
  name: z.string(),
  hint: z.string(),
  allowedOrigins: z.array(z.string()),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `POST /console/api/keys`. */
export const createApiKeyRequestSchema = z.object(
  {
    kind: z.enum(['private', 'public'], { error: 'The kind must be private or public.' }),
    name: z
      .string({ error: 'Give the key a name.' })
      .trim()
      .min(1, { error: 'Give the key a name.' })
      .max(80, { error: 'Use at most 80 characters for the name.' }),
    allowedOrigins: z
      .array(
        z.string().regex(/^https?:\/\/[^/\s]+$/, {
          error: 'An origin looks like https://clinic.example (no path).',
        }),
      )
      .max(20, { error: 'At most 20 origins.' })
      .default([]),
  },
  { error: NOT_AN_OBJECT },
);
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

/** The new key: the only time it is shown. */
export const createdApiKeySchema = z.object({ key: z.string(), record: apiKeySchema });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
