import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A value that is unset or blank counts as unset, so `PORT=` falls back to the default. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema,
  );

function boolean(fallback: 'true' | 'false') {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true');
}

function count(min: number, max: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` });
}

/**
 * Calls at once by default: on a 2-core machine every call's turns are still answered at
 * 12, though slowly; p95 voice-to-voice stays within 800 ms to 8 calls in the knowledge
 * base's wording and to 1 in callers' own words (the concurrency benchmark, BENCHMARKS.md).
 */
export const DEFAULT_MAX_LIVE_CALLS = 12;
/**
 * Assistants made ready at start by default: a clinic's booth serves one or a few. Each
 * keeps its recogniser loaded, as its first call would; the first also loads what every
 * call shares (acoustic and general models, Moonshine: about 520 MB with one Moonshine
 * thread, 680 MB with two, measured).
 */
export const DEFAULT_WARM_ASSISTANTS = 3;
/** Calls at once from one client address by default: a few booths behind one router. */
export const DEFAULT_MAX_CALLS_PER_ADDRESS = 4;

/**
 * The environment, validated. Every setting has a safe default for one machine; the
 * messages say what a good value looks like.
 */
export const ROLES = ['all', 'api', 'voice'] as const;
export type Role = (typeof ROLES)[number];

const envSchema = z.object({
  PORT: optional(
    z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be between 0 and 65535' })
      .max(65535, { error: 'must be between 0 and 65535' })
      .default(3000),
  ),
  HOST: optional(z.string().default('localhost')),
  DATA_DIR: optional(z.string().default('./data')),
  DATABASE_URL: optional(
    z
      .string()
      .refine((url) => url.startsWith('sqlite:') || /^postgres(ql)?:\/\/./.test(url), {
        error:
          'must be a SQLite URL such as sqlite:./data/talkbooth.db (or sqlite::memory:) or a PostgreSQL URL such as postgres://user@host:5432/talkbooth',
      })
      .optional(),
  ),
  LOG_LEVEL: optional(
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
  DEMO_UNICODE: optional(
    z
      .string()
      .trim()
      .min(4, { error: 'must be at least 4 characters (it is the demo access code)' })
      .max(64, { error: 'must be at most 64 characters' })
      .refine((code) => /^[\p{L}\p{N}_-]+$/u.test(code), {
        error: 'may only contain letters, digits, "-" and "_" (it goes into a URL)',
      })
      .optional(),
  ),
  TALK_HOME_URL: optional(
    z
      .string()
      .refine((url) => url.startsWith('/') || /^https?:\/\/[^\s]+$/.test(url), {
        error: 'must be a path starting with "/" or an http(s) URL',
      })
      .default('/'),
  ),
  PRODUCT: optional(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, {
        error: 'must be a short lowercase name of letters, digits and "-" (like medibrief)',
      })
      .default('medibrief'),
  ),
  SECRET_KEY: optional(
    z
      .string()
      .refine((key) => decodeKey(key) !== null, {
        error: 'must be 32 random bytes as 64 hex characters or base64 (try: openssl rand -hex 32)',
      })
      .optional(),
  ),
  PLATFORM_PRIVATE_KEY: optional(
    z
      .string()
      .trim()
      .min(16, { error: 'must be at least 16 characters (use a long random key)' })
      .optional(),
  ),
  PLATFORM_PUBLIC_KEY: optional(
    z
      .string()
      .trim()
      .min(16, { error: 'must be at least 16 characters (use a long random key)' })
      .optional(),
  ),
  PLATFORM_ALLOWED_ORIGINS: optional(
    z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((origin) => origin.trim())
          .filter((origin) => origin !== ''),
      )
      .refine((origins) => origins.every((origin) => normaliseOrigin(origin) !== null), {
        error:
          'must be a comma-separated list of origins like https://clinic.example (scheme, host, optional port)',
      })
      .optional(),
  ),
  WEB_PLATFORM_BASE_URL: optional(
    z
      .url({ error: 'must be the http(s) URL of a platform API, like https://api.vapi.ai' })
      .refine((url) => /^https?:\/\//.test(url), {
        error: 'must be an http(s) URL, like https://api.vapi.ai',
      })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  ),
  WEB_PLATFORM_PUBLIC_KEY: optional(
    z.string().trim().min(8, { error: 'must be a platform public key' }).optional(),
  ),
  RATE_LIMIT_EXEMPT_IPS: optional(
    z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((ip) => ip.trim())
          .filter((ip) => ip !== ''),
      )
      .refine((ips) => ips.every((ip) => isIP(ip) !== 0), {
        error: 'must be a comma-separated list of IP addresses, like 127.0.0.1,::1',
      })
      .optional(),
  ),
  TRUST_PROXY: optional(boolean('false')),
  PUBLIC_URL: optional(
    z
      .string()
      .refine((url) => normaliseOrigin(url) !== null, {
        error:
          'must be the address visitors open, like https://talk.clinic.example (scheme, host, optional port; no path)',
      })
      .transform((url) => normaliseOrigin(url) ?? url)
      .optional(),
  ),
  REDIS_URL: optional(
    z
      .string()
      .refine((url) => /^rediss?:\/\/./.test(url), {
        error: 'must be a Redis URL such as redis://redis.internal:6379 (or rediss:// for TLS)',
      })
      .optional(),
  ),
  REDIS_KEY_PREFIX: optional(
    z
      .string()
      .regex(/^[\w.:-]{1,64}$/, {
        error: 'must be 1–64 letters, digits or . _ : - (like talkbooth:)',
      })
      .default('talkbooth:'),
  ),
  ROLE: optional(z.enum(ROLES, { error: 'must be all, api or voice' }).default('all')),
  WORKER_URL: optional(
    z
      .string()
      .refine((url) => /^https?:\/\/[^/]+\/?$/.test(url), {
        error:
          'must be the address API processes reach this voice worker at, like http://10.0.0.5:3001 (no path)',
      })
      .transform((url) => url.replace(/\/$/, ''))
      .optional(),
  ),
  METRICS_TOKEN: optional(
    z
      .string()
      .min(16, { error: 'must be at least 16 characters (a random token for the scraper)' })
      .optional(),
  ),
  MAX_LIVE_CALLS: optional(count(1, 10_000).default(DEFAULT_MAX_LIVE_CALLS)),
  MAX_LIVE_CALLS_PER_ADDRESS: optional(count(1, 10_000).default(DEFAULT_MAX_CALLS_PER_ADDRESS)),
  OUTBOUND_ALLOW_PRIVATE: optional(boolean('false')),
  CALL_LEASE_SECONDS: optional(count(1, 300).default(15)),
  SHUTDOWN_GRACE_SECONDS: optional(count(1, 600).default(10)),
  WARM_ASSISTANTS: optional(count(0, 100).default(DEFAULT_WARM_ASSISTANTS)),
  RECOGNITION_THREADS: optional(count(0, 64).optional()),
  DENOISE_THREADS: optional(count(0, 64).optional()),
  MOONSHINE_THREADS: optional(count(1, 64).optional()),
  GENERAL_DECODERS_PER_THREAD: optional(count(1, 64).optional()),
  GENERAL_MODEL: optional(
    z.enum(['on-doubt', 'off'], { error: 'must be on-doubt or off' }).default('on-doubt'),
  ),
});

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Folder for the SQLite file and the generated secret key. */
  dataDir: string;
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. */
  databaseUrl: string;
  /**
   * Redis, for what several server processes share (rate-limit counters so far). Unset: one
   * process keeps all of it in memory, as before.
   */
  redisUrl: string | undefined;
  /** Put before every Redis key, so deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** Bearer token for `GET /metrics` (Prometheus); unset, the endpoint does not exist. */
  metricsToken: string | undefined;
  /**
   * What this process does: `all` (everything, one process: the default), `api` (the
   * HTTP API, the web app, and call sockets relayed to voice workers) or `voice` (runs
   * calls for the API processes).
   */
  role: Role;
  /** ROLE=voice: the address API processes reach this worker at. */
  workerUrl: string | undefined;
  logLevel: LogLevel;
  /** Pins the seeded demo access code; otherwise one is generated. */
  demoUnicode: string | undefined;
  talkHomeUrl: string;
  product: string;
  /** 32-byte master key from SECRET_KEY; when absent a key file in dataDir is used. */
  secretKey: Buffer | undefined;
  /** Trust X-Forwarded-For from a reverse proxy (for per-client rate limits). */
  trustProxy: boolean;
  /** Platform keys kept outside the database; when set, they are the keys of their kind. */
  platformPrivateKey: string | undefined;
  platformPublicKey: string | undefined;
  /** Origins the environment's public key may be used from; empty means any. */
  platformAllowedOrigins: string[];
  /**
   * The platform the browser starts calls on, when not this server (e.g. the hosted
   * platform), with its public key. Unset: this server's /platform and public key.
   */
  webPlatformBaseUrl: string | undefined;
  webPlatformPublicKey: string | undefined;
  /** Client addresses no rate limit applies to (a load-testing machine, a trusted gateway). */
  rateLimitExemptIps: string[];
  /**
   * The address visitors open (`https://talk.clinic.example`): call links, recording links,
   * the web app's platform URL and the content security policy are built from it. Unset:
   * from each request's (checked) Host header.
   */
  publicUrl: string | undefined;
  /** Calls this server takes at once (places are held from POST /call/web). */
  maxLiveCalls: number;
  /** Calls at once from one client address (public-key calls). */
  maxLiveCallsPerAddress: number;
  /** Let requests to user-given URLs (custom-llm) reach loopback and private networks. */
  outboundAllowPrivate: boolean;
  /** How long a call's lease lasts unrenewed before another process may end the call. */
  callLeaseSeconds: number;
  /** How long a shutdown may take before the process exits anyway. */
  shutdownGraceSeconds: number;
  /** Assistants reached by access code whose engines get ready at start (0: none). */
  warmAssistants: number;
  /** Worker threads pocketsphinx decodes on (0: on the event loop); default one per core. */
  recognitionThreads?: number;
  /** Worker threads the callers' audio is cleaned on (0: on the event loop); default one per core. */
  denoiseThreads?: number;
  /** Worker threads Moonshine (the second opinion) reads on (about 160 MB each); default one per core. */
  moonshineThreads?: number;
  /** General-model decoders (about 49 MB each) a recognition thread keeps at most. */
  generalDecodersPerThread?: number;
  /**
   * When pocketsphinx's general model hears a turn its domain model doubts: `on-doubt`, or
   * `off` (Moonshine's reading takes its place: less CPU and memory per call, fewer
   * paraphrases understood; see the README).
   */
  generalModel: 'on-doubt' | 'off';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and checks the configuration; throws a ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // One line per variable: its first problem is the one to fix.
    const problems = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      if (problems.has(name)) continue;
      const raw = env[name];
      // Never echo a secret back, even a malformed one.
      const shown =
        SECRET_VARIABLES.has(name) || raw === undefined ? '' : ` (got "${withoutPassword(raw)}")`;
      problems.set(name, `${name} ${issue.message}${shown}`);
    }
    throw new ConfigError([...problems.values()]);
  }
  const e = parsed.data;
  const together = rolesProblems(e.ROLE, e.REDIS_URL, e.WORKER_URL);
  if (together.length > 0) throw new ConfigError(together);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'talkbooth.db')}`,
    logLevel: e.LOG_LEVEL,
    demoUnicode: e.DEMO_UNICODE,
    talkHomeUrl: e.TALK_HOME_URL,
    product: e.PRODUCT,
    secretKey: e.SECRET_KEY === undefined ? undefined : (decodeKey(e.SECRET_KEY) ?? undefined),
    trustProxy: e.TRUST_PROXY,
    platformPrivateKey: e.PLATFORM_PRIVATE_KEY,
    platformPublicKey: e.PLATFORM_PUBLIC_KEY,
    platformAllowedOrigins: (e.PLATFORM_ALLOWED_ORIGINS ?? []).map(
      (origin) => normaliseOrigin(origin) ?? origin,
    ),
    webPlatformBaseUrl: e.WEB_PLATFORM_BASE_URL,
    webPlatformPublicKey: e.WEB_PLATFORM_PUBLIC_KEY,
    rateLimitExemptIps: e.RATE_LIMIT_EXEMPT_IPS ?? [],
    publicUrl: e.PUBLIC_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    metricsToken: e.METRICS_TOKEN,
    role: e.ROLE,
    workerUrl: e.WORKER_URL,
    maxLiveCalls: e.MAX_LIVE_CALLS,
    maxLiveCallsPerAddress: e.MAX_LIVE_CALLS_PER_ADDRESS,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
    callLeaseSeconds: e.CALL_LEASE_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    warmAssistants: e.WARM_ASSISTANTS,
    ...(e.RECOGNITION_THREADS === undefined ? {} : { recognitionThreads: e.RECOGNITION_THREADS }),
    ...(e.DENOISE_THREADS === undefined ? {} : { denoiseThreads: e.DENOISE_THREADS }),
    ...(e.MOONSHINE_THREADS === undefined ? {} : { moonshineThreads: e.MOONSHINE_THREADS }),
    ...(e.GENERAL_DECODERS_PER_THREAD === undefined
      ? {}
      : { generalDecodersPerThread: e.GENERAL_DECODERS_PER_THREAD }),
    generalModel: e.GENERAL_MODEL,
  };
}

/** What a split deployment needs beside ROLE; one message per missing variable. */
function rolesProblems(
  role: Role,
  redisUrl: string | undefined,
  workerUrl: string | undefined,
): string[] {
  if (role === 'all') return [];
  const problems: string[] = [];
  if (redisUrl === undefined)
    problems.push(
      `ROLE=${role} needs REDIS_URL: API processes and voice workers find each other through Redis`,
    );
  if (role === 'voice' && workerUrl === undefined)
    problems.push(
      'ROLE=voice needs WORKER_URL: the address API processes relay calls to, like http://10.0.0.5:3001',
    );
  return problems;
}

/** A URL's password (`scheme://user:password@host`) replaced by `***`, for messages. */
function withoutPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

/** Variables whose values are never echoed back in a message. */
const SECRET_VARIABLES = new Set([
  'SECRET_KEY',
  'METRICS_TOKEN',
  'PLATFORM_PRIVATE_KEY',
  'PLATFORM_PUBLIC_KEY',
  'WEB_PLATFORM_PUBLIC_KEY',
]);

/**
 * An origin as browsers send it (`https://clinic.example`, `http://localhost:5173`), or
 * null for anything that is not one. A trailing slash is dropped; a path is refused.
 */
export function normaliseOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin === text.replace(/\/$/, '') ? url.origin : null;
  } catch {
    return null;
  }
}

/** 32 bytes from hex or base64, or null. */
export function decodeKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}
