import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';

/** Opens the database named by a `sqlite:` URL (creating its folder), ready for Kysely. */
export function openDatabase(databaseUrl: string): Kysely<Database> {
  const location = databaseUrl.slice('sqlite:'.length);
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
