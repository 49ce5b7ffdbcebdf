import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresTestUrl, redisTestUrl } from './scale-out-services.js';

/**
 * Whether the scale-out test project (PostgreSQL and Redis) runs: always in CI, where a
 * missing server must fail the run; elsewhere only when both answer, saying clearly which
 * one did not and that the tests were skipped.
 */
export async function shouldRunScaleOutTests(): Promise<boolean> {
  if (process.env.CI) return true;
  const missing = [await postgresProblem(), await redisProblem()].filter(
    (problem) => problem !== undefined,
  );
  if (missing.length === 0) return true;
  console.warn(
    `\n[talkbooth] SKIPPED: the server's repository and API tests on PostgreSQL and Redis. ${missing.join(' ')} Start them, or set TEST_POSTGRES_URL and TEST_REDIS_URL, to run these tests; CI always runs them.\n`,
  );
  return false;
}

async function postgresProblem(): Promise<string | undefined> {
  const url = postgresTestUrl();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return `No PostgreSQL answered at ${new URL(url).host} (${(error as Error).message}).`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisProblem(): Promise<string | undefined> {
  const url = redisTestUrl();
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return `No Redis answered at ${new URL(url).host} (${(error as Error).message}).`;
  } finally {
    redis.disconnect();
  }
}
