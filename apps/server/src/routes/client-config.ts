import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClientConfig, TalkDocument } from '@talkbooth/protocol';
import { listTalkDocuments } from '../db/repositories/talk-documents.js';
import { publicOrigin } from '../http/public-address.js';
import type { AppApiDeps } from './deps.js';

/**
 * `GET /api/client-config`: what the browser needs at run time. The platform URL comes
 * from PUBLIC_URL, or else from the request's checked Host, so it is right behind any host
 * name the visitor used; the public
 * key may only start web calls. With WEB_PLATFORM_BASE_URL the browser calls that platform
 * (the hosted one) with WEB_PLATFORM_PUBLIC_KEY instead.
 */
export const clientConfigRoute: FastifyPluginAsyncZod<AppApiDeps> = async (app, deps) => {
  app.get('/client-config', async (request, reply) => {
    const documents = await listTalkDocuments(deps.db, deps.config.product);
    const config = await clientConfigFor(request, deps, documents);
    return reply.header('cache-control', 'no-cache').send(config);
  });
};

/**
 * The client configuration for a request, given the product's talk documents: what
 * `GET /api/client-config` answers, and what the web app's pages carry (web-app.ts).
 */
export async function clientConfigFor(
  request: FastifyRequest,
  deps: Pick<AppApiDeps, 'config' | 'keys'>,
  documents: readonly TalkDocument[],
): Promise<ClientConfig> {
  const productDocument = documents.find((doc) => doc.id === 'product');
  return {
    product: deps.config.product,
    productName:
      typeof productDocument?.title === 'string' ? productDocument.title : deps.config.product,
    talkHomeUrl: deps.config.talkHomeUrl,
    platformBaseUrl:
      deps.config.webPlatformBaseUrl ?? `${publicOrigin(request, deps.config.publicUrl)}/platform`,
    platformPublicKey:
      deps.config.webPlatformBaseUrl === undefined
        ? await deps.keys.webPublicKey()
        : (deps.config.webPlatformPublicKey ?? null),
  };
}
