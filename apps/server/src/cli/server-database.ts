import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { ConfigError, type Config } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { isPostgresUrl, openDatabase } from '../db/open-database.js';
import type { Database } from '../db/schema.js';

/** A mistake of the person at the terminal: printed as it is, with no stack. */
export class UsageError extends Error {}

/**
 * The server's own database for a maintenance command (`npm run keys`, `npm run users`),
 * migrated to this version. Refuses, with what to do, when the server never ran there:
 * a command never creates a database of its own. `task` completes "…, then <task>".
 */
export async function openServerDatabase(config: Config, task: string): Promise<Kysely<Database>> {
  const notYet = (where: string) =>
    new UsageError(
      `There is no Talkbooth database ${where} yet. Start the server once (npm start), then ${task}.`,
    );
  const postgres = isPostgresUrl(config.databaseUrl);
  const databaseFile = config.databaseUrl.slice('sqlite:'.length);
  if (!postgres && databaseFile !== ':memory:' && !fs.existsSync(databaseFile)) {
    throw notYet(`at ${databaseFile}`);
  }
  const db = openDatabase(config.databaseUrl);
  try {
    if (postgres) {
      // Never create the schema from here: an empty database means the server never ran.
      const tables = await db.introspection.getTables();
      if (!tables.some((table) => table.name === 'orgs')) {
        // Host and database only: the URL's user and password stay out of the message.
        const url = new URL(config.databaseUrl);
        throw notYet(`in ${url.host}${url.pathname}`);
      }
    }
    await migrateToLatest(db);
    const org = await db.selectFrom('orgs').select('id').executeTakeFirst();
    if (org === undefined) {
      throw new UsageError(
        `The database is empty. Start the server once (npm start), then ${task}.`,
      );
    }
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Runs a maintenance command with the process's arguments and exits with its code. A
 * mistake at the terminal (usage, configuration, unknown option) prints its message (with
 * the usage where it helps); anything else prints "<name> failed: …".
 */
export function runCommand(
  name: string,
  usage: string,
  main: (argv: string[]) => Promise<number>,
): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError || error instanceof ConfigError) console.error(error.message);
      else if (
        error instanceof TypeError &&
        'code' in error &&
        String(error.code).startsWith('ERR_PARSE_ARGS')
      ) {
        console.error(`${error.message}\n\n${usage}`);
      } else console.error(`${name} failed:`, error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
