import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cuttableProxy, type CuttableProxy } from '../test-support/cuttable-proxy.js';
import { testDatabaseFor } from '../test-support/test-database.js';
import { serversClosedAfterEachTest } from '../test-support/test-server.js';
import { DATABASE_UNAVAILABLE } from './unavailable-errors.js';

// Scale-out project only: the server reaches the real PostgreSQL through a proxy the test cuts.
const start = serversClosedAfterEachTest();
const proxies: CuttableProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

describe('PostgreSQL away (the connection cut by a TCP proxy in front of the real server)', () => {
  it('says so in readiness, answers requests with a clear 503, and recovers when it is back', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-db-away-'));
    const db = await testDatabaseFor(dataDir);
    const direct = new URL(db.url);
    const proxy = await cuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    proxies.push(proxy);
    const proxied = new URL(db.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const server = await start({ dataDir, env: { DATABASE_URL: proxied.toString() } });
    const assistants = () =>
      server.get('/platform/assistant', { authorization: `Bearer ${server.privateKey}` });
    expect((await server.get('/readyz')).json).toMatchObject({
      checks: { database: 'ok (PostgreSQL)' },
    });
    expect((await assistants()).status).toBe(200);

    proxy.cut();
    const notReady = await server.get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.json).toMatchObject({
      status: 'not-ready',
      checks: { database: expect.stringMatching(/^failing: The database does not answer/) },
    });
    const refused = await assistants();
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: DATABASE_UNAVAILABLE,
    });
    // Nothing about the connection leaks into the answer.
    expect(refused.text).not.toContain(String(proxy.port));

    proxy.mend();
    await expect.poll(async () => (await server.get('/readyz')).status).toBe(200);
    expect((await assistants()).status).toBe(200);
  });
});
