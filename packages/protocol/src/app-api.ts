import { z } from 'zod';

/** Limits shared by the server's validation and the browser's form hints. */
export const LIMITS = {
  unicodeMaxLength: 128,
  usernameMinLength: 3,
  usernameMaxLength: 40,
  passwordMinLength: 8,
  passwordMaxLength: 256,
  emailMaxLength: 254,
  feedbackMaxLength: 5000,
} as const;

/** The message for a body that is not a JSON object at all. */
const NOT_AN_OBJECT = 'The request body must be a JSON object.';

/** `POST /api/get-assistant`: the code is sent exactly as the visitor typed it. */
export const getAssistantRequestSchema = z.object(
  {
    unicode: z
      .string({ error: 'Send the access code as a string field "unicode".' })
      .max(LIMITS.unicodeMaxLength, {
        error: `An access code has at most ${LIMITS.unicodeMaxLength} characters.`,
      }),
  },
  { error: 'Send a JSON object like {"unicode": "your code"}.' },
);
export type GetAssistantRequest = z.infer<typeof getAssistantRequestSchema>;

/**
 * What the booth needs after a successful code check. The browser keeps it whole in
 * sessionStorage under `apiResponse`. An unknown code answers `[]` instead (the wire
 * contract existing clients rely on).
 */
export const sessionObjectSchema = z.object({
  assistantId: z.string(),
  assistantName: z.string(),
  product: z.string(),
  /**
   * The public key to start the call with: the code's organisation's (ours only; absent
   * when the web app talks to the hosted platform, whose key comes with the client config).
   */
  platformPublicKey: z.string().optional(),
});
export type SessionObject = z.infer<typeof sessionObjectSchema>;

/** `POST /api/register`. Messages are written for the person filling in the form. */
export const registerRequestSchema = z.object(
  {
    username: z
      .string({ error: 'Enter a username.' })
      .trim()
      .min(1, { error: 'Enter a username.' })
      .min(LIMITS.usernameMinLength, {
        error: `Enter a username of at least ${LIMITS.usernameMinLength} characters.`,
      })
      .max(LIMITS.usernameMaxLength, {
        error: `Use at most ${LIMITS.usernameMaxLength} characters for the username.`,
      }),
    email: z
      .string({ error: 'Enter your e-mail address.' })
      .trim()
      .min(1, { error: 'Enter your e-mail address.' })
      .max(LIMITS.emailMaxLength, { error: 'This e-mail address is too long.' })
      .pipe(z.email({ error: 'Enter a valid e-mail address, like name@example.com.' })),
    password: z
      .string({ error: 'Enter a password.' })
      .min(1, { error: 'Enter a password.' })
      .min(LIMITS.passwordMinLength, {
        error: `Use a password of at least ${LIMITS.passwordMinLength} characters.`,
      })
      .max(LIMITS.passwordMaxLength, {
        error: `Use a password of at most ${LIMITS.passwordMaxLength} characters.`,
      }),
    /** The token of an invite link: the account joins that organisation in the invited role. */
    invite: z
      .string({ error: 'Send the invite as a string field "invite".' })
      .max(200, { error: 'This invite link is not valid.' })
      .optional(),
  },
  { error: NOT_AN_OBJECT },
);
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** The stored account as the API shows it: never the password or its hash. */
export const registeredUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  createdAt: z.string(),
  /** The organisation the account works in, and its role there. */
  organisation: z.object({ id: z.string(), name: z.string() }),
  role: z.enum(['owner', 'admin', 'viewer']),
});
export type RegisteredUser = z.infer<typeof registeredUserSchema>;

/** `POST /api/feedback`: free text and/or a 1–5 rating, tied to the call when known. */
export const feedbackRequestSchema = z
  .object(
    {
      message: z
        .string({ error: 'Send the feedback text as a string field "message".' })
        .trim()
        .max(LIMITS.feedbackMaxLength, {
          error: `Keep the feedback under ${LIMITS.feedbackMaxLength} characters.`,
        })
        .default(''),
      rating: z
        .number({ error: 'The rating must be a whole number from 1 to 5.' })
        .int({ error: 'The rating must be a whole number from 1 to 5.' })
        .min(1, { error: 'The rating must be a whole number from 1 to 5.' })
        .max(5, { error: 'The rating must be a whole number from 1 to 5.' })
        .nullish(),
      callId: z.string().trim().min(1).max(200).nullish(),
      assistantId: z.string().trim().min(1).max(200).nullish(),
    },
    { error: NOT_AN_OBJECT },
  )
  .refine((body) => body.message.length > 0 || body.rating != null, {
    error: 'Write a few words of feedback or give a rating.',
    path: ['message'],
  });
export type FeedbackRequest = z.input<typeof feedbackRequestSchema>;

export const feedbackReceiptSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
});
export type FeedbackReceipt = z.infer<typeof feedbackReceiptSchema>;

/** `GET /api/client-config`: what the browser needs at run time. */
export const clientConfigSchema = z.object({
  product: z.string(),
  productName: z.string(),
  talkHomeUrl: z.string(),
  platformBaseUrl: z.string(),
  /** The platform's public key; null while the server has none to hand out. */
  platformPublicKey: z.string().nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** One document of a product's talk collection (`GET /api/collections/talk-:product`). */
export const talkDocumentSchema = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
});
export type TalkDocument = z.infer<typeof talkDocumentSchema>;

export const talkCollectionSchema = z.array(talkDocumentSchema);
