import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach } from 'vitest';
import { PlatformClient } from '@talkbooth/platform-client';
import { buildApp, type AppOptions, type TalkboothApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { accessCodeKey } from '../security/access-codes.js';
import { loadMasterKey } from '../security/master-key.js';
import { redisEnvFor, testDatabaseFor, type TestDatabase } from './test-database.js';

export const DEMO_CODE = 'riverside-demo';

export interface TestServer extends TalkboothApp {
  baseUrl: string;
  dataDir: string;
  /**
   * The server's database (its SQLite file, or in the PostgreSQL test project a database of
   * its own), with plain SQL for checking what was stored and arranging rows a test needs.
   */
  db: TestDatabase;
  /** Every log line the server wrote, as text. */
  logs: string[];
  /** The key this server hashes access codes with. */
  codeKey: Buffer;
  /** The platform keys created at this start (undefined when none was created). */
  privateKey: string | undefined;
  publicKey: string | undefined;
  /** The typed platform client with this server's private key (or another token). */
  client(token?: string): PlatformClient;
  /** POST a JSON body (or a raw string) and return status, headers and parsed body. */
  post(pathname: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  get(pathname: string, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface TestServerOptions extends Omit<AppOptions, 'logger'> {
  env?: Record<string, string>;
  /** Reuse a data folder (to restart a server on the same database). */
  dataDir?: string;
  /** Listen on this port (a voice worker whose WORKER_URL names it); a free one otherwise. */
  port?: number;
}

/**
 * Starts the real server on a random port with its own database (a SQLite file in a temp
 * folder; in the scale-out test project a PostgreSQL database and Redis keys of its own) and a tiny built web
 * app, exactly as `npm start` would run it.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-test-'));
  const db = await testDatabaseFor(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO_UNICODE: DEMO_CODE,
    LOG_LEVEL: 'info',
    // Most tests make no call: warming the demo's engines would only load the machine.
    WARM_ASSISTANTS: '0',
    ...(db.kind === 'postgres' ? { DATABASE_URL: db.url } : {}),
    ...redisEnvFor(dataDir),
    ...options.env,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const built = await buildApp(config, {
    ...options,
    webRoot: options.webRoot ?? makeWebRoot(),
    logger: createLogger({ level: config.logLevel, destination }),
  });
  await built.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = built.app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const request = async (init: RequestInit & { pathname: string }): Promise<TestResponse> => {
    const response = await fetch(baseUrl + init.pathname, init);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };

  const keyOf = (kind: 'private' | 'public') =>
    built.createdKeys.find((k) => k.record.kind === kind)?.key;
  const privateKey = keyOf('private');
  const publicKey = keyOf('public');
  return {
    ...built,
    baseUrl,
    dataDir,
    db,
    logs,
    codeKey: accessCodeKey(loadMasterKey(config.secretKey, dataDir)),
    privateKey,
    publicKey,
    client(token = privateKey ?? '') {
      return new PlatformClient({ token, baseUrl: `${baseUrl}/platform` });
    },
    post(pathname, body, headers = {}) {
      return request({
        pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    get(pathname, headers = {}) {
      return request({ pathname, method: 'GET', headers });
    },
    async close() {
      await db.close();
      await built.app.close();
    },
  };
}

/** A stand-in for the built web app: an index page and one hashed asset. */
function makeWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-web-'));
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><title>Talkbooth test page</title>',
  );
  fs.writeFileSync(path.join(root, 'assets', 'index-Ab12Cd34.js'), 'console.log("app")');
  fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

/**
 * For a test file whose tests each start their own servers: the answer starts one (as
 * `startTestServer`), and every server started in a test is closed after it.
 */
export function serversClosedAfterEachTest(): (options?: TestServerOptions) => Promise<TestServer> {
  const started: TestServer[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await server.close();
  });
  return async (options) => {
    const server = await startTestServer(options);
    started.push(server);
    return server;
  };
}
