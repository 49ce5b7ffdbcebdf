import {
  accountSchema,
  changePasswordRequestSchema,
  signInRequestSchema,
} from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import argon2 from 'argon2';
import { z } from 'zod';
import {
  findAccount,
  findCredentials,
  findCredentialsByEmail,
  setPasswordHash,
} from '../../db/repositories/users.js';
import { HttpProblem } from '../../http/problems.js';
import { hashPassword } from '../../security/passwords.js';
import { accountOf } from '../account-auth.js';
import type { ConsoleDeps } from '../deps.js';

const WRONG_SIGN_IN = 'The e-mail address or the password is not right.';

/** Compared against when no account has the e-mail, so both cases take as long. */
let decoyHash: Promise<string> | undefined;

/** Whether the password is the account's; an unknown account costs the same hash. */
async function passwordMatches(hash: string | undefined, password: string): Promise<boolean> {
  decoyHash ??= hashPassword('a password no account has');
  const against = hash ?? (await decoyHash);
  const ok = await argon2.verify(against, password);
  return ok && hash !== undefined;
}

/**
 * Signing in and out of the console, the CSRF token its pages send with every change,
 * who is signed in, and changing one's own password.
 */
export const sessionRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  app.get(
    '/csrf',
    { schema: { response: { 200: z.object({ token: z.string() }) } } },
    async (_request, reply) => ({ token: reply.generateCsrf({ path: '/' }) }),
  );

  app.post(
    '/sign-in',
    {
      schema: { body: signInRequestSchema, response: { 200: accountSchema } },
      config: {
        rateLimit: {
          // After the body is read, so the key can name the account.
          hook: 'preHandler',
          max: deps.signInLimit.max,
          timeWindow: deps.signInLimit.timeWindowMs,
          // Per address and account: guessing one account's password is slowed, and one
          // office's wrong tries do not lock its colleagues out.
          keyGenerator: (request) => {
            const body = request.body as { email?: unknown } | undefined;
            const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
            return `${request.ip}|${email}`;
          },
          errorResponseBuilder: (_request, context) =>
            new HttpProblem(
              429,
              `Too many sign-in attempts. Try again in ${Math.ceil(context.ttl / 60_000)} minutes.`,
            ),
        },
      },
    },
    async (request, reply) => {
      const found = await findCredentialsByEmail(deps.db, request.body.email);
      if (!(await passwordMatches(found?.passwordHash, request.body.password)) || found === null) {
        request.log.info('console sign-in refused');
        throw new HttpProblem(401, WRONG_SIGN_IN);
      }
      const account = await findAccount(deps.db, found.id);
      if (account === null) throw new HttpProblem(401, WRONG_SIGN_IN);
      await deps.auth.signIn(reply, found.id);
      request.log.info({ userId: found.id }, 'console sign-in');
      return account;
    },
  );

  app.post('/sign-out', async (request, reply) => {
    await deps.auth.signOut(request, reply);
    return reply.code(204).send();
  });

  app.get('/account', { schema: { response: { 200: accountSchema } } }, async (request) =>
    accountOf(request),
  );

  app.post(
    '/account/password',
    { schema: { body: changePasswordRequestSchema } },
    async (request, reply) => {
      const account = accountOf(request);
      const current = await findCredentials(deps.db, account.id);
      if (
        current === null ||
        !(await argon2.verify(current.passwordHash, request.body.currentPassword))
      ) {
        throw new HttpProblem(400, 'Your current password is not right.', {
          currentPassword: 'This is not your current password.',
        });
      }
      await setPasswordHash(
        deps.db,
        account.id,
        await hashPassword(request.body.newPassword),
        deps.now(),
      );
      // Every other session ends; this browser gets a fresh one.
      await deps.auth.store.deleteForUser(account.id);
      await deps.auth.signIn(reply, account.id);
      request.log.info({ userId: account.id }, 'password changed');
      return reply.code(204).send();
    },
  );
};
