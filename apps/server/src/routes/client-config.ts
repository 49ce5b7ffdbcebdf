import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClientConfig } from '@talkbooth/protocol';
import { listTalkDocuments } from '../db/repositories/talk-documents.js';
import type { AppApiDeps } from './deps.js';

/**
 * `GET /api/client-config`: what the browser needs at run time. The platform URL is
 * built from the request, so it is right behind any host name the visitor used. There is
 * no public platform key to hand out yet (the platform API adds one).
 */
export const clientConfigRoute: FastifyPluginAsyncZod<AppApiDeps> = async (app, deps) => {
  app.get('/client-config', async (request, reply) => {
    const documents = await listTalkDocuments(deps.db, deps.config.product);
    const productDocument = documents.find((doc) => doc.id === 'product');
    const config: ClientConfig = {
      product: deps.config.product,
      productName:
        typeof productDocument?.title === 'string' ? productDocument.title : deps.config.product,
      talkHomeUrl: deps.config.talkHomeUrl,
      platformBaseUrl: `${request.protocol}://${request.host}/platform`,
      platformPublicKey: null,
    };
    return reply.header('cache-control', 'no-cache').send(config);
  });
};
