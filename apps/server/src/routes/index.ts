import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientConfigRoute } from './client-config.js';
import { collectionsRoute } from './collections.js';
import type { AppApiDeps } from './deps.js';
import { feedbackRoute } from './feedback.js';
import { getAssistantRoute } from './get-assistant.js';
import { registerRoute } from './register.js';

/** The app API the browser uses, mounted at `/api`. */
export const appApiRoutes: FastifyPluginAsyncZod<AppApiDeps> = async (app, options) => {
  // Hand the routes their dependencies only: the registration options also carry
  // Fastify's own keys (prefix), which must not be applied a second time.
  const deps: AppApiDeps = {
    db: options.db,
    config: options.config,
    codeKey: options.codeKey,
    guessLimit: options.guessLimit,
    keys: options.keys,
    now: options.now,
  };
  for (const route of [
    getAssistantRoute,
    registerRoute,
    feedbackRoute,
    clientConfigRoute,
    collectionsRoute,
  ]) {
    await app.register(route, deps);
  }
};
