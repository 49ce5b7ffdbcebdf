import { parseArgs } from 'node:util';
import { loadConfig, normaliseOrigin } from '../config.js';
import { ApiKeyService } from '../platform/api-key-service.js';
import { loadMasterKey } from '../security/master-key.js';
import { SecretBox } from '../security/secret-box.js';
import { openServerDatabase, runCommand, UsageError } from './server-database.js';

const USAGE = `Manage the platform API keys (the server's database, from DATA_DIR / DATABASE_URL).

  npm run keys -- list
  npm run keys -- create --kind private|public [--name "CRM sync"] [--origins https://clinic.example,https://app.example]
  npm run keys -- revoke <key id>

A new key is printed once; only its hash is stored. --origins limits a public key to those
web origins.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kind: { type: 'string' },
      name: { type: 'string' },
      origins: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined) {
    console.log(USAGE);
    return command === undefined && values.help !== true ? 1 : 0;
  }

  const config = loadConfig(process.env);
  const db = await openServerDatabase(config, 'manage keys');
  try {
    const keys = new ApiKeyService(
      db,
      new SecretBox(loadMasterKey(config.secretKey, config.dataDir)),
      config,
    );
    const now = new Date();

    switch (command) {
      case 'list': {
        const all = await keys.list();
        if (all.length === 0)
          console.log('No keys yet. The server creates one of each kind at start.');
        for (const key of all) {
          const state = key.revokedAt === null ? 'active' : `revoked ${key.revokedAt}`;
          const origins =
            key.allowedOrigins.length === 0 ? '' : `  origins: ${key.allowedOrigins.join(', ')}`;
          console.log(
            `${key.id}  ${key.kind.padEnd(7)}  …${key.hint}  ${state}  "${key.name}"  created ${key.createdAt}${origins}`,
          );
        }
        if (config.platformPrivateKey !== undefined || config.platformPublicKey !== undefined) {
          console.log(
            'Note: keys from PLATFORM_PRIVATE_KEY / PLATFORM_PUBLIC_KEY replace stored keys of their kind.',
          );
        }
        return 0;
      }
      case 'create': {
        if (values.kind !== 'private' && values.kind !== 'public')
          throw new UsageError('Give --kind private or --kind public.');
        const given = (values.origins ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== '');
        const bad = given.filter((origin) => normaliseOrigin(origin) === null);
        const origins = given.map((origin) => normaliseOrigin(origin) ?? origin);
        if (bad.length > 0)
          throw new UsageError(`Not an origin (scheme://host[:port]): ${bad.join(', ')}`);
        if (origins.length > 0 && values.kind !== 'public')
          throw new UsageError('--origins applies to public keys only.');
        const { key, record } = await keys.create(
          values.kind,
          { name: values.name ?? `${values.kind} key`, allowedOrigins: origins },
          now,
        );
        console.log(
          `Created ${record.kind} key ${record.id}. Copy it now; it is not shown again:\n\n  ${key}\n`,
        );
        return 0;
      }
      case 'revoke': {
        const id = rest[0];
        if (id === undefined)
          throw new UsageError('Give the id of the key to revoke (see `npm run keys -- list`).');
        const revoked = await keys.revoke(id, now);
        if (revoked === undefined) throw new UsageError(`There is no key with id ${id}.`);
        console.log(
          `Revoked ${revoked.kind} key ${revoked.id} (…${revoked.hint}). Requests with it now get 401.`,
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

runCommand('keys', USAGE, main);
