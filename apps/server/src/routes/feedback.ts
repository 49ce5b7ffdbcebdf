import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { feedbackRequestSchema, type FeedbackReceipt } from '@talkbooth/protocol';
import { findCallOfFeedback, insertFeedback } from '../db/repositories/feedback.js';
import { sendError } from '../http/error-replies.js';
import type { AppApiDeps } from './deps.js';

/** `POST /api/feedback`: stores what a visitor said about a call, tied to the call when known. */
export const feedbackRoute: FastifyPluginAsyncZod<AppApiDeps> = async (app, deps) => {
  app.post(
    '/feedback',
    {
      schema: { body: feedbackRequestSchema },
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const { message, rating, callId } = request.body;
      let { assistantId } = request.body;
      // Feedback about a call that does not exist would be kept about nothing. (Calls on
      // another platform, WEB_PLATFORM_BASE_URL, are not in this database: kept as given.)
      if (callId != null && deps.config.webPlatformBaseUrl === undefined) {
        const call = await findCallOfFeedback(deps.db, callId);
        if (call === undefined) {
          const problem = `There is no call with id ${callId}. Send the id of the call the feedback is about, or leave callId out.`;
          return sendError(reply, 400, problem, { callId: problem });
        }
        assistantId ??= call.assistantId;
      }
      const receipt: FeedbackReceipt = await insertFeedback(
        deps.db,
        {
          product: deps.config.product,
          message,
          rating: rating ?? null,
          callId: callId ?? null,
          assistantId: assistantId ?? null,
        },
        deps.now(),
      );
      request.log.info({ feedbackId: receipt.id, callId: callId ?? null }, 'feedback stored');
      return reply.code(201).send(receipt);
    },
  );
};
