import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRequestSchema, type RegisteredUser } from '@talkbooth/protocol';
import { isUniqueViolation } from '../db/constraint-errors.js';
import { registerAccount } from '../console/registration.js';
import { sendError } from '../http/error-replies.js';
import { hashPassword } from '../security/passwords.js';
import type { AppApiDeps } from './deps.js';

/**
 * `POST /api/register`: creates an account (see console/registration.ts for the
 * organisation it joins). The password is hashed with argon2id and
 * never leaves this handler; the answer and the logs carry the account id only.
 * Rate-limited per client, since every attempt costs a deliberately slow hash.
 */
export const registerRoute: FastifyPluginAsyncZod<AppApiDeps> = async (app, deps) => {
  app.post(
    '/register',
    {
      schema: { body: registerRequestSchema },
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const { username, email, password, invite } = request.body;
      const passwordHash = await hashPassword(password);
      try {
        const user: RegisteredUser = await registerAccount(
          deps.db,
          { username, email: email.toLowerCase(), passwordHash, invite },
          deps.now(),
        );
        request.log.info(
          { userId: user.id, orgId: user.organisation.id, role: user.role },
          'account registered',
        );
        return reply.code(201).send(user);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return sendError(
          reply,
          409,
          'An account with this e-mail address already exists. Use another address.',
          { email: 'This e-mail address is already registered.' },
        );
      }
    },
  );
};
