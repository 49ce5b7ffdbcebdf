import type { Account, AccountRole } from '@talkbooth/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { findAccount } from '../db/repositories/users.js';
import type { Database } from '../db/schema.js';
import { HttpProblem } from '../http/problems.js';
import { SESSION_TTL_MS, type SessionStore } from './sessions/session-store.js';

/** The console's session cookie. */
export const SESSION_COOKIE = 'talkbooth_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in console account, once `AccountAuth.load` has run. */
    account: Account | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request changes something (and so needs the CSRF token and a writing role). */
export const changesState = (request: FastifyRequest): boolean => !SAFE_METHODS.has(request.method);

/**
 * Console sessions: the cookie (HTTP-only, SameSite=Strict, Secure when the request came
 * over HTTPS), the store behind it, and the account it belongs to.
 */
export class AccountAuth {
  constructor(
    private readonly db: Kysely<Database>,
    readonly store: SessionStore,
    private readonly now: () => Date,
  ) {}

  /** Starts a session and sets its cookie. */
  async signIn(reply: FastifyReply, userId: string): Promise<void> {
    const token = await this.store.create(userId, this.now());
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: 'auto',
      maxAge: SESSION_TTL_MS / 1000,
    });
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (token !== undefined) await this.store.delete(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  /** Sets `request.account` from the session cookie (null without a live session). */
  async load(request: FastifyRequest): Promise<Account | null> {
    const token = request.cookies[SESSION_COOKIE];
    if (token === undefined || token === '') return (request.account = null);
    const userId = await this.store.find(token, this.now());
    request.account = userId === null ? null : await findAccount(this.db, userId);
    return request.account;
  }
}

/** The signed-in account, or a 401 that says to sign in. */
export function accountOf(request: FastifyRequest): Account {
  if (request.account === null) {
    throw new HttpProblem(401, 'Sign in to the console first (your session may have ended).');
  }
  return request.account;
}

const ROLE_RANK: Record<AccountRole, number> = { viewer: 0, admin: 1, owner: 2 };

/** The account, if its role is at least `least`; 403 otherwise. */
export function requireRole(request: FastifyRequest, least: AccountRole): Account {
  const account = accountOf(request);
  if (ROLE_RANK[account.role] < ROLE_RANK[least]) {
    throw new HttpProblem(
      403,
      least === 'owner'
        ? 'Only an owner of the organisation can do this.'
        : `Your role (${account.role}) can only read. Ask an owner for the admin role.`,
    );
  }
  return account;
}
