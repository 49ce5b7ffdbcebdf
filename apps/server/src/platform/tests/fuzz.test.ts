import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import {
  apiErrorSchema,
  CREDENTIAL_PROVIDERS,
  MODEL_PROVIDERS,
  TRANSCRIBER_PROVIDERS,
  VOICE_PROVIDERS,
} from '@talkbooth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CODE, startTestServer, type TestServer } from '../../test-support/test-server.js';

/**
 * Random bodies against the create endpoints of one real server: every answer is a 2xx,
 * or a 4xx in the one error shape with a message a person can read; never a 5xx.
 * fast-check picks a new seed each run and prints it (with the shrunk body) on failure.
 */

const RUNS = 300;
const DEEP_RUNS = 30;
const TIMEOUT = 120_000;

let server: TestServer;
let ids: {
  assistant: string;
  patchAssistant: string;
  vonageCredential: string;
  putCredential: string;
  phoneNumber: string;
};
/** The PATCH / PUT targets as first stored: every run starts from them again. */
let patchAssistantRow: { data: string; secrets: string | null; name: string };
let putCredentialRow: { provider: string; data: string; secrets: string | null };

beforeAll(async () => {
  server = await startTestServer({
    // Per-client rate limits would answer 429 long before a few hundred bodies are in:
    // each request comes from its own forwarded address, and wrong codes are not limited.
    env: { TRUST_PROXY: 'true' },
    guessLimit: { max: 1_000_000, timeWindowMs: 60_000 },
  });
  const client = server.client();
  const assistant = await client.assistant.create({
    name: 'Fuzz target',
    model: { provider: 'local', model: 'knowledge-base' },
  });
  const patchAssistant = await client.assistant.create({
    name: 'Patch target',
    firstMessage: 'Hello',
    model: { provider: 'local', model: 'knowledge-base', temperature: 0.5 },
    serverUrlSecret: 'patch-target-secret-0123',
  });
  const vonage = await client.credential.create({
    provider: 'vonage',
    apiKey: 'vonage-key',
    apiSecret: 'vonage-secret-0123456789',
  });
  const put = await client.credential.create({ provider: 'openai', apiKey: 'sk-fuzz-0123456789' });
  const phoneNumber = await client.phoneNumber.importTwilio({
    twilioPhoneNumber: '+14155550100',
    twilioAccountSid: TWILIO_SID,
    twilioAuthToken: 'twilio-auth-token',
  });
  ids = {
    assistant: assistant.id,
    patchAssistant: patchAssistant.id,
    vonageCredential: vonage.id,
    putCredential: put.id,
    phoneNumber: phoneNumber.id,
  };
  patchAssistantRow = (await server.db.get<typeof patchAssistantRow>(
    'select data, secrets, name from assistants where id = ?',
    ids.patchAssistant,
  ))!;
  putCredentialRow = (await server.db.get<typeof putCredentialRow>(
    'select provider, data, secrets from credentials where id = ?',
    ids.putCredential,
  ))!;
}, TIMEOUT);

afterAll(async () => {
  await server.close();
});

const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;

// ---------------------------------------------------------------------------------------
// Field names, per endpoint and per nested object, as the protocol schemas name them.

const SERVER_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];
const ASSISTANT_FIELDS = [
  'name',
  'firstMessage',
  'transcriber',
  'model',
  'voice',
  'recordingEnabled',
  'endCallFunctionEnabled',
  'clientMessages',
  'serverMessages',
  'silenceTimeoutSeconds',
  'responseDelaySeconds',
  'numWordsToInterruptAssistant',
  'maxDurationSeconds',
  'endCallMessage',
  'endCallPhrases',
  'voicemailMessage',
  'forwardingPhoneNumber',
  'metadata',
  'serverUrl',
  'serverUrlSecret',
  'hipaaEnabled',
];
/** Fields of a call as answered: a client may send back what it read. */
const CALL_FIELDS = [
  'type',
  'status',
  'endedReason',
  'startedAt',
  'endedAt',
  'cost',
  'costBreakdown',
  'transcript',
  'recordingUrl',
  'summary',
  'messages',
  'webCallUrl',
  'customer',
  'phoneNumberId',
  'maxDurationSeconds',
];
const CREDENTIAL_FIELDS = ['provider', 'accountSid', 'authToken', 'apiKey', 'apiSecret', 'name'];
/** Fields of a phone number as answered. */
const PHONE_NUMBER_FIELDS = [
  'provider',
  'number',
  'name',
  'assistantId',
  'credentialId',
  'twilioAccountSid',
  'serverUrl',
  'serverUrlSecret',
];

