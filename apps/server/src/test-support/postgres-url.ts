/**
 * The PostgreSQL server the PostgreSQL tests use: `TEST_POSTGRES_URL`, or the local server
 * on its standard port. It must name a database the user may connect to; the tests create
 * and drop their own databases beside it.
 */
export function postgresTestUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}
