import { z } from 'zod';
import { e164, resourceFields } from './common.js';

const name = z.string().max(200).optional();
const assistantId = z.string().min(1).optional();
/** Typed alike on import and in answers, so whatever is imported can be answered. */
const serverFields = {
  serverUrl: z.url({ error: 'serverUrl must be an http(s) URL.' }).optional(),
  /** Write-only: stored encrypted, answered masked. */
  serverUrlSecret: z.string().optional(),
};

/** `POST /phone-number/buy`. */
export const buyPhoneNumberSchema = z.looseObject({
  areaCode: z.string().regex(/^\d{3}$/, { error: 'areaCode is three digits, like 415.' }),
  name,
  assistantId,
});
export type BuyPhoneNumber = z.input<typeof buyPhoneNumberSchema>;

/** `POST /phone-number/import/twilio`: the auth token becomes a stored credential. */
export const importTwilioSchema = z.looseObject({
  twilioPhoneNumber: e164,
  twilioAccountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, {
    error: 'A Twilio account SID is AC followed by 32 hex digits.',
  }),
  twilioAuthToken: z.string().min(1, { error: 'Give the Twilio auth token.' }),
  name,
  assistantId,
  ...serverFields,
});
export type ImportTwilio = z.input<typeof importTwilioSchema>;

/** `POST /phone-number/import/vonage`: the credential holds the Vonage key and secret. */
export const importVonageSchema = z.looseObject({
  vonagePhoneNumber: e164,
  credentialId: z.string().min(1, { error: 'Give the id of a vonage credential.' }),
  twilioAccountSid: z.never({ error: 'Only Twilio numbers have a twilioAccountSid.' }).optional(),
  name,
  assistantId,
  ...serverFields,
});
export type ImportVonage = z.input<typeof importVonageSchema>;

/** `PATCH /phone-number/{id}`: `null` clears the assistant or server URL. */
export const updatePhoneNumberSchema = z.looseObject({
  name: z.string().max(200).nullable().optional(),
  assistantId: z.string().min(1).nullable().optional(),
  serverUrl: z.url({ error: 'serverUrl must be an http(s) URL.' }).nullable().optional(),
  /** Write-only: stored encrypted, answered masked. */
  serverUrlSecret: z.string().nullable().optional(),
});
export type UpdatePhoneNumber = z.input<typeof updatePhoneNumberSchema>;

export const phoneNumberSchema = z.looseObject({
  ...resourceFields,
  provider: z.enum(['twilio', 'vonage']),
  number: z.string(),
  name: z.string().optional(),
  assistantId: z.string().optional(),
  credentialId: z.string().optional(),
  twilioAccountSid: z.string().optional(),
  serverUrl: z.string().optional(),
  serverUrlSecret: z.string().optional(),
});
export type PhoneNumber = z.infer<typeof phoneNumberSchema>;
