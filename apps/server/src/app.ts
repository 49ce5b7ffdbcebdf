import path from 'node:path';
import { fileURLToPath } from 'node:url';
import websocket from '@fastify/websocket';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { embeddedEngines, type EngineRegistry } from '@talkbooth/voice';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { isPostgres, openDatabase } from './db/open-database.js';
import { underStartLock } from './db/row-locks.js';
import { CallMetrics } from './observability/call-metrics.js';
import { registerMetricsRoute } from './observability/metrics-route.js';
import { registerCallRelay } from './scale-out/call-relay.js';
import { splitDeployment, workersReadiness } from './scale-out/split-deployment.js';
import { connectRedis } from './shared-state/redis-connection.js';
import { processMessaging } from './shared-state/process-messaging.js';
import { redisRateLimitStore } from './shared-state/rate-limit-store.js';
import { seedDemo, type DemoSeedReport } from './db/seed/seed-demo.js';
import { limitBodyDepth } from './http/body-depth.js';
import { registerCompression } from './http/compression.js';
import { BODY_LIMIT_BYTES, handleError, handleNotFound } from './http/error-replies.js';
import { answerSerializerCompiler } from './http/json-answers.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWebApp } from './http/web-app.js';
import { createLogger } from './logger.js';
import { warmAssistants } from './calls/warm-up.js';
import { registerCallSocket, MAX_SOCKET_MESSAGE_BYTES } from './calls/call-socket.js';
import { CallAdmission } from './calls/call-admission.js';
import { CallLeases } from './calls/call-leases.js';
import { LiveCalls } from './calls/live-calls.js';
import { registerHealthRoutes } from './health/health-routes.js';
import { registerHostCheck } from './http/public-address.js';
import { ServerLifecycle } from './lifecycle.js';
import { createOutboundFetch } from './security/outbound.js';
import type { GuessLimit } from './routes/deps.js';
import { appApiRoutes } from './routes/index.js';
import { clientConfigFor } from './routes/client-config.js';
import { listTalkDocuments } from './db/repositories/talk-documents.js';
import { accessCodeKey } from './security/access-codes.js';
import { loadMasterKey } from './security/master-key.js';
import { SecretBox } from './security/secret-box.js';
import { ApiKeyService, type CreatedKey } from './platform/api-key-service.js';
import { AccountAuth } from './console/account-auth.js';
import type { SignInLimit } from './console/deps.js';
import { consoleApi } from './console/plugin.js';
import { DatabaseSessionStore } from './console/sessions/session-store.js';
import { RedisSessionStore } from './console/sessions/redis-session-store.js';
import { registerOpenApi, PLATFORM_PREFIX } from './platform/openapi.js';
import { JOIN_TOKEN_TTL_MS } from './platform/deps.js';
import { platformApi } from './platform/plugin.js';
import { AssistantRepository } from './db/repositories/assistants.js';
import { CallRepository } from './db/repositories/calls.js';
import { CredentialRepository } from './db/repositories/credentials.js';
import { PhoneNumberRepository } from './db/repositories/phone-numbers.js';
import { serverWebhooks } from './webhooks/server-webhooks.js';
import type { WebhookSenderTimings } from './webhooks/webhook-sender.js';

export interface AppOptions {
  /** The logger to use; by default one at the configured level writing JSON to stdout. */
  logger?: Logger;
  /** Folder of the built web app; by default apps/web/dist next to this package. */
  webRoot?: string;
  /**
   * The web app's server renderer (apps/web/dist-server/entry-server.js): by default that
   * file when `webRoot` is the default too, else none (null) unless given.
   */
  webRenderer?: string | null;
  /** Wrong access codes allowed per client and window (default 10 per 15 minutes). */
  guessLimit?: GuessLimit;
  /** The clock, for tests that need to move time. */
  now?: () => Date;
  /** Console sign-in attempts allowed per address and e-mail (default 10 per 10 minutes). */
  signInLimit?: SignInLimit;
  /** Voice engine settings (tests shorten the decoder pool's idle time). */
  voice?: { idleTrimMs?: number };
  /** Server-message (webhook) timings: tests shorten the retries and the poll interval. */
  webhooks?: WebhookSenderTimings;
}

