import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const started: TestServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});
const start = async (...args: Parameters<typeof startTestServer>) => {
  const server = await startTestServer(...args);
  started.push(server);
  return server;
};
const check = async (server: TestServer, unicode: string) =>
  (await server.post('/api/get-assistant', { unicode })).json;

describe('demo seeding', () => {
  it('seeds the demo clinic once: assistant, knowledge base, intake and talk collection', async () => {
    const server = await start();
    expect(server.demo).toMatchObject({ seeded: true, pinned: true, demoCode: 'riverside-demo' });
    const rows = await server.db.all<{ name: string; data: string }>(
      'select name, data from assistants',
    );
    expect(rows).toHaveLength(1);
    const assistant = JSON.parse(rows[0]!.data) as Record<string, unknown> & {
      model: { knowledge: { id: string }[]; intake: { questions: unknown[] } };
    };
    expect(assistant).toMatchObject({
      name: 'Riverside Clinic front desk',
      firstMessage: expect.stringContaining('Hello {{name}}'),
      endCallPhrases: ['goodbye', 'bye bye', 'that is all thank you'],
      voice: { provider: 'espeak' },
      model: { provider: 'local' },
    });
    expect(assistant.model.knowledge.map((entry) => entry.id)).toContain('emergency');
    expect(assistant.model.intake.questions).toHaveLength(4);

    await server.close();
    started.pop();
    const again = await start({ dataDir: server.dataDir });
    expect(again.demo.seeded).toBe(false);
    expect(await again.db.count('assistants')).toBe(1);
  });

  it('stores codes only as keyed hashes: the code is nowhere in the database', async () => {
    const server = await start({ env: { DEMO_UNICODE: 'Plaintext-Probe-42' } });
    await server.close();
    started.pop();
    const bytes = (await server.db.storedText()).toLowerCase();
    expect(bytes).toContain('riverside clinic front desk');
    expect(bytes).not.toContain('plaintext-probe-42');
    expect(bytes).not.toContain('plaintextprobe42');
  });

  it('issues a new demo code at every start without DEMO_UNICODE, revoking the previous one', async () => {
    const first = await start({ env: { DEMO_UNICODE: '' } });
    const firstCode = first.demo.demoCode!;
    expect(first.demo).toMatchObject({ seeded: true, pinned: false });
    expect(firstCode).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await check(first, firstCode)).toMatchObject({
      assistantName: 'Riverside Clinic front desk',
    });
    await first.close();
    started.pop();

    const second = await start({ dataDir: first.dataDir, env: { DEMO_UNICODE: '' } });
    const secondCode = second.demo.demoCode!;
    expect(secondCode).not.toBe(firstCode);
    expect(await check(second, secondCode)).toMatchObject({
      assistantName: 'Riverside Clinic front desk',
    });
    expect(await check(second, firstCode)).toEqual([]);
  });

  it('keeps a pinned DEMO_UNICODE across restarts and retires the old one when the pin changes', async () => {
    const first = await start({ env: { DEMO_UNICODE: 'clinic-one' } });
    await first.close();
    started.pop();
    const second = await start({ dataDir: first.dataDir, env: { DEMO_UNICODE: 'clinic-one' } });
    expect(await check(second, 'clinic-one')).toMatchObject({ product: 'medibrief' });
    await second.close();
    started.pop();
    const third = await start({ dataDir: first.dataDir, env: { DEMO_UNICODE: 'clinic-two' } });
    expect(await check(third, 'clinic-two')).toMatchObject({ product: 'medibrief' });
    expect(await check(third, 'clinic-one')).toEqual([]);
    expect(await third.db.count('access_codes', 'revoked_at is null')).toBe(1);
  });

  it('has no demo link once the demo assistant is deleted', async () => {
    const first = await start();
    await first.db.run('delete from assistants');
    await first.close();
    started.pop();
    const second = await start({ dataDir: first.dataDir });
    expect(second.demo).toMatchObject({ seeded: false, demoCode: null });
  });
});

describe('the data folder', () => {
  it('is created private, with the key file readable by the server user only', async () => {
    const { default: os } = await import('node:os');
    const { default: path } = await import('node:path');
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-perm-')), 'data');
    const server = await start({ dataDir });
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    // The SQLite file lives there too; on PostgreSQL no file is made.
    expect(fs.existsSync(path.join(dataDir, 'talkbooth.db'))).toBe(server.db.kind === 'sqlite');
  });
});
