import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { ApiKeyRepository, type ApiKeyRecord } from '../db/repositories/api-keys.js';
import { defaultOrgId } from '../db/repositories/orgs.js';
import type { Database } from '../db/schema.js';
import { generateApiKey, keyHint, type ApiKeyKind } from '../security/api-keys.js';
import type { SecretBox } from '../security/secret-box.js';
import { hashToken, sameSecret } from '../security/tokens.js';

/** Who is calling the platform API. */
export interface Principal {
  orgId: string;
  kind: ApiKeyKind;
  keyId: string;
  /** Origins a public key may be used from; empty means any. */
  allowedOrigins: string[];
}

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

const SEAL_CONTEXT = (id: string) => `api_keys:${id}`;
const KINDS: ApiKeyKind[] = ['private', 'public'];

/**
 * API keys: a private key with full access and a public key that may only start web
 * calls. Keys are stored hashed; public keys are also kept sealed, because the web app
 * must be handed one. Keys from the environment (PLATFORM_PRIVATE_KEY / _PUBLIC_KEY) are
 * then the only keys of their kind.
 */
export class ApiKeyService {
  private readonly keys: ApiKeyRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly config: Pick<
      Config,
      'platformPrivateKey' | 'platformPublicKey' | 'platformAllowedOrigins'
    >,
  ) {
    this.keys = new ApiKeyRepository(db);
  }

  private envKey(kind: ApiKeyKind): string | undefined {
    return kind === 'private' ? this.config.platformPrivateKey : this.config.platformPublicKey;
  }

  /** At start: creates one key of each kind that has neither an active key nor one from the environment. */
  async provision(now: Date): Promise<CreatedKey[]> {
    const created: CreatedKey[] = [];
    for (const kind of KINDS) {
      if (this.envKey(kind) !== undefined) continue;
      if ((await this.keys.countActive(await defaultOrgId(this.db), kind)) > 0) continue;
      created.push(await this.create(kind, { name: `${kind} key created at first start` }, now));
    }
    return created;
  }

  async create(
    kind: ApiKeyKind,
    options: { name: string; allowedOrigins?: string[]; orgId?: string },
    now: Date,
  ): Promise<CreatedKey> {
    const key = generateApiKey(kind);
    const id = crypto.randomUUID();
    const record = await this.keys.insert(
      {
        id,
        orgId: options.orgId ?? (await defaultOrgId(this.db)),
        kind,
        name: options.name,
        keyHash: hashToken(key),
        hint: keyHint(key),
        allowedOrigins: kind === 'public' ? (options.allowedOrigins ?? []) : [],
        sealedKey: kind === 'public' ? this.box.seal(key, SEAL_CONTEXT(id)) : null,
      },
      now,
    );
    return { key, record };
  }

  /** The caller behind a bearer token, or null for a wrong or revoked key. */
  async authenticate(token: string): Promise<Principal | null> {
    for (const kind of KINDS) {
      const envKey = this.envKey(kind);
      if (envKey !== undefined && sameSecret(token, envKey)) {
        return {
          orgId: await defaultOrgId(this.db),
          kind,
          keyId: `env-${kind}`,
          allowedOrigins: kind === 'public' ? this.config.platformAllowedOrigins : [],
        };
      }
    }
    const record = await this.keys.findActiveByHash(hashToken(token));
    // A kind configured in the environment accepts only the environment's key.
    if (record === undefined || this.envKey(record.kind) !== undefined) return null;
    return {
      orgId: record.orgId,
      kind: record.kind,
      keyId: record.id,
      allowedOrigins: record.kind === 'public' ? this.originsOf(record.allowedOrigins) : [],
    };
  }

  /**
   * Where a public key may be used from: its own origins, or PLATFORM_ALLOWED_ORIGINS for a
   * key that has none (the generated key the web app hands out, too). Empty means any.
   */
  private originsOf(own: string[]): string[] {
    return own.length > 0 ? own : this.config.platformAllowedOrigins;
  }

  /** The origins the web app's public key accepts (empty: any), for the start banner. */
  async webPublicKeyOrigins(): Promise<string[]> {
    if (this.config.platformPublicKey !== undefined) return this.config.platformAllowedOrigins;
    const newest = await this.keys.newestActivePublic(await defaultOrgId(this.db));
    return this.originsOf(newest?.allowedOrigins ?? []);
  }

  /** The public key the web app starts calls with (the first organisation's, whose demo it serves), or null. */
  async webPublicKey(): Promise<string | null> {
    if (this.config.platformPublicKey !== undefined) return this.config.platformPublicKey;
    const newest = await this.keys.newestActivePublic(await defaultOrgId(this.db));
    return newest === undefined ? null : this.box.open(newest.sealedKey, SEAL_CONTEXT(newest.id));
  }

  /**
   * The public key the booth starts calls with for an organisation's access codes: the
   * server's own web key for the first organisation, else that organisation's newest
   * public key. An organisation that never had one gets one now (one registered before
   * keys were per organisation, or a new one); one whose owners revoked them all gets none,
   * and its codes cannot start calls until it makes a new one.
   */
  async webPublicKeyFor(orgId: string, now: Date): Promise<string | null> {
    if (orgId === (await defaultOrgId(this.db))) return this.webPublicKey();
    let newest = await this.keys.newestActivePublic(orgId);
    if (newest === undefined && (await this.keys.countEver(orgId, 'public')) === 0) {
      await this.create(
        'public',
        { name: 'web booth key (made for its access codes)', orgId },
        now,
      );
      newest = await this.keys.newestActivePublic(orgId);
    }
    return newest === undefined ? null : this.box.open(newest.sealedKey, SEAL_CONTEXT(newest.id));
  }

  /** An organisation's keys (by default the first organisation's: the CLI's). */
  async list(orgId?: string): Promise<ApiKeyRecord[]> {
    return this.keys.list(orgId ?? (await defaultOrgId(this.db)));
  }

  async revoke(id: string, now: Date, orgId?: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.revoke(orgId ?? (await defaultOrgId(this.db)), id, now);
  }
}
