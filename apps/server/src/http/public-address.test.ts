import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { serversClosedAfterEachTest, type TestServer } from '../test-support/test-server.js';

const startServer = serversClosedAfterEachTest();
const start = (env: Record<string, string> = {}) => startServer({ env });

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with a Host header of our choosing (fetch would not let us set it). */
function requestWithHost(
  server: TestServer,
  pathname: string,
  host: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const url = new URL(server.baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: pathname,
        method: options.method ?? 'GET',
        headers: {
          host,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const HOST_MESSAGE =
  'The Host header must be a host name or IP address with an optional port, like talk.example or 192.0.2.1:3000.';

describe('links and security headers never come from an unchecked Host (real server)', () => {
  it.each([
    'evil.example;script-src *',
    'a.example,b.example',
    'talk.example https://evil.example',
    'x"y',
  ])('answers 400 for the Host %j on every route, and builds nothing from it', async (host) => {
    const server = await start();
    for (const pathname of ['/', '/api/client-config', '/healthz', '/platform/openapi.json']) {
      const response = await requestWithHost(server, pathname, host);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: HOST_MESSAGE,
      });
      expect(response.headers['content-security-policy']).toBeUndefined();
    }
    const call = await requestWithHost(server, '/platform/call/web', host, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.privateKey}` },
      body: { assistantId: 'any' },
    });
    expect(call.status).toBe(400);
    expect(await server.client().call.list()).toEqual([]);
  });

  it('refuses a malformed X-Forwarded-Host behind a trusted proxy too', async () => {
    const server = await start({ TRUST_PROXY: 'true' });
    const response = await requestWithHost(server, '/api/client-config', 'talk.example', {
      headers: { 'x-forwarded-host': 'evil.example; connect-src *' },
    });
    expect(response.status).toBe(400);
  });

  it('builds the links and the policy from a plain Host when PUBLIC_URL is unset', async () => {
    const server = await start();
    const config = await requestWithHost(server, '/api/client-config', 'talk.example:8080');
    expect(config.status).toBe(200);
    expect(JSON.parse(config.body)).toMatchObject({
      platformBaseUrl: 'http://talk.example:8080/platform',
    });
    expect(config.headers['content-security-policy']).toContain(
      'ws://talk.example:8080 wss://talk.example:8080',
    );
  });

  it('builds every link and the policy from PUBLIC_URL when set, whatever the Host', async () => {
    const server = await start({ PUBLIC_URL: 'https://talk.clinic.example' });
    const config = await requestWithHost(server, '/api/client-config', 'internal-name:3000');
    expect(JSON.parse(config.body)).toMatchObject({
      platformBaseUrl: 'https://talk.clinic.example/platform',
    });
    const csp = config.headers['content-security-policy'] ?? '';
    expect(csp).toContain('ws://talk.clinic.example wss://talk.clinic.example');
    expect(csp).not.toContain('internal-name');

    const [demo] = await server.client().assistant.list();
    const call = await requestWithHost(server, '/platform/call/web', 'internal-name:3000', {
      method: 'POST',
      headers: { authorization: `Bearer ${server.privateKey}` },
      body: { assistantId: demo!.id },
    });
    expect(call.status).toBe(201);
    const { webCallUrl, id } = JSON.parse(call.body) as { webCallUrl: string; id: string };
    expect(webCallUrl).toMatch(new RegExp(`^wss://talk\\.clinic\\.example/ws/call/${id}\\?token=`));
  });
});
