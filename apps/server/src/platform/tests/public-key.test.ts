import { describe, expect, it } from 'vitest';
import type { AssistantDto } from '@talkbooth/protocol';
import { failure } from '../../test-support/platform-failure.js';
import { serversClosedAfterEachTest } from '../../test-support/test-server.js';
import { startBanner } from '../../banner.js';

const startServer = serversClosedAfterEachTest();
async function start(env: Record<string, string> = {}) {
  // Many calls from one address here: the caps on live calls have their own tests.
  const server = await startServer({
    env: { MAX_LIVE_CALLS: '100', MAX_LIVE_CALLS_PER_ADDRESS: '100', ...env },
  });
  const [demo] = await server.client().assistant.list();
  return { server, demoId: demo!.id };
}

/** The booth's own call settings (apps/web BOOTH_CALL_CONFIG): always allowed. */
const BOOTH = {
  transcriber: { provider: 'deepgram' as const, model: 'nova-2', language: 'en-US' },
  recordingEnabled: false,
  variableValues: { name: 'Alex' },
  firstMessage: 'Hello {{name}}, how can I help you today?',
};

describe('what a call started with the public key may set (real server)', () => {
  it("accepts the booth's settings, metadata and the customer", async () => {
    const { server, demoId } = await start();
    const call = await server.client(server.publicKey).call.createWeb({
      assistantId: demoId,
      assistantOverrides: BOOTH,
      metadata: { visit: 'front desk' },
      customer: { name: 'Alex' },
    });
    expect(call).toMatchObject({ status: 'queued', assistantOverrides: BOOTH });
  });

  it.each<[string, AssistantDto]>([
    ['voice', { voice: { provider: 'espeak', voiceId: 'en-gb' } }],
    ['serverUrl', { serverUrl: 'https://collector.example/hook' }],
    ['endCallPhrases', { endCallPhrases: ['bye'] }],
    ['model', { model: { provider: 'local', model: 'kb' } }],
  ])('refuses assistantOverrides.%s with a 403 naming the field', async (field, overrides) => {
    const { server, demoId } = await start();
    const error = await failure(
      server
        .client(server.publicKey)
        .call.createWeb({ assistantId: demoId, assistantOverrides: overrides }),
    );
    expect(error.status).toBe(403);
    expect(Object.keys(error.apiError?.fields ?? {})).toEqual([`assistantOverrides.${field}`]);
    expect(error.apiError?.message).toContain(
      `A public key may not set assistantOverrides.${field}.`,
    );
  });

  it('refuses other top-level fields and transcriber fields beyond the booth choice', async () => {
    const { server, demoId } = await start();
    const visitor = server.client(server.publicKey);
    const phone = await failure(
      visitor.call.createWeb({ assistantId: demoId, phoneNumberId: 'pn-1' }),
    );
    expect(phone.status).toBe(403);
    expect(phone.apiError?.fields).toHaveProperty('phoneNumberId');
    const transcriber = await failure(
      visitor.call.createWeb({
        assistantId: demoId,
        assistantOverrides: {
          transcriber: { provider: 'deepgram', endpoint: 'wss://collector.example' },
        },
      }),
    );
    expect(transcriber.status).toBe(403);
    expect(transcriber.apiError?.fields).toHaveProperty('assistantOverrides.transcriber.endpoint');
  });

  it('lets a public key turn recording off but never on', async () => {
    const { server, demoId } = await start();
    const error = await failure(
      server
        .client(server.publicKey)
        .call.createWeb({ assistantId: demoId, assistantOverrides: { recordingEnabled: true } }),
    );
    expect(error.status).toBe(403);
    expect(error.apiError?.message).toBe(
      'A public key can only turn recording off (assistantOverrides.recordingEnabled: false); whether calls are recorded is the assistant owner’s choice.',
    );
  });

  it('bounds the time limits a public key may ask for by the assistant’s own, or 15 minutes', async () => {
    const { server, demoId } = await start();
    const visitor = server.client(server.publicKey);
    // An assistant that sets no limits: the default ceilings apply.
    const open = await server.client().assistant.create({ name: 'No limits set' });
    const long = await failure(
      visitor.call.createWeb({
        assistantId: open.id,
        assistantOverrides: { maxDurationSeconds: 43_200 },
      }),
    );
    expect(long.status).toBe(403);
    expect(long.apiError?.message).toBe(
      'With a public key, assistantOverrides.maxDurationSeconds may be at most 900 seconds (the limit for assistants that set none).',
    );
    const topLevel = await failure(
      visitor.call.createWeb({ assistantId: open.id, maxDurationSeconds: 3600 }),
    );
    expect(topLevel.status).toBe(403);
    expect(topLevel.apiError?.fields).toHaveProperty('maxDurationSeconds');
    const silence = await failure(
      visitor.call.createWeb({
        assistantId: open.id,
        assistantOverrides: { silenceTimeoutSeconds: 3600 },
      }),
    );
    expect(silence.apiError?.message).toBe(
      'With a public key, assistantOverrides.silenceTimeoutSeconds may be at most 120 seconds (the limit for assistants that set none).',
    );
    // Within the ceiling: fine.
    const within = await visitor.call.createWeb({
      assistantId: open.id,
      assistantOverrides: { maxDurationSeconds: 900, silenceTimeoutSeconds: 20 },
    });
    expect(within.status).toBe('queued');

    // The operator's assistant sets its own ceiling, lower (the demo: 600 s) or higher.
    const over = await failure(
      visitor.call.createWeb({
        assistantId: demoId,
        assistantOverrides: { maxDurationSeconds: 900 },
      }),
    );
    expect(over.apiError?.message).toBe(
      'With a public key, assistantOverrides.maxDurationSeconds may be at most 600 seconds (the assistant’s own limit).',
    );
    const twoHours = await server.client().assistant.create({ maxDurationSeconds: 7200 });
    const allowed = await visitor.call.createWeb({
      assistantId: twoHours.id,
      assistantOverrides: { maxDurationSeconds: 7200 },
    });
    expect(allowed.status).toBe('queued');
  });
});