export interface TalkboothApp {
  app: FastifyInstance;
  /** What the demo seeding did at this start (for the start banner). */
  demo: DemoSeedReport;
  /** Platform keys created at this start: shown once in the banner, never again. */
  createdKeys: CreatedKey[];
  /** Migrations applied at this start. */
  migrations: string[];
  /**
   * Begins a shutdown: new calls are refused, readiness fails, and every live call is
   * ended (each caller told why, each record written). Then `app.close()` finishes it.
   */
  drain(): Promise<void>;
  /** The origins the web app's public key accepts (empty: any); null when it is not ours. */
  webKeyOrigins: string[] | null;
  /** The engines calls run on (tests read how many decoders they hold). */
  engines: EngineRegistry;
  /** How many assistants the start's warm-up got ready (0 before the server is ready). */
  warmedUp(): Promise<number>;
}

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url));
export const DEFAULT_WEB_RENDERER = fileURLToPath(
  new URL('../../web/dist-server/entry-server.js', import.meta.url),
);
export const DEFAULT_GUESS_LIMIT: GuessLimit = { max: 10, timeWindowMs: 15 * 60 * 1000 };
export const DEFAULT_SIGN_IN_LIMIT: SignInLimit = { max: 10, timeWindowMs: 10 * 60 * 1000 };

