import { parseArgs } from 'node:util';
import { DatabaseSessionStore } from '../console/sessions/session-store.js';
import { temporaryPassword } from '../console/routes/team-routes.js';
import type { Kysely } from 'kysely';
import { RedisSessionStore } from '../console/sessions/redis-session-store.js';
import { loadConfig, type Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { createLogger } from '../logger.js';
import { connectRedis } from '../shared-state/redis-connection.js';
import { findCredentialsByEmail, listMembers, setPasswordHash } from '../db/repositories/users.js';
import { hashPassword } from '../security/passwords.js';
import { openServerDatabase, runCommand, UsageError } from './server-database.js';

const USAGE = `Manage console accounts (the server's database, from DATA_DIR / DATABASE_URL).

  npm run users -- list
  npm run users -- reset-password <e-mail>

reset-password prints a one-time password (shown once; only its hash is stored) and ends
the account's console sessions (in Redis when REDIS_URL is set, as the server keeps them).`;

/** Ends the account's sessions where the server keeps them. */
async function endSessions(config: Config, db: Kysely<Database>, userId: string): Promise<void> {
  if (config.redisUrl === undefined) return new DatabaseSessionStore(db).deleteForUser(userId);
  const redis = await connectRedis(config.redisUrl, createLogger({ level: 'silent' }));
  try {
    await new RedisSessionStore(redis, config.redisKeyPrefix).deleteForUser(userId);
  } finally {
    redis.disconnect();
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined) {
    console.log(USAGE);
    return command === undefined && values.help !== true ? 1 : 0;
  }
  const config = loadConfig(process.env);
  const db = await openServerDatabase(config, 'manage accounts');
  try {
    switch (command) {
      case 'list': {
        const orgs = await db
          .selectFrom('orgs')
          .select(['id', 'name'])
          .orderBy('created_at')
          .execute();
        let any = false;
        for (const org of orgs) {
          const members = await listMembers(db, org.id);
          if (members.length === 0) continue;
          any = true;
          console.log(`${org.name} (${org.id})`);
          for (const m of members)
            console.log(`  ${m.email}  ${m.role}  "${m.username}"  since ${m.createdAt}`);
        }
        if (!any) console.log('No accounts yet. Register one at /register.');
        return 0;
      }
      case 'reset-password': {
        const email = rest[0];
        if (email === undefined) throw new UsageError('Give the e-mail address of the account.');
        const account = await findCredentialsByEmail(db, email);
        if (account === null)
          throw new UsageError(`There is no account with the e-mail address ${email}.`);
        const password = temporaryPassword();
        await setPasswordHash(db, account.id, await hashPassword(password), new Date());
        await endSessions(config, db, account.id);
        console.log(
          `The password of ${email.trim().toLowerCase()} is reset. Give this one-time password to its owner, who should change it after signing in; it is not shown again:\n\n  ${password}\n`,
        );
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
    }
  } finally {
    await db.destroy();
  }
}

runCommand('users', USAGE, main);
