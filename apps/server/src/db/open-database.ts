import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

/** True for the URLs `openDatabase` hands to PostgreSQL. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//.test(databaseUrl);
}

/**
 * Opens the database a URL names, ready for Kysely: `sqlite:FILE` (creating its folder) or
 * `sqlite::memory:`, or `postgres://…` / `postgresql://…` through a connection pool. The
 * schema and every query are the same on both.
 */
export function openDatabase(databaseUrl: string): Kysely<Database> {
  if (isPostgresUrl(databaseUrl)) return openPostgres(databaseUrl);
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length));
  throw new Error('The database URL must start with sqlite: or postgres://');
}

/** True when `db` talks to PostgreSQL (whose transactions need explicit row locks). */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function openSqlite(location: string): Kysely<Database> {
  const inMemory = location === ':memory:';
  // The folder holds password hashes and keys: only the server's user may enter it.
  if (!inMemory)
    fs.mkdirSync(path.dirname(path.resolve(location)), { recursive: true, mode: 0o700 });

  const sqlite = new SQLite(inMemory ? ':memory:' : location);
  // WAL lets readers run while a write is in progress; the rest makes the file safe
  // and the engine honour foreign keys.
  if (!inMemory) sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');

  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

function openPostgres(connectionString: string): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    // A server replica's share of PostgreSQL's connections; the URL may not set it.
    max: 10,
    // Fail a start or a readiness check within seconds when the server does not answer.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that the server drops (a restart, a failover) must not crash the
  // process: the pool replaces it, and the next query reports any lasting failure.
  pool.on('error', () => undefined);
  // A connection lost while a query holds it (PostgreSQL restarting, a network cut) fails
  // that query, which reports it; the client's own 'error' event, which the pool listens
  // to only while the client is idle, must not become an uncaught exception that ends
  // the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
