import argon2 from 'argon2';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { accountSchema, registeredUserSchema } from '@talkbooth/protocol';
import { ConsoleBrowser } from '../../test-support/console-browser.js';
import { redisEnvFor } from '../../test-support/test-database.js';
import { serversClosedAfterEachTest, type TestServer } from '../../test-support/test-server.js';
import { hashToken } from '../../security/tokens.js';

const start = serversClosedAfterEachTest();

/**
 * The session hashes the server keeps: in its database, or in Redis when the deployment
 * has one (the PostgreSQL and Redis test project).
 */
async function storedSessions(server: TestServer): Promise<string[]> {
  const env = redisEnvFor(server.dataDir);
  if (env.REDIS_URL === undefined) {
    const rows = await server.db.all<{ token_hash: string }>(
      'select token_hash from console_sessions',
    );
    return rows.map((row) => row.token_hash);
  }
  expect(await server.db.count('console_sessions')).toBe(0);
  const redis = new Redis(env.REDIS_URL);
  try {
    const keys = await redis.keys(`${env.REDIS_KEY_PREFIX}session:*`);
    return keys.map((key) => key.slice(`${env.REDIS_KEY_PREFIX}session:`.length));
  } finally {
    redis.disconnect();
  }
}

const owner = {
  username: 'Clinic Owner',
  email: 'Owner@Clinic.example',
  password: 'owner password 1',
};

