import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../test-support/platform-failure.js';
import { runCli, type CliResult, type CliTarget } from '../test-support/cli-runner.js';
import { testDatabaseFor } from '../test-support/test-database.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** Runs `npm run keys` on a server's data folder (and its database on PostgreSQL). */
const keys = (target: CliTarget, ...args: string[]) => runCli('keys', target, ...args);

/** The key and its id from the output of `create`. */
function createdKey(result: CliResult): { id: string; key: string } {
  const match =
    /^Created (?:private|public) key (\S+)\. Copy it now; it is not shown again:\n\n {2}(tb_(?:private|public)_[\w-]{43})\n/.exec(
      result.stdout,
    );
  if (match === null) throw new Error(`no created key in: ${JSON.stringify(result)}`);
  return { id: match[1]!, key: match[2]! };
}

const USAGE_START =
  "Manage the platform API keys (the server's database, from DATA_DIR / DATABASE_URL).";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const keyCount = () => server.db.count('api_keys');

/** POST /platform/call/web with a public key, from a page on `origin`. */
async function webCallFrom(key: string, origin: string | undefined) {
  const [assistant] = await server.client().assistant.list();
  const response = await fetch(`${server.baseUrl}/platform/call/web`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(origin === undefined ? {} : { origin }),
    },
    body: JSON.stringify({ assistantId: assistant!.id }),
  });
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