/** The fields of the objects found inside bodies, by the name they appear under. */
const SUB_FIELDS: Record<string, string[]> = {
  assistant: ASSISTANT_FIELDS,
  assistantOverrides: [...ASSISTANT_FIELDS, 'variableValues'],
  transcriber: ['provider', 'model', 'language', 'keywords'],
  model: [
    'provider',
    'model',
    'messages',
    'temperature',
    'maxTokens',
    'functions',
    'url',
    'knowledge',
    'intake',
  ],
  voice: ['provider', 'voiceId'],
  messages: ['role', 'content', 'message', 'time', 'secondsFromStart'],
  knowledge: ['id', 'questions', 'answer', 'urgent'],
  intake: ['trigger', 'questions', 'closing'],
  questions: ['id', 'ask'],
  customer: ['number', 'name', 'extension'],
  phoneNumber: ['twilioPhoneNumber', 'number'],
  metadata: ['team', 'name', 'id'],
  variableValues: ['name', 'clinic'],
  costBreakdown: ['stt', 'llm', 'tts', 'total'],
};

// ---------------------------------------------------------------------------------------
// Values: anything JSON, plus values the server would accept somewhere.

const e164 = fc.stringMatching(/^\+[1-9]\d{6,14}$/);

const plausible = () =>
  fc.oneof(
    fc.constantFrom(
      ids.assistant,
      ids.patchAssistant,
      ids.vonageCredential,
      ids.putCredential,
      ids.phoneNumber,
      '00000000-0000-4000-8000-000000000000',
    ),
    e164,
    fc.constantFrom(
      ...CREDENTIAL_PROVIDERS,
      ...MODEL_PROVIDERS,
      ...VOICE_PROVIDERS,
      ...TRANSCRIBER_PROVIDERS,
    ),
    fc.constantFrom(
      TWILIO_SID,
      '415',
      DEMO_CODE,
      'knowledge-base',
      'en-us',
      'system',
      'user',
      'webCall',
      'in-progress',
      'https://hooks.example/talkbooth',
      'http://localhost:1/x',
      '••••',
      '••••0123',
      '2099-01-01T00:00:00Z',
      '2020-01-01T00:00:00Z',
      '2099-06-01T12:30:00.123+05:30',
      '',
      ' ',
    ),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.stringMatching(/^[a-zA-Z0-9_-]{6,12}$/),
  );

const leaf = () =>
  fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
    { arbitrary: plausible(), weight: 3 },
  );

function valueFor(name: string, depth: number): fc.Arbitrary<unknown> {
  const sub = SUB_FIELDS[name];
  if (sub === undefined || depth >= 3) return leaf();
  const object = objectOf(sub, depth + 1);
  return fc.oneof({ arbitrary: leaf(), weight: 2 }, object, fc.array(object, { maxLength: 3 }));
}

/** Objects with any subset of the given fields, each holding a random value. */
function objectOf(fields: string[], depth = 0): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(Object.fromEntries(fields.map((field) => [field, valueFor(field, depth)])), {
    requiredKeys: [],
  });
}

/** A valid body with up to one field dropped and one to three fields set to random values. */
function mutated(
  valid: fc.Arbitrary<Record<string, unknown>>,
  fields: string[],
): fc.Arbitrary<Record<string, unknown>> {
  const oneField = fc.oneof(
    ...fields.map((field) => valueFor(field, 0).map((value) => ({ [field]: value }))),
  );
  return fc
    .tuple(valid, fc.nat(), fc.boolean(), fc.array(oneField, { minLength: 1, maxLength: 3 }))
    .map(([base, which, drop, changes]) => {
      const keys = Object.keys(base);
      const dropped = drop && keys.length > 0 ? keys[which % keys.length] : undefined;
      return {
        ...Object.fromEntries(Object.entries(base).filter(([key]) => key !== dropped)),
        ...Object.assign({}, ...changes),
      } as Record<string, unknown>;
    });
}

