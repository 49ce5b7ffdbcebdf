import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTED_PLATFORM_BASE_URL, PlatformClient, type RequestOptions } from './index.js';
import { startStubServer, type StubServer } from './test-support/stub-server.js';

let stub: StubServer;
let client: PlatformClient;

beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  stub.answerWith({ body: { id: 'answer-1', extra: { kept: true } } });
  client = new PlatformClient({ token: 'tok-123', baseUrl: `${stub.url}/platform` });
});

const last = () => {
  expect(stub.requests).toHaveLength(1);
  return stub.requests[0]!;
};

const assistantDto = { name: 'Front desk', firstMessage: 'Hello!' };
const listQuery = { limit: 5, createdAtGt: '2024-05-01T00:00:00Z', createdAtLt: undefined };
const credential = { provider: 'openai' as const, apiKey: 'sk-test' };

interface Row {
  /** `namespace.method`: the test below checks every client method has a row. */
  name: string;
  call: (c: PlatformClient, options: RequestOptions) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string[]>;
  body?: unknown;
}

const rows: Row[] = [
  {
    name: 'assistant.create',
    call: (c, o) => c.assistant.create(assistantDto, o),
    method: 'POST',
    path: '/assistant',
    body: assistantDto,
  },
  {
    name: 'assistant.list',
    call: (c, o) => c.assistant.list(listQuery, o),
    method: 'GET',
    path: '/assistant',
    query: { limit: ['5'], createdAtGt: ['2024-05-01T00:00:00Z'] },
  },
  {
    name: 'assistant.get',
    call: (c, o) => c.assistant.get('as-1', o),
    method: 'GET',
    path: '/assistant/as-1',
  },
  {
    name: 'assistant.update',
    call: (c, o) => c.assistant.update('as-1', { name: 'New', voice: null }, o),
    method: 'PATCH',
    path: '/assistant/as-1',
    body: { name: 'New', voice: null },
  },
  {
    name: 'assistant.replace',
    call: (c, o) => c.assistant.replace('as-1', assistantDto, o),
    method: 'PUT',
    path: '/assistant/as-1',
    body: assistantDto,
  },
  {
    name: 'assistant.delete',
    call: (c, o) => c.assistant.delete('as-1', o),
    method: 'DELETE',
    path: '/assistant/as-1',
  },
  {
    name: 'call.list',
    call: (c, o) => c.call.list({ assistantId: 'as-1', limit: 10 }, o),
    method: 'GET',
    path: '/call',
    query: { assistantId: ['as-1'], limit: ['10'] },
  },
  {
    name: 'call.get',
    call: (c, o) => c.call.get('call-1', o),
    method: 'GET',
    path: '/call/call-1',
  },
  {
    name: 'call.createPhone',
    call: (c, o) =>
      c.call.createPhone(
        { assistantId: 'as-1', phoneNumberId: 'pn-1', customer: { number: '+14155550123' } },
        o,
      ),
    method: 'POST',
    path: '/call/phone',
    body: { assistantId: 'as-1', phoneNumberId: 'pn-1', customer: { number: '+14155550123' } },
  },
  {
    name: 'call.createWeb',
    call: (c, o) => c.call.createWeb({ assistantId: 'as-1', metadata: { visit: 7 } }, o),
    method: 'POST',
    path: '/call/web',
    body: { assistantId: 'as-1', metadata: { visit: 7 } },
  },
  {
    name: 'call.control',
    call: (c, o) => c.call.control('call-1', { type: 'say', content: 'One moment, please.' }, o),
    method: 'POST',
    path: '/call/call-1/control',
    body: { type: 'say', content: 'One moment, please.' },
  },
  {
    name: 'credential.create',
    call: (c, o) => c.credential.create(credential, o),
    method: 'POST',
    path: '/credential',
    body: credential,
  },
  {
    name: 'credential.list',
    call: (c, o) => c.credential.list({ limit: 2 }, o),
    method: 'GET',
    path: '/credential',
    query: { limit: ['2'] },
  },
  {
    name: 'credential.get',
    call: (c, o) => c.credential.get('cr-1', o),
    method: 'GET',
    path: '/credential/cr-1',
  },
  {
    name: 'credential.update',
    call: (c, o) => c.credential.update('cr-1', credential, o),
    method: 'PUT',
    path: '/credential/cr-1',
    body: credential,
  },
  {
    name: 'credential.delete',
    call: (c, o) => c.credential.delete('cr-1', o),
    method: 'DELETE',
    path: '/credential/cr-1',
  },
  {
    name: 'phoneNumber.buy',
    call: (c, o) => c.phoneNumber.buy({ areaCode: '415', name: 'Desk' }, o),
    method: 'POST',
    path: '/phone-number/buy',
    body: { areaCode: '415', name: 'Desk' },
  },
  {
    name: 'phoneNumber.importTwilio',
    call: (c, o) =>
      c.phoneNumber.importTwilio(
        {
          twilioPhoneNumber: '+14155550123',
          twilioAccountSid: `AC${'0'.repeat(32)}`,
          twilioAuthToken: 'secret',
        },
        o,
      ),
    method: 'POST',
    path: '/phone-number/import/twilio',
    body: {
      twilioPhoneNumber: '+14155550123',
      twilioAccountSid: `AC${'0'.repeat(32)}`,
      twilioAuthToken: 'secret',
    },
  },
  {
    name: 'phoneNumber.importVonage',
    call: (c, o) =>
      c.phoneNumber.importVonage({ vonagePhoneNumber: '+14155550123', credentialId: 'cr-1' }, o),
    method: 'POST',
    path: '/phone-number/import/vonage',
    body: { vonagePhoneNumber: '+14155550123', credentialId: 'cr-1' },
  },
  {
    name: 'phoneNumber.list',
    call: (c, o) => c.phoneNumber.list(undefined, o),
    method: 'GET',
    path: '/phone-number',
    query: {},
  },
  {
    name: 'phoneNumber.get',
    call: (c, o) => c.phoneNumber.get('pn-1', o),
    method: 'GET',
    path: '/phone-number/pn-1',
  },
  {
    name: 'phoneNumber.update',
    call: (c, o) => c.phoneNumber.update('pn-1', { assistantId: null, name: 'Lobby' }, o),
    method: 'PATCH',
    path: '/phone-number/pn-1',
    body: { assistantId: null, name: 'Lobby' },
  },
  {
    name: 'phoneNumber.delete',
    call: (c, o) => c.phoneNumber.delete('pn-1', o),
    method: 'DELETE',
    path: '/phone-number/pn-1',
  },
  {
    name: 'metrics.get',
    call: (c, o) =>
      c.metrics.get({ rangeStart: '2024-05-01T00:00:00Z', rangeEnd: '2024-05-31T00:00:00Z' }, o),
    method: 'GET',
    path: '/metrics',
    query: { rangeStart: ['2024-05-01T00:00:00Z'], rangeEnd: ['2024-05-31T00:00:00Z'] },
  },
  {
    name: 'accessCode.create',
    call: (c, o) => c.accessCode.create({ assistantId: 'as-1', label: 'Front', maxUses: 3 }, o),
    method: 'POST',
    path: '/access-code',
    body: { assistantId: 'as-1', label: 'Front', maxUses: 3 },
  },
  {
    name: 'accessCode.list',
    call: (c, o) => c.accessCode.list({ assistantId: 'as-1' }, o),
    method: 'GET',
    path: '/access-code',
    query: { assistantId: ['as-1'] },
  },
  {
    name: 'accessCode.get',
    call: (c, o) => c.accessCode.get('ac-1', o),
    method: 'GET',
    path: '/access-code/ac-1',
  },
  {
    name: 'accessCode.revoke',
    call: (c, o) => c.accessCode.revoke('ac-1', o),
    method: 'POST',
    path: '/access-code/ac-1/revoke',
  },
];

