import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../../test-support/console-browser.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import type { TestResponse } from '../../test-support/test-server.js';

/**
 * Organisation A is the demo's (its first account and the server's own key); B is a
 * second clinic that registered later. Every platform route, read from the server's own
 * OpenAPI document (so a route added later is covered, or this test fails until it is),
 * is tried by B on A's data: with B's console session and with B's own API key.
 */
let server: TestServer;
const ids: Record<string, string> = {};
let orgB: ConsoleBrowser;
let keyB: string;

beforeAll(async () => {
  server = await startTestServer();
  const a = server.client();
  const [assistant] = await a.assistant.list();
  ids.assistant = assistant!.id;
  ids['access-code'] = (await a.accessCode.create({ assistantId: assistant!.id })).id;
  ids.call = (await a.call.createWeb({ assistantId: assistant!.id })).id;
  ids.credential = (
    await a.credential.create({ provider: 'openai', apiKey: 'sk-org-a-secret' })
  ).id;
  ids['phone-number'] = (
    await a.phoneNumber.importTwilio({
      twilioPhoneNumber: '+14155550199',
      twilioAccountSid: 'AC0123456789abcdef0123456789abcdef',
      twilioAuthToken: 'org-a-twilio-token-0123456789',
      assistantId: assistant!.id,
    })
  ).id;

  await new ConsoleBrowser(server.baseUrl).register({
    username: 'Clinic A',
    email: 'a@example.com',
    password: 'org a password',
  });
  orgB = new ConsoleBrowser(server.baseUrl);
  await orgB.join({ username: 'Clinic B', email: 'b@example.com', password: 'org b password' });
  const created = await orgB.post('/console/api/keys', { kind: 'private', name: 'B server' });
  expect(created.status).toBe(201);
  keyB = (created.json as { key: string }).key;
});
afterAll(async () => {
  await server.close();
});

/** Bodies that pass validation, so the answer is about the data's owner, not the body. */
const BODIES: Record<string, unknown> = {
  'PATCH /assistant/{id}': { name: 'Taken over' },
  'PUT /assistant/{id}': { name: 'Taken over' },
  'PUT /credential/{id}': { provider: 'openai', apiKey: 'sk-taken-over' },
  'PATCH /phone-number/{id}': { name: 'Taken over' },
  'POST /call/{id}/control': { type: 'say', content: 'Taken over' },
  'POST /access-code/{id}/revoke': {},
};

/** Creations that name A's assistant. */
const CREATIONS: Record<string, unknown> = {
  'POST /call/web': { assistantId: '{assistant}' },
  'POST /call/phone': { assistantId: '{assistant}', customer: { number: '+14155550123' } },
  'POST /access-code': { assistantId: '{assistant}' },
  'POST /phone-number/buy': { areaCode: '415', assistantId: '{assistant}' },
  'POST /phone-number/import/twilio': {
    twilioPhoneNumber: '+14155550177',
    twilioAccountSid: 'AC0123456789abcdef0123456789abcdef',
    twilioAuthToken: 'b-token-0123456789',
    assistantId: '{assistant}',
  },
  'POST /phone-number/import/vonage': {
    vonagePhoneNumber: '+14155550178',
    credentialId: '{credential}',
  },
};

/** Creations that name nothing of A's: they must succeed in B and stay in B. */
const OWN_CREATIONS = new Set(['POST /assistant', 'POST /credential']);

async function asB(
  how: 'session' | 'key',
  method: string,
  path: string,
  body?: unknown,
): Promise<TestResponse> {
  if (how === 'session') return orgB.request(method, `/platform${path}`, body);
  const response = await fetch(`${server.baseUrl}/platform${path}`, {
    method,
    headers: {
      authorization: `Bearer ${keyB}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: safeJson(text) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const fill = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value).replace(/\{(assistant|credential)\}/g, (_m, kind: string) => ids[kind]!),
  );

describe.each(['session', 'key'] as const)(
  'another organisation (%s) on every platform route',
  (how) => {
    it('gets 404 for A’s ids, sees none of A’s data in lists, and cannot use A’s assistant', async () => {
      const doc = (await server.get('/platform/openapi.json')).json as {
        paths: Record<string, Record<string, unknown>>;
      };
      const tried: string[] = [];
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
          const route = `${method} ${path}`;
          tried.push(route);
          if (path.includes('{id}')) {
            const kind = path.split('/')[1]!;
            expect(ids[kind], `an id of A's for ${route}`).toBeDefined();
            const answer = await asB(how, method, path.replace('{id}', ids[kind]!), BODIES[route]);
            expect(answer.status, `${route}: ${answer.text}`).toBe(404);
          } else if (method === 'GET') {
            const answer = await asB(how, 'GET', path);
            expect(answer.status, route).toBe(200);
            for (const id of Object.values(ids)) expect(answer.text, route).not.toContain(id);
          } else if (route in CREATIONS) {
            const answer = await asB(how, method, path, fill(CREATIONS[route]));
            expect(answer.status, `${route}: ${answer.text}`).toBeGreaterThanOrEqual(400);
            expect(answer.status, route).toBeLessThan(500);
          } else {
            expect(OWN_CREATIONS.has(route), `${route} needs a case in this test`).toBe(true);
          }
        }
      }
      expect(tried.length).toBeGreaterThanOrEqual(25);

      // A is untouched.
      const a = server.client();
      expect((await a.assistant.get(ids.assistant!)).name).not.toBe('Taken over');
      expect((await a.call.get(ids.call!)).status).not.toBe('ended');
      expect((await a.accessCode.get(ids['access-code']!)).revokedAt ?? null).toBeNull();
      expect((await a.phoneNumber.get(ids['phone-number']!)).name ?? '').not.toBe('Taken over');
      const metrics = (await asB(how, 'GET', '/metrics')).json as {
        orgId: string;
        callCount: number;
      };
      expect(metrics.orgId).not.toBe((await a.assistant.get(ids.assistant!)).orgId);
      expect(metrics.callCount).toBe(0);
    });
  },
);

describe('console routes across organisations', () => {
  it('never show or touch another organisation’s keys or members', async () => {
    const keysOfB = (await orgB.get('/console/api/keys')).json as { id: string }[];
    const keysOfA = await server.db.all<{ id: string }>(
      'select id from api_keys where org_id = (select org_id from users where email = ?)',
      'a@example.com',
    );
    expect(keysOfA.length).toBeGreaterThan(0);
    for (const key of keysOfA) {
      expect(keysOfB.map((k) => k.id)).not.toContain(key.id);
      expect((await orgB.post(`/console/api/keys/${key.id}/revoke`)).status).toBe(404);
    }
    const team = (await orgB.get('/console/api/team')).json as { members: { email: string }[] };
    expect(team.members.map((m) => m.email)).toEqual(['b@example.com']);
    const a = await server.db.get<{ id: string }>(
      "select id from users where email = 'a@example.com'",
    );
    expect(
      (await orgB.request('PATCH', `/console/api/team/members/${a!.id}`, { role: 'viewer' }))
        .status,
    ).toBe(404);
    expect((await orgB.post(`/console/api/team/members/${a!.id}/reset-password`)).status).toBe(404);
  });
});
