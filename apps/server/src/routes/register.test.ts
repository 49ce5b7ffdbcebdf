import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUserSchema } from '@talkbooth/protocol';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const valid = {
  username: 'Alice Doe',
  email: 'Alice@Example.com',
  password: 'correct horse battery',
};

describe('POST /api/register (real server, real database)', () => {
  it('creates the account, answers 201 without the password, and stores an argon2id hash', async () => {
    const response = await server.post('/api/register', valid);
    expect(response.status).toBe(201);
    const user = registeredUserSchema.strict().parse(response.json);
    expect(user).toMatchObject({ username: 'Alice Doe', email: 'alice@example.com' });
    expect(response.text).not.toContain(valid.password);
    expect(response.text).not.toContain('argon2');

    const row = (await server.db.get<{ username: string; email: string; password_hash: string }>(
      'select username, email, password_hash from users where id = ?',
      user.id,
    ))!;
    expect(row.email).toBe('alice@example.com');
    expect(row.password_hash).toMatch(
      /^\$argon2id\$v=19\$(?=[^$]*m=\d+)(?=[^$]*t=\d+)(?=[^$]*p=\d+)[^$]+\$/,
    );
    expect(row.password_hash).not.toContain(valid.password);
    expect(await argon2.verify(row.password_hash, valid.password)).toBe(true);
    expect(await argon2.verify(row.password_hash, 'another password')).toBe(false);
  });

  it('never writes the password to the log', async () => {
    const secret = 'never-log-this-password';
    const response = await server.post('/api/register', {
      ...valid,
      email: 'logcheck@example.com',
      password: secret,
    });
    expect(response.status).toBe(201);
    expect(server.logs.join('')).toContain('account registered');
    expect(server.logs.join('')).not.toContain(secret);
  });

  it('answers 409 for an e-mail that is already registered, in any letter case', async () => {
    const first = await server.post('/api/register', { ...valid, email: 'dup@example.com' });
    expect(first.status).toBe(201);
    const again = await server.post('/api/register', {
      ...valid,
      username: 'Other',
      email: 'DUP@example.com',
    });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'An account with this e-mail address already exists. Use another address.',
      fields: { email: 'This e-mail address is already registered.' },
    });
    expect(await server.db.count('users', 'email = ?', 'dup@example.com')).toBe(1);
  });

  it.each([
    ['username', 'Enter a username.'],
    ['email', 'Enter your e-mail address.'],
    ['password', 'Enter a password.'],
  ])('answers 400 naming the missing %s', async (field, message) => {
    const body: Record<string, string> = { ...valid, email: `missing-${field}@example.com` };
    delete body[field];
    const response = await server.post('/api/register', body);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message,
      fields: { [field]: message },
    });
  });

  it('treats blank fields as missing', async () => {
    const response = await server.post('/api/register', {
      username: '   ',
      email: '',
      password: '',
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      fields: {
        username: 'Enter a username.',
        email: 'Enter your e-mail address.',
        password: 'Enter a password.',
      },
    });
  });

  it('answers 400 with one message per bad field', async () => {
    const response = await server.post('/api/register', {
      username: 'al',
      email: 'not-an-email',
      password: 'short',
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      fields: {
        username: 'Enter a username of at least 3 characters.',
        email: 'Enter a valid e-mail address, like name@example.com.',
        password: 'Use a password of at least 8 characters.',
      },
    });
    expect((response.json as { message: string }).message).toMatch(
      /^Please correct these fields: username: /,
    );
  });

  it('rejects a bad e-mail on its own and stores nothing', async () => {
    const before = await server.db.count('users');
    const response = await server.post('/api/register', { ...valid, email: 'bob@' });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      message: 'Enter a valid e-mail address, like name@example.com.',
      fields: { email: 'Enter a valid e-mail address, like name@example.com.' },
    });
    const after = await server.db.count('users');
    expect(after).toBe(before);
  });
});