describe('npm run keys (the built CLI on a server’s data folder)', () => {
  it('lists both first-start keys with their hints, never the keys themselves', async () => {
    const result = await keys(server, 'list');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const rows = await server.db.all<{ id: string; kind: 'private' | 'public' }>(
      "select id, kind from api_keys where name like '%created at first start'",
    );
    expect(rows.map((r) => r.kind).sort()).toEqual(['private', 'public']);
    for (const row of rows) {
      const key = row.kind === 'private' ? server.privateKey! : server.publicKey!;
      const line = result.stdout.split('\n').find((l) => l.startsWith(row.id));
      expect(line).toMatch(
        new RegExp(
          `^${row.id} {2}${row.kind.padEnd(7)} {2}…${escapeRegExp(key.slice(-4))} {2}active {2}"${row.kind} key created at first start" {2}created \\d{4}-\\d\\d-\\d\\dT`,
        ),
      );
      expect(result.stdout).not.toContain(key);
      // Not even the key without its prefix, or a long piece of it.
      expect(result.stdout).not.toContain(key.slice(-20));
    }
  });

  it('creates a private key that works against the server at once, shown once only', async () => {
    const before = await keyCount();
    const result = await keys(server, 'create', '--kind', 'private', '--name', 'CRM sync');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const { id, key } = createdKey(result);
    expect(key).toMatch(/^tb_private_/);
    expect(await keyCount()).toBe(before + 1);

    const client = server.client(key);
    expect((await client.assistant.list()).length).toBeGreaterThan(0);
    const made = await client.assistant.create({ name: 'Made with the CLI key' });
    expect(made.orgId).toBe((await server.client().assistant.get(made.id)).orgId);

    const list = await keys(server, 'list');
    const line = list.stdout.split('\n').find((l) => l.startsWith(id));
    expect(line).toContain(`…${key.slice(-4)}  active  "CRM sync"`);
    expect(list.stdout).not.toContain(key);
    // Only its hash is stored.
    const stored = await server.db.get('select * from api_keys where id = ?', id);
    expect(JSON.stringify(stored)).not.toContain(key.slice('tb_private_'.length));
  });

  it('creates a public key limited to its origins: 201 from them, 403 from anywhere else', async () => {
    const result = await keys(
      server,
      'create',
      '--kind',
      'public',
      '--name',
      'Clinic site',
      '--origins',
      'https://a.example, https://b.example:8443',
    );
    expect(result.code).toBe(0);
    const { id, key } = createdKey(result);
    expect(key).toMatch(/^tb_public_/);

    expect((await webCallFrom(key, 'https://a.example')).status).toBe(201);
    expect((await webCallFrom(key, 'https://b.example:8443')).status).toBe(201);
    const elsewhere = await webCallFrom(key, 'https://evil.example');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe(
      'This public key only works from https://a.example, https://b.example:8443; this request came from https://evil.example.',
    );
    expect((await webCallFrom(key, undefined)).status).toBe(403);
    // Still a public key: nothing but web calls.
    expect((await failure(server.client(key).assistant.list())).status).toBe(403);

    const list = await keys(server, 'list');
    expect(list.stdout.split('\n').find((l) => l.startsWith(id))).toMatch(
      /public {3}….{4} {2}active {2}"Clinic site" {2}created \S+ {2}origins: https:\/\/a\.example, https:\/\/b\.example:8443$/,
    );
  });

  it('stores an origin the way browsers send it (without a trailing slash)', async () => {
    const result = await keys(
      server,
      'create',
      '--kind',
      'public',
      '--origins',
      'https://a.example/',
    );
    expect(result.code).toBe(0);
    const { key } = createdKey(result);
    expect(await webCallFrom(key, 'https://a.example')).toMatchObject({ status: 201 });
    expect(await webCallFrom(key, 'https://b.example')).toMatchObject({ status: 403 });
  });

  it('revokes a key: it answers 401 from then on, and the other keys keep working', async () => {
    const { id, key } = createdKey(await keys(server, 'create', '--kind', 'private'));
    await server.client(key).assistant.list();

    const result = await keys(server, 'revoke', id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      `Revoked private key ${id} (…${key.slice(-4)}). Requests with it now get 401.\n`,
    );
    const error = await failure(server.client(key).assistant.list());
    expect(error.status).toBe(401);
    expect(error.apiError?.message).toBe(
      'This API key is not valid or has been revoked. Check the key, or create a new one.',
    );
    expect(await server.client().assistant.list()).not.toHaveLength(0);

    const list = await keys(server, 'list');
    expect(list.stdout.split('\n').find((l) => l.startsWith(id))).toMatch(
      /private {2}….{4} {2}revoked \d{4}-\d\d-\d\dT\S+Z {2}"private key"/,
    );
  });

  it('revokes a public key too, and the server stops handing it to the web app', async () => {
    const { id, key } = createdKey(await keys(server, 'create', '--kind', 'public'));
    expect((await webCallFrom(key, 'https://any.example')).status).toBe(201);
    const handedOut = async () =>
      ((await server.get('/api/client-config')).json as { platformPublicKey: string | null })
        .platformPublicKey;
    // The newest key that works from any origin is the one the web app gets.
    expect(await handedOut()).toBe(key);
    expect((await keys(server, 'revoke', id)).code).toBe(0);
    expect((await webCallFrom(key, 'https://any.example')).status).toBe(401);
    expect(await handedOut()).toBe(server.publicKey);
  });

  it('makes keys on a stopped server’s folder that work once it starts again', async () => {
    const stopped = await startTestServer();
    await stopped.close();
    const { key } = createdKey(
      await keys(stopped, 'create', '--kind', 'private', '--name', 'Offline'),
    );
    const again = await startTestServer({ dataDir: stopped.dataDir });
    try {
      expect(again.createdKeys).toEqual([]);
      expect(await again.client(key).assistant.list()).toHaveLength(1);
      expect(await again.client(stopped.privateKey).assistant.list()).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  describe('bad usage exits 1 with a clear message and changes nothing', () => {
    it('prints the usage for no command (exit 1) and for --help (exit 0)', async () => {
      const none = await keys(server);
      expect(none.code).toBe(1);
      expect(none.stdout.startsWith(USAGE_START)).toBe(true);
      expect(none.stdout).toContain('npm run keys -- create --kind private|public');
      expect(none.stdout).toContain('npm run keys -- revoke <key id>');

      const help = await keys(server, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toBe(none.stdout);
    });

    it.each([
      [['frob'], /^Unknown command "frob"\.\n\nManage the platform API keys/],
      [['create'], /^Give --kind private or --kind public\.\n$/],
      [['create', '--kind', 'wrong'], /^Give --kind private or --kind public\.\n$/],
      [
        ['create', '--kind', 'private', '--origins', 'https://a.example'],
        /^--origins applies to public keys only\.\n$/,
      ],
      [
        ['create', '--kind', 'public', '--origins', 'https://a.example,clinic.example'],
        /^Not an origin \(scheme:\/\/host\[:port\]\): clinic\.example\n$/,
      ],
      [['revoke'], /^Give the id of the key to revoke \(see `npm run keys -- list`\)\.\n$/],
      [['revoke', 'no-such-key'], /^There is no key with id no-such-key\.\n$/],
      [['list', '--bogus'], /^Unknown option '--bogus'/],
      [['create', '--kind'], /--kind/],
    ])('%j', async (args, message) => {
      const before = await keyCount();
      const result = await keys(server, ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(result.stdout).not.toMatch(/tb_(private|public)_/);
      expect(await keyCount()).toBe(before);
    });

    it('says to start the server first on an empty data folder', async () => {
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-keys-empty-'));
      // On PostgreSQL the database exists, empty: the server has never run on it.
      const db = await testDatabaseFor(empty);
      const where =
        db.kind === 'sqlite'
          ? `at ${path.join(empty, 'talkbooth.db')}`
          : `in ${new URL(db.url).host}${new URL(db.url).pathname}`;
      for (const args of [['list'], ['create', '--kind', 'private']]) {
        const result = await keys({ dataDir: empty, db }, ...args);
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          `There is no Talkbooth database ${where} yet. Start the server once (npm start), then manage keys.\n`,
        );
        expect(result.stdout).toBe('');
      }
      // Asking about keys creates nothing: no file, no table.
      expect(fs.readdirSync(empty)).toEqual([]);
      if (db.kind === 'postgres')
        expect(await db.all('select * from pg_tables where schemaname = ?', 'public')).toEqual([]);
      await db.close();
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