/**
 * The composition root: builds the whole server from its configuration. Opens and
 * migrates the database, seeds the demo, and wires every route. The caller listens (and a
 * test can use any port and a throw-away database); closing the app closes the database.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<TalkboothApp> {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const db = openDatabase(config.databaseUrl);
  let redis: Redis | undefined;
  try {
    // Shared with the other server processes, when there are any.
    redis = config.redisUrl === undefined ? undefined : await connectRedis(config.redisUrl, logger);
    const shared = redis;
    const migrations = await migrateToLatest(db);
    const masterKey = loadMasterKey(config.secretKey, config.dataDir);
    const codeKey = accessCodeKey(masterKey);
    const box = new SecretBox(masterKey);
    const keys = new ApiKeyService(db, box, config);
    // Replicas starting together on one PostgreSQL database take turns here.
    const { demo, createdKeys } = await underStartLock(db, async (locked) => ({
      demo: await seedDemo(locked, { pinnedCode: config.demoUnicode, codeKey, now: now() }),
      createdKeys: await new ApiKeyService(locked, box, config).provision(now()),
    }));
    const assistants = new AssistantRepository(db, box);
    const outbound = createOutboundFetch({ allowPrivate: config.outboundAllowPrivate });
    // Server messages (the assistant's serverUrl webhooks). Every call change that reports
    // one (started, ended by whatever path, a new transcript line) queues it in
    // webhook_deliveries inside the call's own write, through the call repository; a sender
    // in every process (any role) claims and posts due rows through the outbound hardening.
    // Started once the app is built, stopped at close before the database closes.
    const webhooks = serverWebhooks({
      db,
      box,
      fetch: outbound.fetch,
      log: logger,
      now,
      timings: options.webhooks,
    });
    const calls = new CallRepository(db, box, webhooks.callChanges);
    const credentials = new CredentialRepository(db, box);
    const lifecycle = new ServerLifecycle();
    const role = config.role;
    const admission = new CallAdmission({
      // An API process holds no calls of its own: only the per-address cap applies there.
      maxCalls: role === 'api' ? Number.MAX_SAFE_INTEGER : config.maxLiveCalls,
      maxPerAddress: config.maxLiveCallsPerAddress,
    });
    const live = new LiveCalls();
    const metrics = new CallMetrics({
      liveCalls: () => live.size,
      placesTaken: () => admission.count,
      capacity: role === 'api' ? null : config.maxLiveCalls,
    });
    const leases = new CallLeases(calls, {
      ttlMs: config.callLeaseSeconds * 1000,
      joinTtlMs: JOIN_TOKEN_TTL_MS,
      now,
      log: logger,
      onEnded: (reason) => metrics.callEnded(reason),
      voiceWorker: role === 'voice',
    });
    const split = splitDeployment(config, shared, leases.owner, logger);

    const app = Fastify({
      loggerInstance: logger,
      bodyLimit: BODY_LIMIT_BYTES,
      trustProxy: config.trustProxy,
      routerOptions: { ignoreTrailingSlash: true },
    }) as unknown as FastifyInstance; // pino's Logger type is narrower than the default generic; behaviour is the same.
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(answerSerializerCompiler);
    app.setErrorHandler(handleError);
    app.setNotFoundHandler(handleNotFound);
    app.addHook('preValidation', limitBodyDepth);
    app.addHook('onClose', async () => {
      await webhooks.stop();
      await leases.stop();
      await outbound.close();
      await db.destroy();
      // A polite QUIT when Redis answers; when it is away, just drop the connection.
      await shared?.quit().catch(() => shared.disconnect());
    });

    // First of all hooks: nothing may build a header or a link from a malformed Host.
    registerHostCheck(app, config.publicUrl);
    await registerSecurityHeaders(app, {
      webPlatformBaseUrl: config.webPlatformBaseUrl,
      publicUrl: config.publicUrl,
    });
    await registerCompression(app);
    await registerOpenApi(app);
    await app.register(rateLimit, {
      global: false,
      allowList: config.rateLimitExemptIps,
      // Counters every process shares (a limit spent on one holds on all), or this process's.
      ...(shared === undefined
        ? {}
        : { store: redisRateLimitStore(shared, `${config.redisKeyPrefix}rate-limit:`) }),
    });
    const engines = embeddedEngines({
      modelCacheDir: path.join(config.dataDir, 'models'),
      ...(config.recognitionThreads === undefined ? {} : { threads: config.recognitionThreads }),
      ...(config.denoiseThreads === undefined ? {} : { denoiseThreads: config.denoiseThreads }),
      ...(config.moonshineThreads === undefined
        ? {}
        : { moonshineThreads: config.moonshineThreads }),
      ...(config.generalDecodersPerThread === undefined
        ? {}
        : { generalDecodersPerThread: config.generalDecodersPerThread }),
      generalModel: config.generalModel,
      onDenoiseProblem: (message) => logger.warn(message),
      ...options.voice,
    });
    // Between the processes of a deployment: live-call controls and saved assistants.
    const messaging = await processMessaging({
      config,
      redis: shared,
      assistants,
      engines,
      live,
      log: logger,
    });
    app.addHook('onClose', () => messaging.close());
    // A voice worker serves calls only (and its health and metrics); the rest is the API's.
    if (role !== 'voice') {
      // Console sessions: in Redis when the deployment shares one, else in the database.
      const accounts = new AccountAuth(
        db,
        shared === undefined
          ? new DatabaseSessionStore(db)
          : new RedisSessionStore(shared, config.redisKeyPrefix),
        now,
      );
      await app.register(cookie);
      await app.register(csrfProtection, {
        sessionPlugin: '@fastify/cookie',
        cookieOpts: { path: '/', httpOnly: true, sameSite: 'strict', secure: 'auto' },
        getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
      });
      app.decorateRequest('account', null);
      await app.register(consoleApi, {
        prefix: '/console/api',
        db,
        auth: accounts,
        keys,
        now,
        signInLimit: options.signInLimit ?? DEFAULT_SIGN_IN_LIMIT,
        publicUrl: config.publicUrl,
      });
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
        accounts,
        ...(messaging.prepareAssistant === undefined
          ? {}
          : { prepareAssistant: messaging.prepareAssistant }),
        controlCall: messaging.controlCall,
        db,
        keys,
        codeKey,
        now,
        assistants,
        calls,
        credentials,
        phoneNumbers: new PhoneNumberRepository(db, box),
        legacyRecordingsDir: path.join(config.dataDir, 'recordings'),
        rateLimitExemptIps: config.rateLimitExemptIps,
        admission,
        dispatch: split?.dispatch,
        addressPlaces: split?.addressPlaces,
        lifecycle,
        publicUrl: config.publicUrl,
      });
    }
    const drain = async () => {
      lifecycle.beginDraining();
      await live.endAll('server-shutdown');
    };
    // Before the socket plugin's own preClose closes every socket: end live calls properly
    // (each client told why, each record written) first.
    app.addHook('preClose', async () => {
      // First out of dispatch, so no new call comes here while the live ones end.
      await split?.presence?.stop();
      await drain();
    });
    const presence = split?.presence;
    if (presence !== undefined) app.addHook('onListen', () => presence.start());
    // Once the server is up, the engines of the assistants visitors reach by code get
    // ready in the background (an API process runs no calls, so it warms nothing).
    let warming: Promise<number> = Promise.resolve(0);
    let closing = false;
    if (role !== 'api')
      app.addHook('onReady', async () => {
        warming = warmAssistants(
          { assistants, engines, log: logger, now },
          config.warmAssistants,
          () => closing,
        );
      });
    app.addHook('onClose', async () => {
      closing = true;
      await warming;
      await engines.dispose();
    });
    await app.register(websocket, { options: { maxPayload: MAX_SOCKET_MESSAGE_BYTES } });
    if (split?.dispatch !== undefined) {
      const dispatch = split.dispatch;
      metrics.watchWorkers(() => dispatch.workers());
      registerCallRelay(app, {
        dispatch: split.dispatch,
        addressPlaces: split.addressPlaces,
        onError: (kind) => metrics.relayError(kind),
      });
    } else
      registerCallSocket(app, {
        calls,
        assistants,
        credentials,
        engines,
        live,
        admission,
        leases,
        lifecycle,
        outboundFetch: outbound.fetch,
        publicUrl: config.publicUrl,
        metrics,
        presence,
        now,
      });
    registerMetricsRoute(app, metrics, config.metricsToken);

    registerHealthRoutes(app, {
      checks: {
        database: async () => {
          try {
            await sql`select 1`.execute(db);
          } catch (error) {
            const detail = error instanceof Error ? error.message : String(error);
            throw new Error(`The database does not answer (${detail}).`);
          }
          return isPostgres(db) ? 'ok (PostgreSQL)' : 'ok (SQLite)';
        },
        ...(shared === undefined
          ? {}
          : {
              redis: async () => {
                await shared.ping();
                return 'ok';
              },
            }),
        ...(role === 'api' ? {} : { voice: () => engines.check() }),
        shutdown: async () => {
          if (lifecycle.draining) throw new Error('The server is shutting down.');
          return 'running';
        },
        calls: async () => {
          if (split?.dispatch !== undefined) return workersReadiness(split.dispatch);
          if (admission.full)
            throw new Error(`All ${config.maxLiveCalls} call places are taken (MAX_LIVE_CALLS).`);
          return `${admission.count} of ${config.maxLiveCalls} places taken`;
        },
      },
    });
    if (role !== 'voice') {
      await registerWebApp(app, options.webRoot ?? DEFAULT_WEB_ROOT, {
        renderer:
          options.webRenderer !== undefined
            ? options.webRenderer
            : options.webRoot === undefined
              ? DEFAULT_WEB_RENDERER
              : null,
        bootData: async (request) => {
          const talkDocuments = await listTalkDocuments(db, config.product);
          return {
            config: await clientConfigFor(request, { config, keys }, talkDocuments),
            talkDocuments,
          };
        },
      });
    }
    const webKeyOrigins =
      config.webPlatformBaseUrl === undefined ? await keys.webPublicKeyOrigins() : null;
    // Ends the calls a crashed run left behind, then keeps leases and the sweep going.
    await leases.start();
    webhooks.start();
    return {
      app,
      demo,
      createdKeys,
      migrations,
      drain,
      webKeyOrigins,
      engines,
      warmedUp: () => warming,
    };
  } catch (error) {
    await db.destroy();
    redis?.disconnect();
    throw error;
  }
}
