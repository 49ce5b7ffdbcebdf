import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('has safe defaults for one machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      logLevel: 'info',
      demoUnicode: undefined,
      talkHomeUrl: '/',
      product: 'medibrief',
      secretKey: undefined,
      trustProxy: false,
    });
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.databaseUrl).toBe(`sqlite:${path.resolve('data', 'talkbooth.db')}`);
  });

  it('reads every variable', () => {
    const key = 'ab'.repeat(32);
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/tb',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'debug',
      DEMO_UNICODE: 'Clinic-2024',
      TALK_HOME_URL: 'https://clinic.example/',
      PRODUCT: 'otherbrief',
      SECRET_KEY: key,
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/tb',
      databaseUrl: 'sqlite::memory:',
      logLevel: 'debug',
      demoUnicode: 'Clinic-2024',
      talkHomeUrl: 'https://clinic.example/',
      product: 'otherbrief',
      trustProxy: true,
    });
    expect(config.secretKey?.toString('hex')).toBe(key);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', DEMO_UNICODE: '  ' })).toMatchObject({
      port: 3000,
      demoUnicode: undefined,
    });
  });

  it('takes a PostgreSQL URL, and never shows its password in an error', () => {
    for (const url of ['postgres://tb@db:5432/talk', 'postgresql://tb:pw@db/talk']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    const problems = problemsOf({ DATABASE_URL: 'postgre://tb:hunter2@db/talk' });
    expect(problems).toEqual([expect.stringContaining('(got "postgre://tb:***@db/talk")')]);
    expect(problems.join()).not.toContain('hunter2');
  });

  it('takes a Redis URL and key prefix, and never shows the password of a bad URL', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, redisKeyPrefix: 'talkbooth:' });
    expect(
      loadConfig({ REDIS_URL: 'rediss://:pw@cache:6380', REDIS_KEY_PREFIX: 'clinic-a:' }),
    ).toMatchObject({ redisUrl: 'rediss://:pw@cache:6380', redisKeyPrefix: 'clinic-a:' });
    const problems = problemsOf({ REDIS_URL: 'http://:hunter2@cache', REDIS_KEY_PREFIX: 'a b' });
    expect(problems).toEqual([
      'REDIS_URL must be a Redis URL such as redis://redis.internal:6379 (or rediss:// for TLS) (got "http://:***@cache")',
      'REDIS_KEY_PREFIX must be 1–64 letters, digits or . _ : - (like talkbooth:) (got "a b")',
    ]);
  });

  it('takes a metrics token of at least 16 characters, never echoing a short one', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token' }).metricsToken).toBe(
      'a-long-enough-token',
    );
    expect(problemsOf({ METRICS_TOKEN: 'short-secret' })).toEqual([
      'METRICS_TOKEN must be at least 16 characters (a random token for the scraper)',
    ]);
  });

  it('takes a role; a split one names what it also needs', () => {
    expect(loadConfig({}).role).toBe('all');
    expect(
      loadConfig({ ROLE: 'voice', REDIS_URL: 'redis://r', WORKER_URL: 'http://10.0.0.5:3001/' }),
    ).toMatchObject({ role: 'voice', workerUrl: 'http://10.0.0.5:3001' });
    expect(problemsOf({ ROLE: 'voice' })).toEqual([
      'ROLE=voice needs REDIS_URL: API processes and voice workers find each other through Redis',
      'ROLE=voice needs WORKER_URL: the address API processes relay calls to, like http://10.0.0.5:3001',
    ]);
    expect(problemsOf({ ROLE: 'api' })).toEqual([
      'ROLE=api needs REDIS_URL: API processes and voice workers find each other through Redis',
    ]);
    expect(problemsOf({ ROLE: 'worker', WORKER_URL: 'http://a/b' })).toEqual([
      'ROLE must be all, api or voice (got "worker")',
      'WORKER_URL must be the address API processes reach this voice worker at, like http://10.0.0.5:3001 (no path) (got "http://a/b")',
    ]);
  });

  it('lists every bad value with what a good one looks like', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://db/talk',
      TALK_HOME_URL: 'home',
      PRODUCT: 'Medi Brief',
      DEMO_UNICODE: 'a b',
      TRUST_PROXY: 'yes',
    });
    expect(problems).toEqual([
      'PORT must be a number (got "eighty")',
      'DATABASE_URL must be a SQLite URL such as sqlite:./data/talkbooth.db (or sqlite::memory:) or a PostgreSQL URL such as postgres://user@host:5432/talkbooth (got "mysql://db/talk")',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'DEMO_UNICODE must be at least 4 characters (it is the demo access code) (got "a b")',
      'TALK_HOME_URL must be a path starting with "/" or an http(s) URL (got "home")',
      'PRODUCT must be a short lowercase name of letters, digits and "-" (like medibrief) (got "Medi Brief")',
      'TRUST_PROXY must be true or false (got "yes")',
    ]);
  });

  it('warms three assistants at start by default; 0 turns it off; a bad count says why', () => {
    expect(loadConfig({}).warmAssistants).toBe(3);
    expect(loadConfig({ WARM_ASSISTANTS: '0' }).warmAssistants).toBe(0);
    expect(problemsOf({ WARM_ASSISTANTS: 'all' })).toEqual([
      'WARM_ASSISTANTS must be a number (got "all")',
    ]);
    expect(problemsOf({ WARM_ASSISTANTS: '101' })).toEqual([
      'WARM_ASSISTANTS must be between 0 and 100 (got "101")',
    ]);
  });

  it('leaves the recognition threads to the engine (one per core) unless told; 0 is the event loop', () => {
    expect(loadConfig({}).recognitionThreads).toBeUndefined();
    expect(loadConfig({ RECOGNITION_THREADS: '' }).recognitionThreads).toBeUndefined();
    expect(loadConfig({ RECOGNITION_THREADS: '0' }).recognitionThreads).toBe(0);
    expect(loadConfig({ RECOGNITION_THREADS: '4' }).recognitionThreads).toBe(4);
    expect(problemsOf({ RECOGNITION_THREADS: 'many' })).toEqual([
      'RECOGNITION_THREADS must be a number (got "many")',
    ]);
    expect(problemsOf({ RECOGNITION_THREADS: '65' })).toEqual([
      'RECOGNITION_THREADS must be between 0 and 64 (got "65")',
    ]);
  });

  it('leaves the denoise threads to the engine (one per core) unless told; 0 is the event loop', () => {
    expect(loadConfig({}).denoiseThreads).toBeUndefined();
    expect(loadConfig({ DENOISE_THREADS: '0' }).denoiseThreads).toBe(0);
    expect(loadConfig({ DENOISE_THREADS: '3' }).denoiseThreads).toBe(3);
    expect(problemsOf({ DENOISE_THREADS: '-1' })).toEqual([
      'DENOISE_THREADS must be between 0 and 64 (got "-1")',
    ]);
  });

  it('leaves the Moonshine threads to the engine (one per core) unless told; at least 1', () => {
    expect(loadConfig({}).moonshineThreads).toBeUndefined();
    expect(loadConfig({ MOONSHINE_THREADS: '1' }).moonshineThreads).toBe(1);
    expect(problemsOf({ MOONSHINE_THREADS: '0' })).toEqual([
      'MOONSHINE_THREADS must be between 1 and 64 (got "0")',
    ]);
  });

  it('leaves the general decoders per recognition thread to the engine unless told; at least 1', () => {
    expect(loadConfig({}).generalDecodersPerThread).toBeUndefined();
    expect(loadConfig({ GENERAL_DECODERS_PER_THREAD: '2' }).generalDecodersPerThread).toBe(2);
    expect(problemsOf({ GENERAL_DECODERS_PER_THREAD: '0' })).toEqual([
      'GENERAL_DECODERS_PER_THREAD must be between 1 and 64 (got "0")',
    ]);
  });

  it('runs the general model on doubt unless told off; nothing else', () => {
    expect(loadConfig({}).generalModel).toBe('on-doubt');
    expect(loadConfig({ GENERAL_MODEL: 'off' }).generalModel).toBe('off');
    expect(problemsOf({ GENERAL_MODEL: 'never' })).toEqual([
      'GENERAL_MODEL must be on-doubt or off (got "never")',
    ]);
  });

  it('rejects out-of-range ports and codes that cannot go into a URL', () => {
    expect(problemsOf({ PORT: '70000' })).toEqual([
      'PORT must be between 0 and 65535 (got "70000")',
    ]);
    expect(problemsOf({ DEMO_UNICODE: 'demo/code' })).toEqual([
      'DEMO_UNICODE may only contain letters, digits, "-" and "_" (it goes into a URL) (got "demo/code")',
    ]);
  });

  it('never echoes a bad SECRET_KEY', () => {
    const problems = problemsOf({ SECRET_KEY: 'my-secret-passphrase' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SECRET_KEY must be 32 random bytes/);
    expect(problems[0]).not.toContain('my-secret-passphrase');
  });
});

