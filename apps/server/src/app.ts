import path from 'node:path';
import { fileURLToPath } from 'node:url';
import websocket from '@fastify/websocket';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { openDatabase } from './db/open-database.js';
import { seedDemo, type DemoSeedReport } from './db/seed/seed-demo.js';
import { limitBodyDepth } from './http/body-depth.js';
import { registerCompression } from './http/compression.js';
import { BODY_LIMIT_BYTES, handleError, handleNotFound } from './http/error-replies.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWebApp } from './http/web-app.js';
import { createLogger } from './logger.js';
import { registerCallSocket } from './calls/call-socket.js';
import { LiveCalls } from './calls/live-calls.js';
import { VoiceEngines } from './calls/voice-engines.js';
import type { GuessLimit } from './routes/deps.js';
import { appApiRoutes } from './routes/index.js';
import { accessCodeKey } from './security/access-codes.js';
import { loadMasterKey } from './security/master-key.js';
import { SecretBox } from './security/secret-box.js';
import { ApiKeyService, type CreatedKey } from './platform/api-key-service.js';
import { registerOpenApi, PLATFORM_PREFIX } from './platform/openapi.js';
import { platformApi } from './platform/plugin.js';
import { AssistantRepository } from './db/repositories/assistants.js';
import { CallRepository } from './db/repositories/calls.js';
import { CredentialRepository } from './db/repositories/credentials.js';
import { PhoneNumberRepository } from './db/repositories/phone-numbers.js';

export interface AppOptions {
  /** The logger to use; by default one at the configured level writing JSON to stdout. */
  logger?: Logger;
  /** Folder of the built web app; by default apps/web/dist next to this package. */
  webRoot?: string;
  /** Wrong access codes allowed per client and window (default 10 per 15 minutes). */
  guessLimit?: GuessLimit;
  /** The clock, for tests that need to move time. */
  now?: () => Date;
}

export interface TalkboothApp {
  app: FastifyInstance;
  /** What the demo seeding did at this start (for the start banner). */
  demo: DemoSeedReport;
  /** Platform keys created at this start: shown once in the banner, never again. */
  createdKeys: CreatedKey[];
  /** Migrations applied at this start. */
  migrations: string[];
}

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url));
export const DEFAULT_GUESS_LIMIT: GuessLimit = { max: 10, timeWindowMs: 15 * 60 * 1000 };

/**
 * The composition root: builds the whole server from its configuration. Opens and
 * migrates the database, seeds the demo, and wires every route. The caller listens (and a
 * test can use any port and a throw-away database); closing the app closes the database.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<TalkboothApp> {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const db = openDatabase(config.databaseUrl);
  try {
    const migrations = await migrateToLatest(db);
    const masterKey = loadMasterKey(config.secretKey, config.dataDir);
    const codeKey = accessCodeKey(masterKey);
    const box = new SecretBox(masterKey);
    const demo = await seedDemo(db, { pinnedCode: config.demoUnicode, codeKey, now: now() });
    const keys = new ApiKeyService(db, box, config);
    const assistants = new AssistantRepository(db, box);
    const calls = new CallRepository(db, box);
    const credentials = new CredentialRepository(db, box);
    const createdKeys = await keys.provision(now());

    const app = Fastify({
      loggerInstance: logger,
      bodyLimit: BODY_LIMIT_BYTES,
      trustProxy: config.trustProxy,
      routerOptions: { ignoreTrailingSlash: true },
    }) as unknown as FastifyInstance; // pino's Logger type is narrower than the default generic; behaviour is the same.
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(handleError);
    app.setNotFoundHandler(handleNotFound);
    app.addHook('preValidation', limitBodyDepth);
    app.addHook('onClose', async () => {
      await db.destroy();
    });

    await registerSecurityHeaders(app, { webPlatformBaseUrl: config.webPlatformBaseUrl });
    await registerCompression(app);
    await registerOpenApi(app);
    await app.register(rateLimit, { global: false, allowList: config.rateLimitExemptIps });
    await app.register(appApiRoutes, {
      prefix: '/api',
      db,
      config,
      codeKey,
      keys,
      now,
      guessLimit: options.guessLimit ?? DEFAULT_GUESS_LIMIT,
    });
    await app.register(platformApi, {
      prefix: PLATFORM_PREFIX,
      db,
      keys,
      codeKey,
      now,
      assistants,
      calls,
      credentials,
      phoneNumbers: new PhoneNumberRepository(db, box),
      recordingsDir: path.join(config.dataDir, 'recordings'),
      rateLimitExemptIps: config.rateLimitExemptIps,
    });
    const engines = new VoiceEngines(path.join(config.dataDir, 'models'));
    const live = new LiveCalls();
    // Before the socket plugin's own preClose closes every socket: end live calls properly
    // (each client told why, each record written) first.
    app.addHook('preClose', async () => {
      await live.endAll('server-shutdown');
    });
    app.addHook('onClose', async () => {
      await engines.dispose();
    });
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    registerCallSocket(app, {
      calls,
      assistants,
      credentials,
      engines,
      live,
      recordingsDir: path.join(config.dataDir, 'recordings'),
      now,
    });

    await registerWebApp(app, options.webRoot ?? DEFAULT_WEB_ROOT);
    return { app, demo, createdKeys, migrations };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
