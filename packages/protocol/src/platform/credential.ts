import { z } from 'zod';
import { resourceFields } from './common.js';

/**
 * Credentials for hosted providers, by `provider`. Secret fields are write-only: stored
 * encrypted, answered masked (`••••` and the last four characters).
 */
const secret = (name: string) =>
  z
    .string({ error: `Give the ${name}.` })
    .min(1, { error: `Give the ${name}.` })
    .max(4096);
const name = z.string().max(200).optional();

export const API_KEY_PROVIDERS = [
  'openai',
  'anthropic',
  'groq',
  'together-ai',
  'anyscale',
  'openrouter',
  'perplexity-ai',
  'deepinfra',
  'deepgram',
  'gladia',
  'assembly-ai',
  'talkscriber',
  '11labs',
  'playht',
  'rime-ai',
  'lmnt',
  'cartesia',
  'custom-llm',
] as const;
export const CREDENTIAL_PROVIDERS = ['twilio', 'vonage', ...API_KEY_PROVIDERS] as const;

/** The fields of each provider that are secrets. */
export const SECRET_FIELDS: Record<string, readonly string[]> = {
  twilio: ['authToken'],
  vonage: ['apiSecret'],
  ...Object.fromEntries(API_KEY_PROVIDERS.map((provider) => [provider, ['apiKey']])),
};

export const createCredentialSchema = z.discriminatedUnion(
  'provider',
  [
    z.looseObject({
      provider: z.literal('twilio'),
      accountSid: z.string().min(1),
      authToken: secret('Twilio auth token'),
      name,
    }),
    z.looseObject({
      provider: z.literal('vonage'),
      apiKey: z.string().min(1),
      apiSecret: secret('Vonage API secret'),
      name,
    }),
    z.looseObject({ provider: z.enum(API_KEY_PROVIDERS), apiKey: secret('API key'), name }),
  ],
  { error: `provider must be one of: ${CREDENTIAL_PROVIDERS.join(', ')}.` },
);
export type CreateCredential = z.input<typeof createCredentialSchema>;

/** A credential as answered: secrets masked. */
export const credentialSchema = z.looseObject({
  ...resourceFields,
  provider: z.enum(CREDENTIAL_PROVIDERS),
  name: z.string().optional(),
});
export type Credential = z.infer<typeof credentialSchema>;
