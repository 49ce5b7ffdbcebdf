import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';

/** What the PostgreSQL test project's global setup hands every test file. */
export interface PostgresTestRun {
  /** A URL of the server's maintenance database, for creating and dropping databases. */
  adminUrl: string;
  /** This run's database-name prefix: every database it creates starts with it. */
  prefix: string;
}

/** The Redis the scale-out project's servers share, and this run's key prefix. */
export interface RedisTestRun {
  url: string;
  prefix: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTestRun: PostgresTestRun | undefined;
    redisTestRun: RedisTestRun | undefined;
  }
}

/**
 * The database a test server runs on, and plain SQL over it for arranging and checking
 * rows. In the scale-out project every data folder gets its own database (a restart on the
 * same folder finds the same one), dropped when the run ends; otherwise the SQLite file
 * the server makes in its data folder, exactly as `npm start` does.
 */
export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  /** The server's DATABASE_URL. */
  url: string;
  /** Rows of a query; `?` stands for each parameter, on either database. */
  all<T>(text: string, ...params: unknown[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T>(text: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement. */
  run(text: string, ...params: unknown[]): Promise<void>;
  /** How many rows `table` holds (optionally only those matching `where`). */
  count(table: string, where?: string, ...params: unknown[]): Promise<number>;
  /**
   * Everything the database has stored, as text: for "this secret was never written"
   * checks. SQLite: the file's bytes (free pages and the write-ahead log included);
   * PostgreSQL: every row of every table.
   */
  storedText(): Promise<string>;
  close(): Promise<void>;
}

/** True in the scale-out test project (PostgreSQL and Redis). */
export function inScaleOutProject(): boolean {
  return inject('postgresTestRun') !== undefined;
}

/**
 * The Redis settings for a server on `dataDir` in the scale-out project (its keys under a
 * prefix of its own, which a restart or a second replica on the same folder shares), or
 * none: a server elsewhere keeps its counters in memory.
 */
export function redisEnvFor(dataDir: string): Record<string, string> {
  const run = inject('redisTestRun');
  if (run === undefined) return {};
  return { REDIS_URL: run.url, REDIS_KEY_PREFIX: `${run.prefix}${folderHash(dataDir)}:` };
}

const folderHash = (dataDir: string) =>
  crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);

/** The database for a server whose data folder is `dataDir` (created when missing). */
export async function testDatabaseFor(dataDir: string): Promise<TestDatabase> {
  const run = inject('postgresTestRun');
  return run === undefined
    ? sqliteDatabase(path.join(dataDir, 'talkbooth.db'))
    : postgresDatabase(run, dataDir);
}

function sqliteDatabase(file: string): TestDatabase {
  let handle: SQLite.Database | undefined;
  const open = () => (handle ??= new SQLite(file));
  return {
    kind: 'sqlite',
    url: `sqlite:${file}`,
    all: <T>(text: string, ...params: unknown[]) =>
      Promise.resolve(
        open()
          .prepare(text)
          .all(...params) as T[],
      ),
    get: <T>(text: string, ...params: unknown[]) =>
      Promise.resolve(
        open()
          .prepare(text)
          .get(...params) as T | undefined,
      ),
    run: (text, ...params) => {
      open()
        .prepare(text)
        .run(...params);
      return Promise.resolve();
    },
    count: (table, where, ...params) => {
      const row = open()
        .prepare(
          `select count(*) as n from ${table}${where === undefined ? '' : ` where ${where}`}`,
        )
        .get(...params) as { n: number };
      return Promise.resolve(row.n);
    },
    storedText: () => {
      const files = [file, `${file}-wal`].filter((name) => fs.existsSync(name));
      return Promise.resolve(
        Buffer.concat(files.map((name) => fs.readFileSync(name))).toString('latin1'),
      );
    },
    close: () => {
      handle?.close();
      handle = undefined;
      return Promise.resolve();
    },
  };
}

async function postgresDatabase(run: PostgresTestRun, dataDir: string): Promise<TestDatabase> {
  const name = `${run.prefix}_${folderHash(dataDir)}`;
  const admin = new pg.Client({ connectionString: run.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } catch (error) {
    // 42P04: it exists, because a server on this data folder ran before (a restart).
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await admin.end();
  }
  const url = new URL(run.adminUrl);
  url.pathname = `/${name}`;
  let pool: pg.Pool | undefined;
  const query = async <T>(text: string, params: unknown[]): Promise<T[]> => {
    pool ??= new pg.Pool({ connectionString: url.href, max: 2 });
    let index = 0;
    const numbered = text.replace(/\?/g, () => `$${++index}`);
    return (await pool.query(numbered, params)).rows as T[];
  };
  return {
    kind: 'postgres',
    url: url.href,
    all: (text, ...params) => query(text, params),
    get: async <T>(text: string, ...params: unknown[]) => (await query<T>(text, params))[0],
    run: async (text, ...params) => {
      await query(text, params);
    },
    count: async (table, where, ...params) => {
      const [row] = await query<{ n: string }>(
        `select count(*) as n from ${table}${where === undefined ? '' : ` where ${where}`}`,
        params,
      );
      return Number(row?.n ?? 0);
    },
    storedText: async () => {
      const tables = await query<{ name: string }>(
        "select tablename as name from pg_tables where schemaname = 'public' order by 1",
        [],
      );
      const parts: string[] = [];
      for (const { name: table } of tables) {
        const rows = await query<{ row: string }>(`select t::text as row from ${table} t`, []);
        parts.push(...rows.map((r) => r.row));
      }
      return parts.join('\n');
    },
    close: async () => {
      await pool?.end();
      pool = undefined;
    },
  };
}
