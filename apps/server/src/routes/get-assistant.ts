import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAssistantRequestSchema, type SessionObject } from '@talkbooth/protocol';
import { consumeAccessCodeUse, findActiveCode } from '../db/repositories/access-codes.js';
import { sendError } from '../http/error-replies.js';
import { humanDuration } from '../http/human-duration.js';
import { hashAccessCode } from '../security/access-codes.js';
import type { AppApiDeps } from './deps.js';

/**
 * `POST /api/get-assistant`: checks an access code. A known, active code answers the
 * session object; an unknown one answers `[]` (the wire contract existing clients rely
 * on). Only wrong codes count against the client's allowance, but once it is used up
 * every check is refused until the window passes, even a right one: otherwise a
 * 200-versus-429 answer would still tell a guesser which code is right.
 */
export const getAssistantRoute: FastifyPluginAsyncZod<AppApiDeps> = async (app, deps) => {
  const wrongGuesses = app.createRateLimit({
    max: deps.guessLimit.max,
    timeWindow: deps.guessLimit.timeWindowMs,
  });

  app.post(
    '/get-assistant',
    { schema: { body: getAssistantRequestSchema } },
    async (request, reply) => {
      const allowance = await wrongGuesses(request, { increment: false });
      if (!allowance.isAllowed && allowance.remaining === 0) {
        const wait = Math.max(1, allowance.ttlInSeconds);
        reply.header('retry-after', String(wait));
        return sendError(
          reply,
          429,
          `Too many wrong codes from your network. Try again in ${humanDuration(wait)}.`,
        );
      }

      const match = await findActiveCode(
        deps.db,
        hashAccessCode(request.body.unicode, deps.codeKey),
        deps.now(),
      );
      // A code with a use limit spends one use per successful check.
      if (match === undefined || !(await consumeAccessCodeUse(deps.db, match.codeId, deps.now()))) {
        await wrongGuesses(request);
        request.log.info('access code check: no active code matched');
        return [];
      }
      request.log.info(
        { accessCodeId: match.codeId, assistantId: match.assistantId },
        'access code accepted',
      );
      const session: SessionObject = {
        assistantId: match.assistantId,
        assistantName: match.assistantName,
        product: deps.config.product,
      };
      // Each organisation's codes start calls with that organisation's key.
      if (deps.config.webPlatformBaseUrl === undefined) {
        const key = await deps.keys.webPublicKeyFor(match.orgId, deps.now());
        if (key !== null) session.platformPublicKey = key;
      }
      return session;
    },
  );
};