describe('fields only the server writes (real server)', () => {
  const FORGED = {
    transcript: 'AI: Your results are fine.\nUser: Thanks!',
    summary: 'Forged summary',
    messages: [{ role: 'bot', message: 'Forged line' }],
    recordingUrl: 'https://collector.example/forged.wav',
    costBreakdown: { total: -100 },
    analysis: { summary: 'Forged analysis' },
    endedDetail: 'Forged detail',
  };

  it.each(['public', 'private'] as const)(
    'are dropped from a new call made with the %s key, and never stored',
    async (kind) => {
      const { server, demoId } = await start();
      const token = kind === 'public' ? server.publicKey : server.privateKey;
      const response = await fetch(`${server.baseUrl}/platform/call/web`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ assistantId: demoId, ...FORGED }),
      });
      expect(response.status).toBe(201);
      const created = (await response.json()) as Record<string, unknown>;
      const stored = await server.client().call.get(created.id as string);
      for (const field of Object.keys(FORGED)) {
        expect(created).not.toHaveProperty(field);
        expect(stored).not.toHaveProperty(field);
      }
      const file = await server.db.storedText();
      expect(file).not.toContain('Forged');
      expect(file).not.toContain('collector.example');
    },
  );
});

describe("the allowed origins of the web app's generated public key", () => {
  it('apply PLATFORM_ALLOWED_ORIGINS to a public key that has no origins of its own', async () => {
    const { server, demoId } = await start({
      PLATFORM_ALLOWED_ORIGINS: 'https://clinic.example,https://www.clinic.example',
    });
    expect(server.webKeyOrigins).toEqual(['https://clinic.example', 'https://www.clinic.example']);
    const post = (origin?: string) =>
      fetch(`${server.baseUrl}/platform/call/web`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.publicKey}`,
          'content-type': 'application/json',
          ...(origin === undefined ? {} : { origin }),
        },
        body: JSON.stringify({ assistantId: demoId }),
      });
    expect((await post('https://www.clinic.example')).status).toBe(201);
    const elsewhere = await post('https://evil.example');
    expect(elsewhere.status).toBe(403);
    expect(((await elsewhere.json()) as { message: string }).message).toBe(
      'This public key only works from https://clinic.example, https://www.clinic.example; this request came from https://evil.example.',
    );
    expect((await post()).status).toBe(403);
  });

  it("say in the start banner which origins the web app's key accepts", async () => {
    const { server } = await start({ PLATFORM_ALLOWED_ORIGINS: 'https://clinic.example' });
    expect(startBanner('http://localhost:3000', server.demo, [], server.webKeyOrigins)).toContain(
      "  Web app's public key works from: https://clinic.example",
    );
    const open = await start();
    expect(open.server.webKeyOrigins).toEqual([]);
    expect(startBanner('http://localhost:3000', open.server.demo, [], [])).toContain(
      "  Web app's public key works from any origin (set PLATFORM_ALLOWED_ORIGINS to limit it).",
    );
  });
});
