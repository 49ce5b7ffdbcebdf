import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssistantRepository } from '../db/repositories/assistants.js';
import { openDatabase } from '../db/open-database.js';
import { loadMasterKey } from '../security/master-key.js';
import { SecretBox } from '../security/secret-box.js';
import { serversClosedAfterEachTest } from '../test-support/test-server.js';

const start = serversClosedAfterEachTest();

/** The language models built into a server's model cache. */
function builtModels(dataDir: string): string[] {
  const dir = path.join(dataDir, 'models', 'language-models');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('engines made ready at start (WARM_ASSISTANTS)', () => {
  it('loads the recogniser of the assistant behind the demo code before anyone calls, and only that one', async () => {
    const server = await start({ env: { WARM_ASSISTANTS: '3' } });
    // An assistant no code reaches is left to its first call.
    await server.client().assistant.create({ name: 'Back office' });
    expect(await server.warmedUp()).toBe(1);
    expect(builtModels(server.dataDir).length).toBeGreaterThan(0);
    expect(await server.engines.decoderCount()).toBeGreaterThan(0);
    expect(server.logs.join('')).toMatch(/"warmed":1,.*assistants ready for their first calls/);
  });

  it('loads nothing with WARM_ASSISTANTS=0: the first call does it', async () => {
    const server = await start({ env: { WARM_ASSISTANTS: '0' } });
    expect(await server.warmedUp()).toBe(0);
    expect(await server.engines.decoderCount()).toBe(0);
    expect(builtModels(server.dataDir)).toEqual([]);
  });

  it('picks the assistants an active code reaches, the most recently updated first', async () => {
    const server = await start({ env: { WARM_ASSISTANTS: '0' } });
    const [demo] = await server.client().assistant.list();
    const other = await server.client().assistant.create({ name: 'Back office' });
    const db = openDatabase(`sqlite:${path.join(server.dataDir, 'talkbooth.db')}`);
    const repository = new AssistantRepository(
      db,
      new SecretBox(loadMasterKey(undefined, server.dataDir)),
    );
    const reached = async (limit = 5) =>
      (await repository.reachableByCode(new Date(), limit)).map((a) => a.body.name);
    try {
      let n = 0;
      const code = (columns: string, values: string) =>
        server.db.run(
          `insert into access_codes (id, org_id, assistant_id, code_hash, created_at, updated_at${columns}) values (?, ?, ?, ?, '2026-01-01', '2026-01-01'${values})`,
          `code-${(n += 1)}`,
          other.orgId,
          other.id,
          `hash-${n}`,
        );
      await code(', revoked_at', ", '2026-01-02'");
      await code(', expires_at', ", '2020-01-01T00:00:00.000Z'");
      await code(', max_uses, use_count', ', 2, 2');
      expect(await reached()).toEqual([demo!.name]);
      await code(', max_uses, use_count', ', 2, 1');
      expect(await reached()).toEqual(['Back office', demo!.name]);
      expect(await reached(1)).toEqual(['Back office']);
    } finally {
      await db.destroy();
    }
  });
});
