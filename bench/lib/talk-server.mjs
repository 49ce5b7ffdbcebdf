// The real Talkbooth server, built as `npm start` builds it, on a random port with a
// throw-away data folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importBuilt } from './paths.mjs';

const { buildApp } = await importBuilt('apps/server/dist/app.js');
const { loadConfig } = await importBuilt('apps/server/dist/config.js');

export async function startTalkServer(env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO_UNICODE: 'bench-demo',
    ...env,
  });
  const { app, createdKeys, warmedUp } = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Measured as a server that has been up a while: the demo's engines ready (WARM_ASSISTANTS).
  await warmedUp();
  const baseUrl = `http://127.0.0.1:${app.server.address().port}`;
  const key = (kind) => createdKeys.find((created) => created.record.kind === kind).key;
  const privateKey = key('private');
  const platform = async (method, pathname, body) => {
    const response = await fetch(`${baseUrl}/platform${pathname}`, {
      method,
      headers: { authorization: `Bearer ${privateKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const [demo] = await platform('GET', '/assistant');
  return {
    app,
    baseUrl,
    dataDir,
    demoCode: 'bench-demo',
    assistantId: demo.id,
    privateKey,
    publicKey: key('public'),
    platform,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The booth's fixed call configuration (apps/web BOOTH_CALL_CONFIG): a hosted transcriber
 * that falls back to the offline one here, recording off, a sample name, a short greeting.
 */
export const BOOTH_OVERRIDES = {
  transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US' },
  recordingEnabled: false,
  variableValues: { name: 'Alex' },
  firstMessage: 'Hello {{name}}, how can I help you today?',
};
