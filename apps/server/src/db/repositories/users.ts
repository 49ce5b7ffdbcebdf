import crypto from 'node:crypto';
import type { Account, Member } from '@talkbooth/protocol';
import type { Kysely } from 'kysely';
import type { AccountRole, Database } from '../schema.js';

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  orgId: string;
  role: AccountRole;
}

/** An account with what signing in needs; only inside the server. */
export interface UserCredentials {
  id: string;
  passwordHash: string;
}

/** Inserts an account; a duplicate e-mail surfaces as the database's unique-violation error. */
export async function insertUser(
  db: Kysely<Database>,
  user: NewUser,
  now: Date,
  id: string = crypto.randomUUID(),
): Promise<{ id: string; createdAt: string }> {
  const at = now.toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      username: user.username,
      email: user.email,
      password_hash: user.passwordHash,
      org_id: user.orgId,
      role: user.role,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, createdAt: at };
}

/** The account's id and password hash by its (lower-cased) e-mail address. */
export async function findCredentialsByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<UserCredentials | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('email', '=', email.trim().toLowerCase())
    .where('org_id', 'is not', null)
    .executeTakeFirst();
  return row === undefined ? null : { id: row.id, passwordHash: row.password_hash };
}

export async function findCredentials(
  db: Kysely<Database>,
  userId: string,
): Promise<UserCredentials | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row === undefined ? null : { id: row.id, passwordHash: row.password_hash };
}

/** The signed-in view of an account: who, which organisation, which role. */
export async function findAccount(db: Kysely<Database>, userId: string): Promise<Account | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('orgs', 'orgs.id', 'users.org_id')
    .select([
      'users.id',
      'users.username',
      'users.email',
      'users.role',
      'orgs.id as org_id',
      'orgs.name as org_name',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (row === undefined || row.role === null) return null;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    organisation: { id: row.org_id, name: row.org_name },
  };
}

export async function setPasswordHash(
  db: Kysely<Database>,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .execute();
}

export async function listMembers(db: Kysely<Database>, orgId: string): Promise<Member[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'role', 'created_at'])
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role ?? 'viewer',
    createdAt: row.created_at,
  }));
}

/** A member of `orgId` by id; null for an unknown id or another organisation's account. */
export async function findMember(
  db: Kysely<Database>,
  orgId: string,
  userId: string,
): Promise<Member | null> {
  const members = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'role', 'created_at'])
    .where('org_id', '=', orgId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return members === undefined
    ? null
    : {
        id: members.id,
        username: members.username,
        email: members.email,
        role: members.role ?? 'viewer',
        createdAt: members.created_at,
      };
}

export async function setRole(
  db: Kysely<Database>,
  userId: string,
  role: AccountRole,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ role, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .execute();
}

export async function countOwners(db: Kysely<Database>, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
