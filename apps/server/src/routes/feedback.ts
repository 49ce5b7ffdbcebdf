import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { feedbackRequestSchema, type FeedbackReceipt } from '@talkbooth/protocol';
import { insertFeedback } from '../db/repositories/feedback.js';
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
      const { message, rating, callId, assistantId } = request.body;
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
