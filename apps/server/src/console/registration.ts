import crypto from 'node:crypto';
import type { RegisteredUser } from '@talkbooth/protocol';
import type { Kysely } from 'kysely';
import { defaultOrgId } from '../db/repositories/orgs.js';
import { insertUser } from '../db/repositories/users.js';
import type { AccountRole, Database } from '../db/schema.js';
import { HttpProblem } from '../http/problems.js';
import { takeInvite } from './invites.js';

export interface Registration {
  username: string;
  /** Lower-cased. */
  email: string;
  passwordHash: string;
  /** An invite link's token. */
  invite?: string | undefined;
}

/**
 * Creates an account and says where it works:
 * - with an invite link, in the inviting organisation with the invited role;
 * - the first account of an install owns the first organisation (the demo's);
 * - any other account owns a new organisation of its own.
 * A duplicate e-mail surfaces as the database's unique-violation error.
 */
export async function registerAccount(
  db: Kysely<Database>,
  input: Registration,
  now: Date,
): Promise<RegisteredUser> {
  return db.transaction().execute(async (trx) => {
    const userId = crypto.randomUUID();
    let place: { orgId: string; role: AccountRole };
    if (input.invite !== undefined && input.invite !== '') {
      const invited = await takeInvite(trx, input.invite, userId, now);
      if (invited === null) {
        throw new HttpProblem(
          400,
          'This invite link is not valid any more (it was used, revoked or has expired). Ask for a new one.',
          { invite: 'This invite link is not valid any more.' },
        );
      }
      place = invited;
    } else {
      const firstOrg = await defaultOrgId(trx);
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where('org_id', '=', firstOrg)
        .executeTakeFirst();
      place = { orgId: taken === undefined ? firstOrg : crypto.randomUUID(), role: 'owner' };
      if (taken !== undefined) {
        await trx
          .insertInto('orgs')
          .values({
            id: place.orgId,
            name: `${input.username}'s organisation`,
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
          .execute();
      }
    }
    const user = await insertUser(
      trx,
      {
        username: input.username,
        email: input.email,
        passwordHash: input.passwordHash,
        orgId: place.orgId,
        role: place.role,
      },
      now,
      userId,
    );
    const org = await trx
      .selectFrom('orgs')
      .select(['id', 'name'])
      .where('id', '=', place.orgId)
      .executeTakeFirstOrThrow();
    return {
      id: user.id,
      username: input.username,
      email: input.email,
      createdAt: user.createdAt,
      organisation: { id: org.id, name: org.name },
      role: place.role,
    };
  });
}
