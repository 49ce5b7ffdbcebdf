import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { inScaleOutProject } from '../test-support/test-database.js';
import { serversClosedAfterEachTest } from '../test-support/test-server.js';
import { registerHealthRoutes } from './health-routes.js';

const startServer = serversClosedAfterEachTest();
const start = (env: Record<string, string> = {}) => startServer({ env });

describe('GET /healthz and /readyz (real server)', () => {
  it('answer JSON, uncached: alive, and ready with every check named', async () => {
    const server = await start();
    const health = await server.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.get('content-type')).toMatch(/^application\/json/);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(health.json).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });

    const ready = await server.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({
      status: 'ready',
      checks: {
        // Says which database answered: the scale-out test project really runs on it.
        database: inScaleOutProject() ? 'ok (PostgreSQL)' : 'ok (SQLite)',
        // Redis is checked only where it is configured.
        ...(inScaleOutProject() ? { redis: 'ok' } : {}),
        voice: 'ok',
        shutdown: 'running',
        calls: '0 of 12 places taken',
      },
    });
  });

  it('are never the web page, nor an access code, nor rate limited', async () => {
    const server = await start();
    for (const pathname of ['/health', '/metrics', '/livez']) {
      const response = await server.get(pathname);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain('<title>');
    }
    // Far past any rate limit: a load balancer probes every few seconds, forever.
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => server.get('/readyz').then((r) => r.status)),
    );
    expect(new Set(answers)).toEqual(new Set([200]));
  });

  it('/readyz answers 503 with the reason once a shutdown has begun', async () => {
    const server = await start();
    await server.drain();
    const ready = await server.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({
      statusCode: 503,
      message: 'Not ready: The server is shutting down.',
      status: 'not-ready',
      checks: {
        shutdown: 'failing: The server is shutting down.',
        database: expect.stringMatching(/^ok /),
      },
    });
    // The server still lives, and says so.
    expect((await server.get('/healthz')).status).toBe(200);
    // And starts no more calls.
    const [demo] = await server.client().assistant.list();
    const call = await server.post(
      '/platform/call/web',
      { assistantId: demo!.id },
      { authorization: `Bearer ${server.privateKey}` },
    );
    expect(call.status).toBe(503);
    expect(call.json).toMatchObject({
      message: 'This server is shutting down and takes no new calls. Please try again in a moment.',
    });
  });
});

describe('the readiness answer when a check fails', () => {
  it('names the failing check and its reason, and keeps the others', async () => {
    const app = Fastify();
    registerHealthRoutes(app, {
      checks: {
        database: () => Promise.reject(new Error('The database does not answer.')),
        voice: async () => 'ok',
      },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    await app.close();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Not ready: The database does not answer.',
      status: 'not-ready',
      checks: { database: 'failing: The database does not answer.', voice: 'ok' },
    });
  });
});
