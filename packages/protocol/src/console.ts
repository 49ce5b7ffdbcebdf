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

/** `GET /console/api/calls`: filters and paging of the call list. */
export const callBrowseQuerySchema = z.object({
  page: z.coerce.number().int().min(1, { error: 'page starts at 1' }).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, { error: 'at most 100 per page' }).default(20),
  assistantId: z.string().max(100).optional(),
  status: z.enum(['queued', 'ringing', 'in-progress', 'forwarding', 'ended']).optional(),
  /** Only calls flagged urgent. */
  urgent: z.enum(['true', 'false']).optional(),
  /** Created on or after this instant / before this instant (ISO 8601). */
  from: z.iso.datetime({ error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ error: 'to must be an ISO date-time' }).optional(),
});
export type CallBrowseQuery = z.input<typeof callBrowseQuerySchema>;
/** The query as the server has it after validation (defaults filled in). */
export type CallBrowseFilters = z.output<typeof callBrowseQuerySchema>;

/** One row of the console's call list. */
export const callSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  assistantId: z.string().nullable(),
  assistantName: z.string().nullable(),
  status: z.string(),
  endedReason: z.string().nullable(),
  /** The visitor's latest rating (1–5), if any. */
  rating: z.number().nullable(),
  urgent: z.boolean(),
  /** Whether a brief was started (some answers taken). */
  hasBrief: z.boolean(),
});
export type CallSummary = z.infer<typeof callSummarySchema>;

export const callPageSchema = z.object({
  items: z.array(callSummarySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type CallPage = z.infer<typeof callPageSchema>;

/** What visitors said after a call. */
export const callFeedbackSchema = z.object({
  rating: z.number().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type CallFeedback = z.infer<typeof callFeedbackSchema>;

/** `GET /console/api/usage`: a range of days (UTC), at most a year. */
export const usageQuerySchema = z.object({
  from: z.iso.datetime({ error: 'from must be an ISO date-time' }),
  to: z.iso.datetime({ error: 'to must be an ISO date-time' }),
});

export const usageDaySchema = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string(),
  calls: z.number(),
  minutes: z.number(),
  /** Voice-to-voice latency over the day's turns (ms), null without turns. */
  voiceToVoiceP50Ms: z.number().nullable(),
  voiceToVoiceP95Ms: z.number().nullable(),
  /** Caller questions, and how many got "I do not know". */
  questions: z.number(),
  unanswered: z.number(),
});
export type UsageDay = z.infer<typeof usageDaySchema>;

export const usageSchema = z.object({
  days: z.array(usageDaySchema),
  /** What callers asked that the assistant could not answer, most recent first. */
  unansweredQuestions: z.array(
    z.object({ question: z.string(), callId: z.string(), at: z.string() }),
  ),
});
export type Usage = z.infer<typeof usageSchema>;

/** `GET /console/api/webhooks`: the delivery log, newest first, a page at a time. */
export const webhookDeliveryQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, { error: 'limit is at least 1' })
    .max(100, { error: 'at most 100 per page' })
    .default(25),
  /** Only deliveries created before this instant: the last row's `createdAt`, for the next page. */
  before: z.iso.datetime({ error: 'before must be an ISO date-time' }).optional(),
  /** With `before`: the last row's id, so rows made in the same millisecond are not skipped. */
  beforeId: z.string().max(100).optional(),
});
export type WebhookDeliveryQuery = z.input<typeof webhookDeliveryQuerySchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One try of a delivery. */
export const webhookAttemptSchema = z.object({
  attempt: z.number(),
  /** The listener's HTTP status; null when no answer came. */
  statusCode: z.number().nullable(),
  /** Why the try failed; null when it succeeded. */
  error: z.string().nullable(),
  durationMs: z.number(),
  at: z.string(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** A server message (webhook) to an assistant's serverUrl, as the console lists it: never its secret. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  callId: z.string().nullable(),
  url: z.string(),
  /** The server message's type (`status-update`, `end-of-call-report`, `transcript`…). */
  messageType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** Tries made so far. */
  attemptCount: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  /** Every try, first to last. */
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({
  items: z.array(webhookDeliverySchema),
  /** Whether older deliveries follow the last item. */
  hasMore: z.boolean(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;
