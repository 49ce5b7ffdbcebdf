import { webhookDeliveryListSchema, webhookDeliveryQuerySchema } from '@talkbooth/protocol';
import type { WebhookDelivery } from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listWebhookDeliveries, type WebhookDeliveryView } from '../../webhooks/webhook-outbox.js';
import { accountOf } from '../account-auth.js';
import type { ConsoleDeps } from '../deps.js';

/** What the console shows of a delivery: never its secret, nor the body it POSTs. */
const present = (view: WebhookDeliveryView): WebhookDelivery => ({
  id: view.id,
  callId: view.callId,
  url: view.url,
  messageType: view.messageType,
  status: view.status,
  attemptCount: view.attemptCount,
  nextAttemptAt: view.nextAttemptAt,
  lastStatusCode: view.lastStatusCode,
  lastError: view.lastError,
  deliveredAt: view.deliveredAt,
  createdAt: view.createdAt,
  attempts: view.attempts.map((attempt) => ({
    attempt: attempt.attempt,
    statusCode: attempt.statusCode,
    error: attempt.error,
    durationMs: attempt.durationMs,
    at: attempt.at,
  })),
});

/**
 * The delivery log of the organisation's server messages (the assistants' serverUrl
 * webhooks), newest first: every role may read it.
 */
export const webhookRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  app.get(
    '/webhooks',
    {
      schema: {
        querystring: webhookDeliveryQuerySchema,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    async (request) => {
      const { limit, before, beforeId } = request.query;
      // One row more than asked says whether an older page follows.
      const rows = await listWebhookDeliveries(deps.db, accountOf(request).organisation.id, {
        limit: limit + 1,
        // Stored times are toISOString() text: compare in the same form.
        before: before === undefined ? undefined : new Date(before).toISOString(),
        beforeId: before === undefined ? undefined : beforeId,
      });
      return { items: rows.slice(0, limit).map(present), hasMore: rows.length > limit };
    },
  );
};
