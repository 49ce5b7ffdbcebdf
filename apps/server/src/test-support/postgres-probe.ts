import pg from 'pg';
import { postgresTestUrl } from './postgres-url.js';

/**
 * Whether the PostgreSQL test project runs: always in CI (where a missing server must fail
 * the run), elsewhere only when a server answers, saying clearly when it is skipped.
 */
export async function shouldRunPostgresTests(): Promise<boolean> {
  if (process.env.CI) return true;
  const url = postgresTestUrl();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    const where = new URL(url);
    console.warn(
      `\n[talkbooth] SKIPPED: the server's repository and API tests on PostgreSQL. No PostgreSQL answered at ${where.host} (${(error as Error).message}). Start one, or set TEST_POSTGRES_URL, to run them; CI always runs them.\n`,
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
