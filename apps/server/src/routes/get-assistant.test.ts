import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS, sessionObjectSchema } from '@talkbooth/protocol';
import { hashAccessCode } from '../security/access-codes.js';
import { DEMO_CODE, startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const check = (s: TestServer, unicode: unknown, client = '203.0.113.1') =>
  s.post('/api/get-assistant', { unicode }, { 'x-forwarded-for': client });

describe('POST /api/get-assistant (real server, real database)', () => {
  it('answers the session object for the demo code, with the seeded assistant id', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    const response = await check(server, DEMO_CODE);
    expect(response.status).toBe(200);
    const session = sessionObjectSchema.parse(response.json);
    const rows = await server.db.all<{ id: string; data: string }>(
      'select id, data from assistants',
    );
    const row = rows.find(
      (r) =>
        (JSON.parse(r.data) as { metadata?: { seed?: string } }).metadata?.seed === 'demo-clinic',
    )!;
    expect(session).toEqual({
      assistantId: row.id,
      assistantName: 'Riverside Clinic front desk',
      product: 'medibrief',
      // The demo's codes start calls with the key the web app is handed anyway.
      platformPublicKey: server.publicKey,
    });
  });

  it('ignores case, spaces and dashes in the code', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    for (const variant of ['RIVERSIDE-DEMO', ' riverside demo ', 'riversidedemo']) {
      const response = await check(server, variant);
      expect(response.status, variant).toBe(200);
      expect(sessionObjectSchema.safeParse(response.json).success, variant).toBe(true);
    }
  });

  it('answers [] for an unknown code, a revoked code and an expired code', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    expect((await check(server, 'no-such-code')).json).toEqual([]);
    expect((await check(server, '')).json).toEqual([]);

    const demo = (await server.db.get<{ org_id: string; assistant_id: string }>(
      "select org_id, assistant_id from access_codes where label = 'demo-pinned'",
    ))!;
    const add = (id: string, code: string, expiresAt: string | null, revokedAt: string | null) => {
      const at = new Date().toISOString();
      const hash = hashAccessCode(code, server!.codeKey);
      return server!.db.run(
        `insert into access_codes (id, org_id, assistant_id, code_hash, label, expires_at, revoked_at, created_at, updated_at)
         values (?, ?, ?, ?, null, ?, ?, ?, ?)`,
        id,
        demo.org_id,
        demo.assistant_id,
        hash,
        expiresAt,
        revokedAt,
        at,
        at,
      );
    };
    await add('revoked', 'revoked-code', null, new Date().toISOString());
    await add('expired', 'expired-code', new Date(Date.now() - 60_000).toISOString(), null);
    await add('later', 'expires-later', new Date(Date.now() + 3_600_000).toISOString(), null);

    expect((await check(server, 'revoked-code')).json).toEqual([]);
    expect((await check(server, 'expired-code')).json).toEqual([]);
    const later = await check(server, 'expires-later');
    expect(later.status).toBe(200);
    expect(sessionObjectSchema.safeParse(later.json).success).toBe(true);
  });

  it('answers 400 with a clear message for a body without a string unicode', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    for (const body of [{}, { unicode: 42 }, { unicode: null }, { code: DEMO_CODE }]) {
      const response = await server.post('/api/get-assistant', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Send the access code as a string field "unicode".',
      });
    }
    const notObject = await server.post('/api/get-assistant', '["riverside-demo"]');
    expect(notObject.status).toBe(400);
    expect(notObject.json).toMatchObject({
      message: 'Send a JSON object like {"unicode": "your code"}.',
    });
  });

  it('answers 400 for a code longer than any access code', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    const tooLong = await check(server, 'x'.repeat(LIMITS.unicodeMaxLength + 1));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({
      message: `An access code has at most ${LIMITS.unicodeMaxLength} characters.`,
    });
    // The longest allowed is checked as usual (an unknown code answers []).
    const longest = await check(server, 'x'.repeat(LIMITS.unicodeMaxLength));
    expect(longest).toMatchObject({ status: 200, json: [] });
  });

  it('blocks a client after too many wrong codes with 429 and Retry-After, even for the right code', async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'true' },
      guessLimit: { max: 3, timeWindowMs: 15 * 60 * 1000 },
    });
    const guesser = '198.51.100.7';
    // Right codes do not use up the allowance.
    for (let i = 0; i < 5; i += 1)
      expect((await check(server, DEMO_CODE, guesser)).status).toBe(200);
    for (let i = 0; i < 3; i += 1)
      expect((await check(server, `wrong-${i}`, guesser)).json).toEqual([]);

    const blocked = await check(server, 'wrong-again', guesser);
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many wrong codes from your network. Try again in 15 minutes.',
    });
    // While blocked, the right code gets the same answer: no oracle for a guesser.
    expect((await check(server, DEMO_CODE, guesser)).status).toBe(429);
    // Another client is not affected.
    expect((await check(server, DEMO_CODE, '198.51.100.8')).status).toBe(200);
  });

  it('never limits a client exempted by configuration (a load-testing machine)', async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'true', RATE_LIMIT_EXEMPT_IPS: '198.51.100.9' },
      guessLimit: { max: 1, timeWindowMs: 60_000 },
    });
    for (let i = 0; i < 5; i += 1)
      expect((await check(server, `wrong-${i}`, '198.51.100.9')).json).toEqual([]);
    expect((await check(server, DEMO_CODE, '198.51.100.9')).status).toBe(200);
    expect((await check(server, 'wrong', '198.51.100.10')).json).toEqual([]);
    expect((await check(server, 'wrong', '198.51.100.10')).status).toBe(429);
  });

  it('lets a blocked client try again once the window has passed', async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'true' },
      guessLimit: { max: 1, timeWindowMs: 700 },
    });
    expect((await check(server, 'wrong')).json).toEqual([]);
    const blocked = await check(server, DEMO_CODE);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await check(server, DEMO_CODE)).status).toBe(200);
  });
});
