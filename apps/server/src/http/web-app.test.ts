import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('serving the web app (real server)', () => {
  it.each([
    '/',
    '/login',
    '/medibrief',
    '/call-section',
    '/register',
    '/riverside-demo',
    '/call-section/',
  ])('serves index.html for the SPA route %s, revalidated on every visit', async (route) => {
    const response = await server.get(route);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('<title>Talkbooth test page</title>');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('caches hashed assets for a year, and other files briefly', async () => {
    const asset = await server.get('/assets/index-Ab12Cd34.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("app")');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const icon = await server.get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['/assets/missing-123.js', '/robots.txt', '/platform'])(
    'answers 404 for %s instead of the app',
    async (pathname) => {
      const response = await server.get(pathname);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    },
  );

  it('compresses what is worth compressing, as the browser asks', async () => {
    const big = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-web-big-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>big</title>');
    fs.writeFileSync(path.join(root, 'assets', 'big-Zz99Yy88.js'), big);
    const restarted = await startTestServer({ webRoot: root });
    try {
      const brotli = await fetch(`${restarted.baseUrl}/assets/big-Zz99Yy88.js`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(await brotli.text()).toBe(big); // fetch decodes it
      const plain = await fetch(`${restarted.baseUrl}/assets/big-Zz99Yy88.js`, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers.get('content-encoding')).toBeNull();
      const small = await fetch(`${restarted.baseUrl}/api/client-config`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(small.headers.get('content-encoding')).toBeNull(); // under 1 KiB: not worth it
    } finally {
      await restarted.close();
    }
  });

  it('sends security headers, with a CSP that allows only the app itself', async () => {
    const response = await server.get('/');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const host = new URL(server.baseUrl).host;
    expect(csp).toContain(`connect-src 'self' ws://${host} wss://${host}`);
    expect(response.headers.get('permissions-policy')).toBe(
      'microphone=(self), camera=(), geolocation=()',
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('says clearly that the web app is not built when its folder is empty', async () => {
    const emptyRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-empty-web-'));
    const bare = await startTestServer({ webRoot: emptyRoot });
    try {
      const response = await bare.get('/register');
      expect(response.status).toBe(503);
      expect(response.json).toMatchObject({
        message: 'The web app has not been built yet. Run `npm run build` and restart.',
      });
    } finally {
      await bare.close();
    }
  });
});