/** Text that is not JSON, or is broken JSON: random strings and spliced valid bodies. */
function rawText(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  const spliced = fc
    .tuple(valid, fc.nat(), fc.nat({ max: 4 }), fc.string({ maxLength: 3 }))
    .map(([base, at, cut, insert]) => {
      const text = JSON.stringify(base);
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + cut);
    });
  return fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom(
      '',
      ' ',
      'null',
      '{',
      '}',
      '[',
      '{"a":}',
      "{'a':1}",
      '{"a":1,}',
      'NaN',
      '1e999',
    ),
    spliced,
  );
}

// ---------------------------------------------------------------------------------------
// The endpoints.

interface Endpoint {
  method: 'POST' | 'PATCH' | 'PUT';
  path: () => string;
  fields: string[];
  valid: () => fc.Arbitrary<Record<string, unknown>>;
  /** True when the answer shows the handler's main path ran (the fuzz did not only hit validation). */
  reached: (status: number, body: unknown) => boolean;
  /** What a 2xx body must look like; a JSON object unless said otherwise. */
  success?: (body: unknown) => boolean;
  /** Puts the target back as it was before each run (PATCH and PUT change it). */
  reset?: () => Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const created = (status: number) => status === 201;
const messageMatches = (pattern: RegExp) => (status: number, body: unknown) =>
  status === 400 && isObject(body) && pattern.test(String(body.message));

const resetPatchAssistant = () =>
  server.db.run(
    'update assistants set data = ?, secrets = ?, name = ? where id = ?',
    patchAssistantRow.data,
    patchAssistantRow.secrets,
    patchAssistantRow.name,
    ids.patchAssistant,
  );
const resetPutCredential = () =>
  server.db.run(
    'update credentials set provider = ?, data = ?, secrets = ? where id = ?',
    putCredentialRow.provider,
    putCredentialRow.data,
    putCredentialRow.secrets,
    ids.putCredential,
  );

const validCredential = () =>
  fc.oneof(
    fc.record({
      provider: fc.constantFrom('openai', 'deepgram', '11labs', 'custom-llm'),
      apiKey: fc.constant('sk-test-0123456789'),
      name: fc.string({ maxLength: 20 }),
    }),
    fc.constant({ provider: 'twilio', accountSid: TWILIO_SID, authToken: 'token-0123456789' }),
    fc.constant({ provider: 'vonage', apiKey: 'key', apiSecret: 'secret-0123456789' }),
  );

const ENDPOINTS: Record<string, Endpoint> = {
  'POST /platform/assistant': {
    method: 'POST',
    path: () => '/platform/assistant',
    fields: [...ASSISTANT_FIELDS, ...SERVER_FIELDS],
    valid: () =>
      fc.constant({ name: 'Fuzz', model: { provider: 'local', model: 'knowledge-base' } }),
    reached: created,
  },
  'PATCH /platform/assistant/{id}': {
    method: 'PATCH',
    path: () => `/platform/assistant/${ids.patchAssistant}`,
    fields: [...ASSISTANT_FIELDS, ...SERVER_FIELDS],
    valid: () => fc.constant({ firstMessage: 'Hi again', model: { temperature: 0.7 } }),
    reached: (status) => status === 200,
    reset: resetPatchAssistant,
  },
  'POST /platform/call/web': {
    method: 'POST',
    path: () => '/platform/call/web',
    fields: ['assistantId', 'assistant', 'assistantOverrides', 'metadata', ...CALL_FIELDS],
    valid: () => fc.constant({ assistantId: ids.assistant }),
    reached: created,
  },
  'POST /platform/call/phone': {
    method: 'POST',
    path: () => '/platform/call/phone',
    fields: [
      'assistantId',
      'assistant',
      'assistantOverrides',
      'customerId',
      'customer',
      'phoneNumberId',
      'phoneNumber',
      'maxDurationSeconds',
      'metadata',
      ...CALL_FIELDS,
    ],
    valid: () =>
      e164.map((number) => ({
        assistantId: ids.assistant,
        customer: { number },
        phoneNumberId: ids.phoneNumber,
      })),
    // No telephony provider here: the handler records the attempt and answers 400.
    reached: messageMatches(/^Phone calls need a telephony provider/),
  },
  'POST /platform/credential': {
    method: 'POST',
    path: () => '/platform/credential',
    fields: CREDENTIAL_FIELDS,
    valid: validCredential,
    reached: created,
  },
  'PUT /platform/credential/{id}': {
    method: 'PUT',
    path: () => `/platform/credential/${ids.putCredential}`,
    fields: CREDENTIAL_FIELDS,
    valid: validCredential,
    reached: (status) => status === 200,
    reset: resetPutCredential,
  },
  'POST /platform/phone-number/buy': {
    method: 'POST',
    path: () => '/platform/phone-number/buy',
    fields: ['areaCode', 'name', 'assistantId'],
    valid: () => fc.constant({ areaCode: '415', assistantId: ids.assistant }),
    reached: messageMatches(/^Buying phone numbers needs a telephony provider/),
  },
  'POST /platform/phone-number/import/twilio': {
    method: 'POST',
    path: () => '/platform/phone-number/import/twilio',
    fields: ['twilioPhoneNumber', 'twilioAccountSid', 'twilioAuthToken', ...PHONE_NUMBER_FIELDS],
    valid: () =>
      e164.map((number) => ({
        twilioPhoneNumber: number,
        twilioAccountSid: TWILIO_SID,
        twilioAuthToken: 'twilio-auth-token',
      })),
    reached: created,
  },
  'POST /platform/phone-number/import/vonage': {
    method: 'POST',
    path: () => '/platform/phone-number/import/vonage',
    fields: ['vonagePhoneNumber', ...PHONE_NUMBER_FIELDS],
    valid: () =>
      e164.map((number) => ({ vonagePhoneNumber: number, credentialId: ids.vonageCredential })),
    reached: created,
  },
  'POST /platform/access-code': {
    method: 'POST',
    path: () => '/platform/access-code',
    fields: ['assistantId', 'code', 'label', 'expiresAt', 'maxUses'],
    valid: () => fc.constant({ assistantId: ids.assistant, label: 'Fuzz' }),
    reached: created,
  },
  'POST /api/get-assistant': {
    method: 'POST',
    path: () => '/api/get-assistant',
    fields: ['unicode'],
    valid: () => fc.constant({ unicode: DEMO_CODE }),
    reached: (status, body) => status === 200 && isObject(body) && 'assistantId' in body,
    // The wire contract: an unknown code answers `[]`, a known one the session object.
    success: (body) =>
      (Array.isArray(body) && body.length === 0) ||
      (isObject(body) && typeof body.assistantId === 'string'),
  },
  'POST /api/feedback': {
    method: 'POST',
    path: () => '/api/feedback',
    fields: ['message', 'rating', 'callId', 'assistantId'],
    valid: () => fc.constant({ message: 'Fuzzed feedback', rating: 4 }),
    reached: created,
  },
};
const NAMES = Object.keys(ENDPOINTS);

// ---------------------------------------------------------------------------------------
// Sending and judging one request.

let clientNumber = 0;
/** A different client address for every request, so per-client rate limits never trip. */
const nextClient = () => {
  clientNumber += 1;
  return `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
};

/** Sends the body as text with Content-Type application/json; throws on a wrong answer. */
async function sendAndJudge(
  endpoint: Endpoint,
  body: string,
): Promise<{ status: number; json: unknown }> {
  await endpoint.reset?.();
  const path = endpoint.path();
  const response = await fetch(server.baseUrl + path, {
    method: endpoint.method,
    headers: {
      authorization: `Bearer ${server.privateKey}`,
      'content-type': 'application/json',
      'x-forwarded-for': nextClient(),
    },
    body,
  });
  const text = await response.text();
  const status = response.status;
  const where = `${endpoint.method} ${path} answered ${status} ${text.slice(0, 500)}`;
  expect(status, where).toBeLessThan(500);
  expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`The answer is not JSON: ${where}`);
  }
  if (status >= 400) {
    const problem = apiErrorSchema.safeParse(json);
    expect(problem.success, `not {statusCode, error, message}: ${where}`).toBe(true);
    expect(problem.data?.statusCode, where).toBe(status);
    expect(problem.data?.error, where).toBe(STATUS_CODES[status]);
    expect(problem.data?.message.trim(), where).not.toBe('');
  } else {
    expect([200, 201], where).toContain(status);
    expect((endpoint.success ?? isObject)(json), `unexpected 2xx body: ${where}`).toBe(true);
  }
  return { status, json };
}

/** Bodies for one endpoint: any JSON, objects of its fields, mutated valid bodies, broken text. */
function bodiesFor(endpoint: Endpoint): fc.Arbitrary<string> {
  const valid = endpoint.valid();
  return fc.oneof(
    { arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)), weight: 2 },
    { arbitrary: objectOf(endpoint.fields).map((value) => JSON.stringify(value)), weight: 3 },
    { arbitrary: mutated(valid, endpoint.fields).map((value) => JSON.stringify(value)), weight: 4 },
    { arbitrary: valid.map((value) => JSON.stringify(value)), weight: 1 },
    { arbitrary: rawText(valid), weight: 2 },
  );
}

interface DeepBody {
  base: Record<string, unknown>;
  field: string;
  depth: number;
  shape: readonly [string, string];
}

/**
 * A valid body plus one field holding a value nested `depth` levels deep: under
 * `metadata` (free-form on assistants and calls) or an unknown field (kept by the loose
 * platform schemas). Kept as parts, so a failure prints the depth rather than the text.
 */
function deepBodiesFor(endpoint: Endpoint): fc.Arbitrary<DeepBody> {
  return fc.record({
    base: endpoint.valid(),
    field: fc.constantFrom('metadata', 'nested'),
    // Up to the 64 KiB body limit and beyond; fast-check leans to both ends of the range.
    depth: fc.integer({ min: 1, max: 20_000 }),
    shape: fc.constantFrom(['[', ']'] as const, ['{"a":', '}'] as const, ['[{"x":', '}]'] as const),
  });
}

function deepText({ base, field, depth, shape: [open, close] }: DeepBody): string {
  const rest = { ...base };
  delete rest[field];
  const prefix = JSON.stringify(rest).slice(0, -1);
  const nested = `${open.repeat(depth)}1${close.repeat(depth)}`;
  return `${prefix}${prefix.length > 1 ? ',' : ''}${JSON.stringify(field)}:${nested}}`;
}

// ---------------------------------------------------------------------------------------

describe('fuzzing the create endpoints (fast-check, one real server)', () => {
  it.each(NAMES)(
    '%s: random bodies answer 2xx or a 4xx with a message, never a 5xx',
    async (name) => {
      const endpoint = ENDPOINTS[name]!;
      let reached = 0;
      await fc.assert(
        fc.asyncProperty(bodiesFor(endpoint), async (body) => {
          const { status, json } = await sendAndJudge(endpoint, body);
          if (endpoint.reached(status, json)) reached += 1;
        }),
        { numRuns: RUNS },
      );
      // The bodies got past validation into the handler, not only bounced at the door.
      expect(reached).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it.each(NAMES)(
    '%s: deeply nested bodies answer 2xx or a 4xx with a message, never a 5xx',
    async (name) => {
      const endpoint = ENDPOINTS[name]!;
      await fc.assert(
        fc.asyncProperty(deepBodiesFor(endpoint), async (body) => {
          await sendAndJudge(endpoint, deepText(body));
        }),
        { numRuns: DEEP_RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'can still list everything the fuzz stored (nothing stored that cannot be read back)',
    async () => {
      const answers: Record<string, string> = {};
      for (const path of [
        '/platform/assistant',
        '/platform/call',
        '/platform/credential',
        '/platform/phone-number',
        '/platform/access-code',
      ]) {
        const response = await fetch(`${server.baseUrl}${path}?limit=1000`, {
          headers: { authorization: `Bearer ${server.privateKey}` },
        });
        const text = await response.text();
        answers[path] =
          response.status === 200 && Array.isArray(JSON.parse(text))
            ? '200 list'
            : `${response.status} ${text.slice(0, 200)}`;
      }
      expect(answers).toEqual({
        '/platform/assistant': '200 list',
        '/platform/call': '200 list',
        '/platform/credential': '200 list',
        '/platform/phone-number': '200 list',
        '/platform/access-code': '200 list',
      });
    },
    TIMEOUT,
  );
});
