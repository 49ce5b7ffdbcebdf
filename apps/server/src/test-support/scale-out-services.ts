/**
 * The PostgreSQL server the scale-out tests use: `TEST_POSTGRES_URL`, or the local server
 * on its standard port. It must name a database the user may connect to; the tests create
 * and drop their own databases beside it.
 */
export function postgresTestUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The Redis they use: `TEST_REDIS_URL`, or the local one. Keys carry a per-run prefix. */
export function redisTestUrl(): string {
  return process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}
