import { z } from 'zod';
import { metadataSchema, resourceFields } from './common.js';

/**
 * Assistants in the hosted platform's 2024 field names. Every object is loose: a field we
 * do not implement yet is accepted, stored and returned unchanged.
 */

/**
 * Hosted speech recognisers, and the embedded ones: moonshine (the default, with
 * pocketsphinx following along for live captions) and pocketsphinx alone.
 */
export const TRANSCRIBER_PROVIDERS = [
  'deepgram',
  'talkscriber',
  'gladia',
  'assembly-ai',
  'azure',
  'moonshine',
  'pocketsphinx',
] as const;
/** Hosted language models, OpenAI-compatible endpoints, and the embedded reply engine (local). */
export const MODEL_PROVIDERS = [
  'openai',
  'azure-openai',
  'anthropic',
  'groq',
  'together-ai',
  'anyscale',
  'openrouter',
  'perplexity-ai',
  'deepinfra',
  'custom-llm',
  'vapi',
  'local',
] as const;
/** Hosted voices, and the embedded synthesiser (espeak). */
export const VOICE_PROVIDERS = [
  '11labs',
  'playht',
  'rime-ai',
  'deepgram',
  'openai',
  'azure',
  'lmnt',
  'neets',
  'cartesia',
  'espeak',
] as const;

const providerOf = <T extends readonly [string, ...string[]]>(kind: string, providers: T) =>
  z.enum(providers, { error: `Use one of the ${kind} providers: ${providers.join(', ')}.` });

export const transcriberSchema = z.looseObject({
  provider: providerOf('transcriber', TRANSCRIBER_PROVIDERS),
  model: z.string().optional(),
  language: z.string().optional(),
  keywords: z.array(z.string()).optional(),
});

export const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'function', 'tool'], {
    error: 'A message role is one of system, user, assistant, function, tool.',
  }),
  content: z.string(),
});

/** One knowledge-base entry for the local reply engine. */
export const knowledgeEntrySchema = z.looseObject({
  id: z.string().min(1),
  questions: z.array(z.string().min(1)).min(1, { error: 'Give each entry at least one question.' }),
  answer: z.string().min(1),
  urgent: z.boolean().optional(),
});

export type KnowledgeEntry = z.infer<typeof knowledgeEntrySchema>;

/** The pre-visit brief the local reply engine takes. */
export const intakeSchema = z.looseObject({
  trigger: z.array(z.string().min(1)).optional(),
  questions: z.array(z.looseObject({ id: z.string().min(1), ask: z.string().min(1) })),
  closing: z.string().optional(),
});

export type Intake = z.infer<typeof intakeSchema>;

export const modelSchema = z.looseObject({
  provider: providerOf('model', MODEL_PROVIDERS),
  model: z.string().min(1, { error: 'Name the model, like gpt-4o or knowledge-base.' }),
  messages: z.array(messageSchema).optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().min(1).max(100_000).optional(),
  functions: z.array(z.unknown()).optional(),
  /** custom-llm: the OpenAI-compatible endpoint. */
  url: z.url({ error: 'url must be an http(s) URL.' }).optional(),
  knowledge: z.array(knowledgeEntrySchema).optional(),
  intake: intakeSchema.optional(),
});

export const voiceSchema = z.looseObject({
  provider: providerOf('voice', VOICE_PROVIDERS),
  voiceId: z.string().min(1, { error: 'Name the voice, like en-us or burt.' }),
});

const seconds = (min: number, max: number) =>
  z
    .number()
    .min(min, { error: `Use ${min} to ${max} seconds.` })
    .max(max, { error: `Use ${min} to ${max} seconds.` });

/** `POST /assistant`, `PUT /assistant/{id}` and (all fields optional anyway) `PATCH`. */
export const assistantDtoSchema = z.looseObject({
  name: z.string().max(200).optional(),
  firstMessage: z.string().max(10_000).optional(),
  transcriber: transcriberSchema.optional(),
  model: modelSchema.optional(),
  voice: voiceSchema.optional(),
  recordingEnabled: z.boolean().optional(),
  endCallFunctionEnabled: z.boolean().optional(),
  clientMessages: z.array(z.string()).optional(),
  serverMessages: z.array(z.string()).optional(),
  silenceTimeoutSeconds: seconds(10, 3600).optional(),
  responseDelaySeconds: seconds(0, 5).optional(),
  numWordsToInterruptAssistant: z.number().int().min(0).max(20).optional(),
  maxDurationSeconds: seconds(10, 43_200).optional(),
  endCallMessage: z.string().max(1000).optional(),
  endCallPhrases: z.array(z.string().min(1)).optional(),
  voicemailMessage: z.string().max(1000).optional(),
  forwardingPhoneNumber: z.string().optional(),
  metadata: metadataSchema.optional(),
  serverUrl: z.url({ error: 'serverUrl must be an http(s) URL.' }).optional(),
  /** Write-only: stored encrypted, answered masked. */
  serverUrlSecret: z.string().optional(),
  hipaaEnabled: z.boolean().optional(),
});
export type AssistantDto = z.input<typeof assistantDtoSchema>;

/** An assistant as stored and answered. */
export const assistantSchema = assistantDtoSchema.extend(resourceFields);
export type Assistant = z.infer<typeof assistantSchema>;

/**
 * `PATCH /assistant/{id}`: any subset of the assistant's fields, applied as a JSON Merge
 * Patch (RFC 7396): nested objects merge, `null` removes a field, anything else replaces.
 * The merged assistant must be valid.
 */
export const assistantPatchSchema = z.record(z.string(), z.unknown(), {
  error: 'Send a JSON object with the fields to change.',
});
export type AssistantPatch = MergePatch<AssistantDto>;

/** A JSON Merge Patch of T: every field optional at every depth, `null` to remove one. */
export type MergePatch<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: MergePatch<T[K]> | null }
    : T;
