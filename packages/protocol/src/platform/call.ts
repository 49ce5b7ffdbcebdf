import { z } from 'zod';
import { assistantDtoSchema } from './assistant.js';
import { e164, listQuerySchema, metadataSchema, resourceFields } from './common.js';

export const CALL_TYPES = ['webCall', 'inboundPhoneCall', 'outboundPhoneCall'] as const;
export const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'forwarding', 'ended'] as const;

/** Per-call changes to the assistant; `variableValues` fill `{{name}}` templates. */
export const assistantOverridesSchema = assistantDtoSchema.extend({
  variableValues: z.record(z.string(), z.unknown()).optional(),
});

export const customerSchema = z.looseObject({
  number: e164.optional(),
  name: z.string().max(200).optional(),
  extension: z.string().max(20).optional(),
});

export const callMessageSchema = z.looseObject({
  role: z.string(),
  message: z.string().optional(),
  content: z.string().optional(),
  time: z.number().optional(),
  secondsFromStart: z.number().optional(),
});

/** The fields of a call a client chooses when it creates one. */
const callRequestFields = {
  assistant: assistantDtoSchema.optional(),
  assistantOverrides: assistantOverridesSchema.optional(),
  customer: customerSchema.optional(),
  phoneNumberId: z.string().min(1).optional(),
  metadata: metadataSchema.optional(),
  maxDurationSeconds: z.number().min(10).max(43_200).optional(),
};

/**
 * What the server writes as the call goes: never taken from a request (a client could
 * otherwise forge a transcript or a cost), whatever key made it.
 */
const callResultFields = {
  costBreakdown: z.record(z.string(), z.unknown()).optional(),
  transcript: z.string().optional(),
  recordingUrl: z.string().optional(),
  summary: z.string().optional(),
  messages: z.array(callMessageSchema).optional(),
};

/** Document keys only the server writes; dropped from create requests. */
export const SERVER_WRITTEN_CALL_FIELDS: readonly string[] = [
  ...Object.keys(callResultFields),
  'analysis',
  'artifact',
  'latency',
  'providers',
  'endedDetail',
];

/** A create request without the fields only the server writes. */
export function withoutServerWrittenCallFields(
  body: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(([key]) => !SERVER_WRITTEN_CALL_FIELDS.includes(key)),
  );
}

const oneAssistant = (body: { assistantId?: string | undefined; assistant?: unknown }) =>
  (body.assistantId !== undefined) !== (body.assistant !== undefined);
const ASSISTANT_REQUIRED = {
  error: 'Give either assistantId (a stored assistant) or assistant (an inline one), not both.',
  path: ['assistantId'],
};

/** `POST /call/web`. */
export const createWebCallSchema = z
  .looseObject({
    ...callRequestFields,
    assistantId: z.string().min(1).optional(),
  })
  .refine(oneAssistant, ASSISTANT_REQUIRED);
export type CreateWebCall = z.input<typeof createWebCallSchema>;

/** `POST /call/phone`. */
export const createPhoneCallSchema = z
  .looseObject({
    ...callRequestFields,
    assistantId: z.string().min(1).optional(),
    customerId: z.string().min(1).optional(),
    phoneNumber: z
      .looseObject({ twilioPhoneNumber: e164.optional(), number: e164.optional() })
      .optional(),
  })
  .refine(oneAssistant, ASSISTANT_REQUIRED)
  .refine((body) => body.customer !== undefined || body.customerId !== undefined, {
    error: 'Give the customer to call (customer.number) or a customerId.',
    path: ['customer'],
  })
  .refine((body) => body.phoneNumberId !== undefined || body.phoneNumber !== undefined, {
    error: 'Give the number to call from: phoneNumberId or phoneNumber.',
    path: ['phoneNumberId'],
  });
export type CreatePhoneCall = z.input<typeof createPhoneCallSchema>;

/** A call as stored and answered. */
export const callSchema = z.looseObject({
  ...resourceFields,
  ...callRequestFields,
  ...callResultFields,
  type: z.enum(CALL_TYPES),
  status: z.enum(CALL_STATUSES),
  endedReason: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  cost: z.number().optional(),
  webCallUrl: z.string().optional(),
  assistantId: z.string().optional(),
  customerId: z.string().optional(),
  phoneNumber: z.record(z.string(), z.unknown()).optional(),
});
export type Call = z.infer<typeof callSchema>;

export const callListQuerySchema = listQuerySchema.extend({
  assistantId: z.string().min(1).optional(),
});
export type CallListQuery = z.input<typeof callListQuerySchema>;

/**
 * `POST /call/{id}/control`: live-call control, in the hosted platform's shapes (the
 * messages its `monitor.controlUrl` takes): speak a line, add a message to the model's
 * context, mute or unmute the assistant, or end the call.
 */
export const callControlSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('say'),
      content: z.string().min(1).max(2_000),
      endCallAfterSpoken: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('add-message'),
      message: z.object({
        role: z.enum(['system', 'user', 'assistant']),
        content: z.string().min(1).max(10_000),
      }),
    }),
    z.object({
      type: z.literal('control'),
      control: z.enum(['mute-assistant', 'unmute-assistant']),
    }),
    z.object({ type: z.literal('end-call') }),
  ],
  { error: 'Unknown control type: use say, add-message, control or end-call.' },
);
export type CallControl = z.infer<typeof callControlSchema>;

/** What `POST /call/{id}/control` answers: the message was handed to the process running the call. */
export const callControlAcceptedSchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.literal('sent'),
});
export type CallControlAccepted = z.infer<typeof callControlAcceptedSchema>;