describe('every client method', () => {
  it('has a row in the table below', () => {
    const namespaces = [
      'assistant',
      'call',
      'credential',
      'phoneNumber',
      'metrics',
      'accessCode',
    ] as const;
    const methods = namespaces.flatMap((namespace) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(client[namespace]))
        .filter((name) => name !== 'constructor')
        .map((name) => `${namespace}.${name}`),
    );
    expect(rows.map((row) => row.name).sort()).toEqual(methods.sort());
    expect(methods).toHaveLength(28);
  });

  it.each(rows)('$name sends $method $path', async (row) => {
    const answer = await row.call(client, {});
    // The answer comes back as parsed, extra fields included.
    expect(answer).toEqual({ id: 'answer-1', extra: { kept: true } });

    const request = last();
    expect(request.method).toBe(row.method);
    expect(request.path).toBe(`/platform${row.path}`);
    expect(request.query).toEqual(row.query ?? {});
    expect(request.headers.authorization).toBe('Bearer tok-123');
    expect(request.headers.accept).toBe('application/json');
    if (row.body === undefined) {
      expect(request.body).toBe('');
      expect(request.headers['content-type']).toBeUndefined();
    } else {
      expect(request.headers['content-type']).toBe('application/json');
      expect(JSON.parse(request.body)).toEqual(row.body);
    }
  });
});

