// PostgreSQL and Redis for the scale-out benchmark: a database and a Redis key prefix of
// this run's own (dropped and deleted at the end), how much each was used, and how much
// each can take on this machine.
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function withDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Why the services cannot be used here, or null when both answer. */
async function problem() {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return `no PostgreSQL answered at ${new URL(POSTGRES_URL).host} (TEST_POSTGRES_URL): ${error.message}`;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `no Redis answered at ${new URL(REDIS_URL).host} (TEST_REDIS_URL): ${error.message}`;
  } finally {
    redis.disconnect();
  }
  return null;
}

/**
 * A database and a key prefix for this run, or `{ skipped }` saying why there are none.
 * `close()` drops the database and deletes the keys.
 */
export async function openSharedServices() {
  const skipped = await problem();
  if (skipped !== null) return { skipped };
  const database = `talkbooth_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = withDatabase(POSTGRES_URL, database);
  const stats = new pg.Client({ connectionString: databaseUrl });
  await stats.connect();
  const redis = new Redis(REDIS_URL);
  const prefix = `talkbooth-bench-${database.slice(-8)}:`;

  // Write transactions (each takes a transaction id) and WAL bytes: both counted at once,
  // unlike pg_stat_database, whose counters backends report up to seconds late. They are
  // the whole server's, and nothing else writes to it while the benchmark runs.
  const databaseWrites = async () => {
    const { rows } = await stats.query(
      `select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xid,
              (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint as wal`,
    );
    return { transactions: Number(rows[0].xid), walBytes: Number(rows[0].wal) };
  };
  const commandsProcessed = async () => {
    const info = await redis.info('stats');
    return Number(info.match(/total_commands_processed:(\d+)/)[1]);
  };

  return {
    databaseUrl,
    redisUrl: REDIS_URL,
    prefix,
    /**
     * Starts counting database rows written (and transactions) and Redis commands;
     * `stop()` answers the differences. Both ends wait for PostgreSQL's statistics to
     * settle, since backends report them up to seconds late.
     */
    /** Starts counting database write transactions, WAL bytes and Redis commands; `stop()` answers the differences. */
    async usage() {
      const before = { db: await databaseWrites(), redis: await commandsProcessed() };
      return async () => {
        const redisCommands = (await commandsProcessed()) - before.redis - 1;
        const db = await databaseWrites();
        return {
          databaseWrites: db.transactions - before.db.transactions,
          walBytes: db.walBytes - before.db.walBytes,
          redisCommands,
        };
      };
    },
    async close() {
      await stats.end();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
    },
  };
}

/**
 * What PostgreSQL and Redis on this machine take, with the same kind of work a call gives
 * them: for PostgreSQL, transactions that lock a call-sized JSON row, then update it (as the
 * call record is written); for Redis, single commands from several clients.
 */
export async function serviceCeilings({ databaseUrl, redisUrl, prefix }, seconds) {
  const table = `bench_ceiling_${crypto.randomBytes(3).toString('hex')}`;
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  const body = JSON.stringify({
    messages: Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 ? 'user' : 'bot',
      message: 'a sentence of about the length a caller or the assistant says in one turn',
      time: Date.now(),
    })),
  });
  await setup.query(`create table ${table} (id int primary key, body jsonb not null)`);
  await setup.query(`insert into ${table} select n, $1::jsonb from generate_series(1, 1000) as n`, [
    body,
  ]);
  const until = Date.now() + seconds * 1000;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 16 });
  let transactions = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (Date.now() < until) {
        const id = 1 + Math.floor(Math.random() * 1000);
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query(`select body from ${table} where id = $1 for update`, [id]);
          await client.query(`update ${table} set body = $2::jsonb where id = $1`, [id, body]);
          await client.query('commit');
          transactions += 1;
        } finally {
          client.release();
        }
      }
    }),
  );
  await pool.end();
  await setup.query(`drop table ${table}`);
  await setup.end();

  const clients = Array.from({ length: 16 }, () => new Redis(redisUrl));
  let commands = 0;
  const redisUntil = Date.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (redis, i) => {
      while (Date.now() < redisUntil) {
        await redis.set(`${prefix}ceiling:${i}`, String(commands), 'EX', 60);
        commands += 1;
      }
    }),
  );
  await clients[0].del(...clients.map((_, i) => `${prefix}ceiling:${i}`));
  for (const redis of clients) redis.disconnect();
  return {
    postgresWritesPerSecond: Math.round(transactions / seconds),
    redisCommandsPerSecond: Math.round(commands / seconds),
  };
}
