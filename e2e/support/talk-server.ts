import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type AppOptions } from '@talkbooth/server/app';
import { loadConfig } from '@talkbooth/server/config';

export interface TalkServer {
  baseURL: string;
  demoCode: string;
  /** The seeded demo assistant's id, as the session object carries it. */
  assistantId: string;
  dataDir: string;
  /** The platform private key created at start (to read call records). */
  privateKey: string;
  /** The server's SQLite file (to read what the API does not show, like feedback). */
  databaseFile: string;
  close(): Promise<void>;
}

export const DEMO_CODE = 'riverside-demo';

/**
 * The real server, built the way `npm start` builds it (the built web app, migrations, the
 * demo seed), on a random port with its own SQLite file in a temp folder.
 */
export async function startTalkServer(
  options: { env?: Record<string, string>; guessLimit?: AppOptions['guessLimit'] } = {},
): Promise<TalkServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-e2e-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO_UNICODE: DEMO_CODE,
    LOG_LEVEL: 'warn',
    // Only the specs that call warm the demo's engines at start (as `npm start` does): on
    // two cores the others' pages would share the CPU with it for nothing.
    WARM_ASSISTANTS: '0',
    ...options.env,
  });
  // Browser tests enter many wrong codes from one address; the guess limit has its own test.
  const { app, createdKeys, warmedUp } = await buildApp(config, {
    guessLimit: options.guessLimit ?? { max: 1000, timeWindowMs: 60_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A spec that asks for warming meets a server that has been up a while, its engines
  // ready: a call that started while the demo's language model was still being built
  // spoke its greeting late, into the fake microphone's question (the record then rightly
  // held only the part spoken before the caller barged in).
  await warmedUp();
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no port');
  const baseURL = `http://127.0.0.1:${address.port}`;

  const session = await fetch(`${baseURL}/api/get-assistant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ unicode: DEMO_CODE }),
  });
  const { assistantId } = (await session.json()) as { assistantId: string };

  return {
    baseURL,
    demoCode: DEMO_CODE,
    assistantId,
    dataDir,
    privateKey: createdKeys.find((created) => created.record.kind === 'private')?.key ?? '',
    databaseFile: config.databaseUrl.slice('sqlite:'.length),
    async close() {
      await app.close();
    },
  };
}
