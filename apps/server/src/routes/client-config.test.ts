import { afterEach, describe, expect, it } from 'vitest';
import { clientConfigSchema, talkCollectionSchema } from '@talkbooth/protocol';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /api/client-config and the talk collection (real server)', () => {
  it('tells the browser the product, its name, the talk home and the platform URL', async () => {
    server = await startTestServer({ env: { TALK_HOME_URL: 'https://clinic.example/thanks' } });
    const response = await server.get('/api/client-config');
    expect(response.status).toBe(200);
    expect(clientConfigSchema.strict().parse(response.json)).toEqual({
      product: 'medibrief',
      productName: 'Riverside Clinic',
      talkHomeUrl: 'https://clinic.example/thanks',
      platformBaseUrl: `${server.baseUrl}/platform`,
      platformPublicKey: server.publicKey,
    });
  });

  it('points the browser at the hosted platform when configured, and lets the CSP reach it', async () => {
    server = await startTestServer({
      env: {
        WEB_PLATFORM_BASE_URL: 'https://api.vapi.ai/',
        WEB_PLATFORM_PUBLIC_KEY: 'hosted-public-key-123',
      },
    });
    const config = clientConfigSchema.parse((await server.get('/api/client-config')).json);
    expect(config).toMatchObject({
      platformBaseUrl: 'https://api.vapi.ai',
      platformPublicKey: 'hosted-public-key-123',
    });
    const csp = (await server.get('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain('https://api.vapi.ai');
    expect(csp).toContain('wss://*.daily.co');
    expect(csp).toContain("script-src 'self' https://*.daily.co");
  });

  it('serves the seeded talk collection of the product', async () => {
    server = await startTestServer();
    const response = await server.get('/api/collections/talk-medibrief');
    expect(response.status).toBe(200);
    expect(talkCollectionSchema.parse(response.json)).toEqual([
      {
        id: 'product',
        title: 'Riverside Clinic',
        tagline: 'Talk to our assistant before your visit',
        support: 'reception@riverside.example',
      },
    ]);
  });

  it('answers 404 for a product without a talk collection, and falls back to the product id as name', async () => {
    server = await startTestServer({ env: { PRODUCT: 'otherbrief' } });
    const collection = await server.get('/api/collections/talk-otherbrief');
    expect(collection.status).toBe(404);
    expect(collection.json).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'There is no talk collection for the product "otherbrief".',
    });
    const config = clientConfigSchema.parse((await server.get('/api/client-config')).json);
    expect(config.productName).toBe('otherbrief');
  });
});