describe('console accounts (real server, real database)', () => {
  it('the first account owns the demo organisation; a later one owns a new one of its own', async () => {
    const server = await start();
    const first = registeredUserSchema.parse(
      (await new ConsoleBrowser(server.baseUrl).register(owner)).json,
    );
    const demoOrg = await server.db.get<{ id: string }>(
      'select id from orgs order by created_at limit 1',
    );
    expect(first.organisation.id).toBe(demoOrg!.id);
    expect(first.role).toBe('owner');

    const second = registeredUserSchema.parse(
      (
        await new ConsoleBrowser(server.baseUrl).register({
          username: 'Dentist',
          email: 'dentist@example.com',
          password: 'dentist password',
        })
      ).json,
    );
    expect(second.role).toBe('owner');
    expect(second.organisation.id).not.toBe(demoOrg!.id);
    expect(second.organisation.name).toBe("Dentist's organisation");
  });

  it('signs in with an HTTP-only SameSite cookie, knows who is signed in, and signs out', async () => {
    const server = await start();
    const browser = new ConsoleBrowser(server.baseUrl);
    await browser.register(owner);

    expect((await browser.get('/console/api/account')).status).toBe(401);
    const wrong = await browser.post('/console/api/sign-in', {
      email: owner.email,
      password: 'not it at all',
    });
    expect(wrong.status).toBe(401);
    const unknown = await browser.post('/console/api/sign-in', {
      email: 'nobody@example.com',
      password: 'not it at all',
    });
    // The same answer: a stranger cannot learn which addresses have accounts.
    expect(unknown.json).toEqual(wrong.json);

    const signedIn = await browser.signIn(' owner@clinic.EXAMPLE ', owner.password);
    expect(accountSchema.parse(signedIn.json)).toMatchObject({
      email: 'owner@clinic.example',
      role: 'owner',
    });
    const cookie = browser.lastSetCookies.find((c) => c.startsWith('talkbooth_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\//i);
    expect(cookie).not.toMatch(/Secure/i); // plain HTTP here; `secure: 'auto'` adds it over HTTPS
    const token = browser.cookies.get('talkbooth_session')!;
    expect(await storedSessions(server)).toEqual([hashToken(token)]);

    const me = await browser.get('/console/api/account');
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(accountSchema.parse(me.json).username).toBe('Clinic Owner');

    expect((await browser.post('/console/api/sign-out')).status).toBe(204);
    expect(browser.cookies.has('talkbooth_session')).toBe(false);
    expect(await storedSessions(server)).toEqual([]);
    // The old cookie is worth nothing now, even replayed.
    const replay = new ConsoleBrowser(server.baseUrl);
    replay.cookies.set('talkbooth_session', token);
    expect((await replay.get('/console/api/account')).status).toBe(401);
    expect(server.logs.join('')).not.toContain(owner.password);
    expect(server.logs.join('')).not.toContain(token);
  });

  it('refuses every change without the CSRF token, with a message that says what to send', async () => {
    const server = await start();
    const browser = new ConsoleBrowser(server.baseUrl);
    await browser.join(owner);

    const signIn = await browser.post(
      '/console/api/sign-in',
      { email: owner.email, password: owner.password },
      { csrf: false },
    );
    expect(signIn.status).toBe(403);
    expect((signIn.json as { message: string }).message).toMatch(/CSRF token/);

    const signOut = await browser.post('/console/api/sign-out', {}, { csrf: false });
    expect(signOut.status).toBe(403);
    expect((await browser.get('/console/api/account')).status).toBe(200);

    // A forged token, or the right token without its secret cookie, is refused too.
    const forged = await browser.request(
      'POST',
      '/console/api/team/invites',
      {},
      {
        csrf: false,
        headers: { 'x-csrf-token': 'forged-token' },
      },
    );
    expect(forged.status).toBe(403);
    const token = await browser.csrfToken();
    const withoutSecret = await fetch(`${server.baseUrl}/console/api/team/invites`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': token,
        cookie: `talkbooth_session=${browser.cookies.get('talkbooth_session')}`,
      },
      body: '{}',
    });
    expect(withoutSecret.status).toBe(403);

    // The platform API with the session cookie: reads pass, changes need the token.
    const [assistant] = (await browser.get('/platform/assistant')).json as { id: string }[];
    const patch = await browser.request(
      'PATCH',
      `/platform/assistant/${assistant!.id}`,
      { name: 'Renamed by a forged page' },
      { csrf: false },
    );
    expect(patch.status).toBe(403);
    const asOwner = await browser.platform().assistant.update(assistant!.id, { name: 'Renamed' });
    expect(asOwner.name).toBe('Renamed');
    // A key is no ambient credential: bearer requests need no token.
    expect((await server.client().assistant.get(assistant!.id)).name).toBe('Renamed');
  });

  it('changes a password: the old one stops working and other sessions end', async () => {
    const server = await start();
    const here = new ConsoleBrowser(server.baseUrl);
    await here.join(owner);
    const elsewhere = new ConsoleBrowser(server.baseUrl);
    await elsewhere.signIn(owner.email, owner.password);

    const wrong = await here.post('/console/api/account/password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ fields: { currentPassword: expect.any(String) } });
    const short = await here.post('/console/api/account/password', {
      currentPassword: owner.password,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.json).toMatchObject({
      fields: { newPassword: expect.stringMatching(/at least 8/) },
    });

    const changed = await here.post('/console/api/account/password', {
      currentPassword: owner.password,
      newPassword: 'a brand new password',
    });
    expect(changed.status).toBe(204);
    expect((await here.get('/console/api/account')).status).toBe(200);
    expect((await elsewhere.get('/console/api/account')).status).toBe(401);
    const again = new ConsoleBrowser(server.baseUrl);
    expect(
      (await again.post('/console/api/sign-in', { email: owner.email, password: owner.password }))
        .status,
    ).toBe(401);
    await again.signIn(owner.email, 'a brand new password');
    const row = await server.db.get<{ password_hash: string }>(
      'select password_hash from users where email = ?',
      'owner@clinic.example',
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(row!.password_hash, 'a brand new password')).toBe(true);
  });

  it('limits sign-in attempts per address and account', async () => {
    const server = await start({ signInLimit: { max: 3, timeWindowMs: 60_000 } });
    const browser = new ConsoleBrowser(server.baseUrl);
    await browser.register(owner);
    for (let i = 0; i < 3; i += 1) {
      const answer = await browser.post('/console/api/sign-in', {
        email: owner.email,
        password: 'guess' + i,
      });
      expect(answer.status).toBe(401);
    }
    const limited = await browser.post('/console/api/sign-in', {
      email: owner.email,
      password: owner.password,
    });
    expect(limited.status).toBe(429);
    expect((limited.json as { message: string }).message).toMatch(/Too many sign-in attempts/);
    // Another account from the same address is not locked out by these guesses.
    await browser.register({
      username: 'Colleague',
      email: 'colleague@example.com',
      password: 'colleague pass',
    });
    await browser.signIn('colleague@example.com', 'colleague pass');
  });

  it('validates sign-in bodies with per-field messages', async () => {
    const server = await start();
    const browser = new ConsoleBrowser(server.baseUrl);
    const empty = await browser.post('/console/api/sign-in', { email: '', password: '' });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({
      fields: { email: 'Enter your e-mail address.', password: 'Enter your password.' },
    });
    const notJson = await browser.request('POST', '/console/api/sign-in', undefined, {
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
  });
});
