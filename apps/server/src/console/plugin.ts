import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changesState } from './account-auth.js';
import type { ConsoleDeps } from './deps.js';
import { callRoutes } from './routes/call-routes.js';
import { keyRoutes } from './routes/key-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { teamRoutes } from './routes/team-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';

/**
 * An onRequest hook: the library's CSRF check (the x-csrf-token header must match the
 * secret cookie, else 403) for each request `needsCheck` picks.
 */
export function csrfCheck(app: FastifyInstance, needsCheck: (request: FastifyRequest) => boolean) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (needsCheck(request)) app.csrfProtection(request, reply, done);
    else done();
  };
}

/**
 * The console's own API at /console/api: every request is read with its session, every
 * change needs the CSRF token (sign-in included), and each route checks the role it needs.
 */
export const consoleApi: FastifyPluginAsyncZod<ConsoleDeps> = async (app, options) => {
  const deps: ConsoleDeps = {
    db: options.db,
    auth: options.auth,
    keys: options.keys,
    now: options.now,
    signInLimit: options.signInLimit,
    publicUrl: options.publicUrl,
  };
  app.addHook('onRequest', csrfCheck(app, changesState));
  app.addHook('onRequest', async (request) => {
    await deps.auth.load(request);
  });
  // Answers about one person's session are never cached.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  for (const routes of [sessionRoutes, teamRoutes, keyRoutes, callRoutes, webhookRoutes])
    await app.register(routes, deps);
};