describe('rate limit exemptions', () => {
  it('takes a list of IP addresses and refuses anything else', () => {
    expect(loadConfig({ RATE_LIMIT_EXEMPT_IPS: '127.0.0.1, ::1' }).rateLimitExemptIps).toEqual([
      '127.0.0.1',
      '::1',
    ]);
    expect(problemsOf({ RATE_LIMIT_EXEMPT_IPS: 'localhost' })).toEqual([
      'RATE_LIMIT_EXEMPT_IPS must be a comma-separated list of IP addresses, like 127.0.0.1,::1 (got "localhost")',
    ]);
  });
});

describe('web platform settings', () => {
  it('takes the hosted platform URL without a trailing slash, and refuses anything else', () => {
    expect(loadConfig({ WEB_PLATFORM_BASE_URL: 'https://api.vapi.ai/' }).webPlatformBaseUrl).toBe(
      'https://api.vapi.ai',
    );
    expect(problemsOf({ WEB_PLATFORM_BASE_URL: 'ftp://api.vapi.ai' })).toEqual([
      'WEB_PLATFORM_BASE_URL must be an http(s) URL, like https://api.vapi.ai (got "ftp://api.vapi.ai")',
    ]);
  });
});

describe('platform key settings', () => {
  it('reads keys and allowed origins, and never echoes a bad key', () => {
    const config = loadConfig({
      PLATFORM_PRIVATE_KEY: 'private-key-0123456789',
      PLATFORM_PUBLIC_KEY: 'public-key-0123456789',
      PLATFORM_ALLOWED_ORIGINS: 'https://clinic.example, http://localhost:5173',
    });
    expect(config.platformPrivateKey).toBe('private-key-0123456789');
    expect(config.platformAllowedOrigins).toEqual([
      'https://clinic.example',
      'http://localhost:5173',
    ]);
    expect(problemsOf({ PLATFORM_PRIVATE_KEY: 'short' })).toEqual([
      'PLATFORM_PRIVATE_KEY must be at least 16 characters (use a long random key)',
    ]);
    expect(problemsOf({ PLATFORM_ALLOWED_ORIGINS: 'https://clinic.example/path' })[0]).toMatch(
      /^PLATFORM_ALLOWED_ORIGINS must be a comma-separated list of origins/,
    );
  });
});
