import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRequestSchema, type RegisteredUser } from '@talkbooth/protocol';
import { isUniqueViolation } from '../db/constraint-errors.js';
import { insertUser } from '../db/repositories/users.js';
import { sendError } from '../http/error-replies.js';
import { hashPassword } from '../security/passwords.js';
import type { AppApiDeps } from './deps.js';

/**
 * `POST /api/register`: creates an account. The password is hashed with argon2id and
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
      const { username, email, password } = request.body;
      const passwordHash = await hashPassword(password);
      try {
        const user: RegisteredUser = await insertUser(
          deps.db,
          { username, email: email.toLowerCase(), passwordHash },
          deps.now(),
        );
        request.log.info({ userId: user.id }, 'account registered');
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