describe('URLs', () => {
  it('URL-encodes ids in paths', async () => {
    await client.assistant.get('a/b c?d#e%f');
    expect(last().path).toBe('/platform/assistant/a%2Fb%20c%3Fd%23e%25f');

    stub.requests.length = 0;
    await client.accessCode.revoke('x/../y');
    expect(last().path).toBe('/platform/access-code/x%2F..%2Fy/revoke');
  });

  it('refuses an empty id instead of hitting the list', async () => {
    await expect(client.assistant.get('')).rejects.toThrow(TypeError);
    await expect(client.phoneNumber.delete('')).rejects.toThrow(/non-empty id/);
    expect(stub.requests).toHaveLength(0);
  });

  it('tolerates trailing slashes in the base URL', async () => {
    const slashed = new PlatformClient({ token: 't', baseUrl: `${stub.url}/platform///` });
    expect(slashed.baseUrl).toBe(`${stub.url}/platform`);
    await slashed.assistant.get('as-1');
    expect(last().path).toBe('/platform/assistant/as-1');
  });

  it('builds the query from defined values only, encoding them', async () => {
    await client.call.list({
      assistantId: 'a&b=c d',
      limit: 1,
      createdAtGe: undefined,
      createdAtLe: '2024-05-01T00:00:00+02:00',
    });
    const request = last();
    expect(request.query).toEqual({
      assistantId: ['a&b=c d'],
      limit: ['1'],
      createdAtLe: ['2024-05-01T00:00:00+02:00'],
    });
    expect(request.search).not.toContain('createdAtGe');
  });

  it('sends no "?" when every query value is undefined', async () => {
    await client.assistant.list({ limit: undefined });
    expect(last().search).toBe('');
  });

  it('defaults to the hosted platform', async () => {
    expect(HOSTED_PLATFORM_BASE_URL).toBe('https://api.vapi.ai');
    const seen: { url: string; init: RequestInit }[] = [];
    const hosted = new PlatformClient({
      token: 'hosted-token',
      fetch: (url, init) => {
        seen.push({ url, init });
        return Promise.resolve(new Response('[]', { status: 200 }));
      },
    });
    expect(hosted.baseUrl).toBe('https://api.vapi.ai');
    await expect(hosted.assistant.list({ limit: 3 })).resolves.toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('https://api.vapi.ai/assistant?limit=3');
    expect(seen[0]!.init.method).toBe('GET');
    expect(new Headers(seen[0]!.init.headers).get('authorization')).toBe('Bearer hosted-token');
  });
});

describe('construction', () => {
  it('needs a token', () => {
    expect(() => new PlatformClient({ token: '' })).toThrow(TypeError);
  });

  it('refuses a timeout that is not a positive number', async () => {
    expect(() => new PlatformClient({ token: 't', timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new PlatformClient({ token: 't', timeoutMs: Number.NaN })).toThrow(RangeError);
    await expect(client.assistant.list(undefined, { timeoutMs: -1 })).rejects.toThrow(RangeError);
    expect(stub.requests).toHaveLength(0);
  });
});
