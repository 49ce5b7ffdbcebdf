import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listTalkDocuments } from '../db/repositories/talk-documents.js';
import { sendError } from '../http/error-replies.js';
import type { AppApiDeps } from './deps.js';

/** `GET /api/collections/talk-:product`: a product's talk documents, in order. */
export const collectionsRoute: FastifyPluginAsyncZod<AppApiDeps> = async (app, deps) => {
  app.get(
    '/collections/talk-:product',
    { schema: { params: z.object({ product: z.string().min(1).max(40) }) } },
    async (request, reply) => {
      const documents = await listTalkDocuments(deps.db, request.params.product);
      if (documents.length === 0) {
        return sendError(
          reply,
          404,
          `There is no talk collection for the product "${request.params.product}".`,
        );
      }
      return documents;
    },
  );
};
