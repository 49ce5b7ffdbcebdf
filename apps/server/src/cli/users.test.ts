import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../test-support/console-browser.js';
import { runCli } from '../test-support/cli-runner.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const users = (...args: string[]) => runCli('users', server, ...args);

describe('npm run users (the built CLI on the server’s database)', () => {
  it('reset-password prints a one-time password that signs in, and ends the old sessions', async () => {
    const browser = new ConsoleBrowser(server.baseUrl);
    await browser.join({
      username: 'Locked Out',
      email: 'locked@example.com',
      password: 'the forgotten one',
    });
    expect((await browser.get('/console/api/account')).status).toBe(200);

    const result = await users('reset-password', 'Locked@Example.com');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const password = /\n\n {2}([A-Za-z0-9]{16})\n/.exec(result.stdout)?.[1];
    expect(password, result.stdout).toBeDefined();

    expect((await browser.get('/console/api/account')).status).toBe(401);
    const fresh = new ConsoleBrowser(server.baseUrl);
    const old = await fresh.post('/console/api/sign-in', {
      email: 'locked@example.com',
      password: 'the forgotten one',
    });
    expect(old.status).toBe(401);
    await fresh.signIn('locked@example.com', password!);
  });

  it('lists accounts by organisation, and says clearly what is wrong', async () => {
    const listed = await users('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/locked@example\.com {2}owner {2}"Locked Out"/);

    const unknown = await users('reset-password', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      'There is no account with the e-mail address nobody@example.com.',
    );
    const missing = await users('reset-password');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Give the e-mail address/);
    const wrong = await users('delete-everyone');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Unknown command "delete-everyone"/);
  });
});
