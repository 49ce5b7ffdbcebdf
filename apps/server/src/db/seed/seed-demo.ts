import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { generateAccessCode, hashAccessCode } from '../../security/access-codes.js';
import { insertAccessCode } from '../repositories/access-codes.js';
import { insertTalkDocuments } from '../repositories/talk-documents.js';
import type { Database } from '../schema.js';
import { demoAssistantDefinition, demoContent } from './demo-assistant.js';

const GENERATED = 'demo';
const PINNED = 'demo-pinned';

export interface DemoSeedOptions {
  /** DEMO_UNICODE: keep this code as the demo code. */
  pinnedCode: string | undefined;
  /** The key access codes are hashed with. */
  codeKey: Buffer;
  now: Date;
}

export interface DemoSeedReport {
  /** True when this start filled an empty database. */
  seeded: boolean;
  /** The demo access code to print, or null when there is no demo assistant any more. */
  demoCode: string | null;
  assistantName: string | null;
  pinned: boolean;
}

/**
 * Seeds the demo on an empty database (an organisation, the demo clinic assistant and its
 * talk collection) and makes sure exactly one demo access code is active:
 * - with DEMO_UNICODE, that code (created or re-activated);
 * - otherwise a freshly generated one at every start, because only its hash is stored and
 *   the start banner must print a working link. The previous generated code is revoked.
 * All in one transaction: a failed start leaves nothing half-written.
 */
export async function seedDemo(
  db: Kysely<Database>,
  options: DemoSeedOptions,
): Promise<DemoSeedReport> {
  return db.transaction().execute(async (trx) => {
    const existingOrg = await trx.selectFrom('orgs').select('id').limit(1).executeTakeFirst();
    const seeded = existingOrg === undefined;
    if (seeded) await insertDemo(trx, options.now);

    const target = seeded ? await firstAssistant(trx) : await currentDemoAssistant(trx);
    if (target === undefined) {
      return { seeded, demoCode: null, assistantName: null, pinned: false };
    }

    const pinned = options.pinnedCode !== undefined;
    const code = options.pinnedCode ?? generateAccessCode();
    const codeHash = hashAccessCode(code, options.codeKey);
    const at = options.now.toISOString();

    const existing = await trx
      .selectFrom('access_codes')
      .select('id')
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    let keepId: string;
    if (existing === undefined) {
      const inserted = await insertAccessCode(
        trx,
        {
          orgId: target.orgId,
          assistantId: target.assistantId,
          codeHash,
          label: pinned ? PINNED : GENERATED,
        },
        options.now,
      );
      keepId = inserted.id;
    } else {
      // The pinned code exists: the environment is the source of truth, so it is active.
      keepId = existing.id;
      await trx
        .updateTable('access_codes')
        .set({ revoked_at: null, expires_at: null, updated_at: at })
        .where('id', '=', keepId)
        .execute();
    }

    await trx
      .updateTable('access_codes')
      .set({ revoked_at: at, updated_at: at })
      .where('label', 'in', [GENERATED, PINNED])
      .where('revoked_at', 'is', null)
      .where('id', '!=', keepId)
      .execute();

    return { seeded, demoCode: code, assistantName: target.assistantName, pinned };
  });
}

async function insertDemo(trx: Transaction<Database>, now: Date): Promise<void> {
  const at = now.toISOString();
  const orgId = crypto.randomUUID();
  await trx
    .insertInto('orgs')
    .values({
      id: orgId,
      name: demoContent.talkCollection[0]?.title ?? 'Demo organisation',
      created_at: at,
      updated_at: at,
    })
    .execute();
  const definition = demoAssistantDefinition();
  await trx
    .insertInto('assistants')
    .values({
      id: crypto.randomUUID(),
      org_id: orgId,
      name: String(definition.name),
      data: JSON.stringify(definition),
      created_at: at,
      updated_at: at,
    })
    .execute();
  await insertTalkDocuments(trx, demoContent.product, demoContent.talkCollection, now);
}

interface DemoTarget {
  orgId: string;
  assistantId: string;
  assistantName: string;
}

/** Right after seeding, the only assistant there is. */
function firstAssistant(trx: Transaction<Database>): Promise<DemoTarget | undefined> {
  return trx
    .selectFrom('assistants')
    .select(['org_id as orgId', 'id as assistantId', 'name as assistantName'])
    .orderBy('created_at')
    .executeTakeFirst();
}

/** The assistant the latest demo code opens; none once that assistant was deleted. */
function currentDemoAssistant(trx: Transaction<Database>): Promise<DemoTarget | undefined> {
  return trx
    .selectFrom('access_codes as c')
    .innerJoin('assistants as a', 'a.id', 'c.assistant_id')
    .select(['c.org_id as orgId', 'a.id as assistantId', 'a.name as assistantName'])
    .where('c.label', 'in', [GENERATED, PINNED])
    .orderBy('c.created_at', 'desc')
    .executeTakeFirst();
}
