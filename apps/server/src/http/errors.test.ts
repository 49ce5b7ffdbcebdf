import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@talkbooth/protocol';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const count = (table: string) => server.db.count(table);

describe('error answers (real server)', () => {
  it('answers malformed JSON with 400 and a message, and writes nothing', async () => {
    const before = await count('users');
    const response = await server.post('/api/register', '{"username": "ann", "email": ');
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'The request body is not valid JSON. Check for a missing quote, comma or brace.',
    });
    expect(await count('users')).toBe(before);
  });

  it('answers a body over 64 KiB with 413, and writes nothing', async () => {
    const before = await count('feedback');
    const response = await server.post('/api/feedback', { message: 'x'.repeat(70 * 1024) });
    expect(response.status).toBe(413);
    expect(response.json).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'The request body is larger than the 64 KiB limit.',
    });
    expect(await count('feedback')).toBe(before);
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await server.post('/api/feedback', 'message=hi', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(415);
    expect(apiErrorSchema.parse(response.json).message).toContain('Content-Type: application/json');
  });

  it('answers an empty JSON body with 400', async () => {
    const response = await server.post('/api/get-assistant', '');
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(response.json).message).toMatch(/body is empty/);
  });

  it('refuses bodies nested more than 64 levels deep, and writes nothing', async () => {
    const before = await count('feedback');
    const deep = `{"message":"hi","extra":${'['.repeat(65)}${']'.repeat(65)}}`;
    const response = await server.post('/api/feedback', deep);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'The request body is nested more than 64 levels deep. Flatten it.',
    });
    expect(await count('feedback')).toBe(before);
    const fine = `{"message":"hi","extra":${'['.repeat(60)}${']'.repeat(60)}}`;
    expect((await server.post('/api/feedback', fine)).status).toBe(201);
  });

  it('rejects prototype pollution attempts as bad input', async () => {
    const response = await server.post(
      '/api/feedback',
      '{"message":"hi","__proto__":{"admin":true}}',
    );
    expect(response.status).toBe(400);
    expect(apiErrorSchema.safeParse(response.json).success).toBe(true);
  });

  it.each([
    ['GET', '/api/nothing-here'],
    ['POST', '/api/nothing-here'],
    ['DELETE', '/api/register'],
    ['GET', '/a/b'],
    ['GET', '/api'],
  ])('answers %s %s with a JSON 404', async (method, pathname) => {
    const response = await fetch(server.baseUrl + pathname, { method });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `There is nothing at ${method} ${pathname}. Check the address.`,
    });
  });
});
