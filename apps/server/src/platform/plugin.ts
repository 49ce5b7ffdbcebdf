import cors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import { changesState, SESSION_COOKIE } from '../console/account-auth.js';
import { csrfCheck } from '../console/plugin.js';
import { authenticate } from './auth.js';
import type { PlatformDeps } from './deps.js';
import { accessCodeRoutes } from './routes/access-codes.js';
import { assistantRoutes } from './routes/assistants.js';
import { callRoutes } from './routes/calls.js';
import { credentialRoutes } from './routes/credentials.js';
import { metricsRoutes } from './routes/metrics.js';
import { phoneNumberRoutes } from './routes/phone-numbers.js';

/**
 * The platform API, mounted at /platform: bearer-token access, CORS for browser apps on
 * other origins (there are no cookies; the key is the credential), and the resources.
 */
export const platformApi: FastifyPluginAsync<PlatformDeps> = async (app, options) => {
  // Only the dependencies: the registration options also carry Fastify's prefix.
  const deps: PlatformDeps = {
    db: options.db,
    keys: options.keys,
    assistants: options.assistants,
    calls: options.calls,
    credentials: options.credentials,
    phoneNumbers: options.phoneNumbers,
    codeKey: options.codeKey,
    legacyRecordingsDir: options.legacyRecordingsDir,
    rateLimitExemptIps: options.rateLimitExemptIps,
    admission: options.admission,
    dispatch: options.dispatch,
    addressPlaces: options.addressPlaces,
    lifecycle: options.lifecycle,
    publicUrl: options.publicUrl,
    now: options.now,
    controlCall: options.controlCall,
    ...(options.prepareAssistant ? { prepareAssistant: options.prepareAssistant } : {}),
  };

  await app.register(cors, {
    origin: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
  });
  app.decorateRequest('principal', null);
  if (options.accounts !== undefined) {
    // A change made with the console's session (no key) must carry its CSRF token.
    app.addHook(
      'onRequest',
      csrfCheck(
        app,
        (request) =>
          changesState(request) &&
          request.headers.authorization === undefined &&
          request.cookies[SESSION_COOKIE] !== undefined,
      ),
    );
  }
  app.addHook('onRequest', authenticate(deps.keys, options.accounts));

  app.get('/openapi.json', { config: { anonymous: true } }, () => app.swagger());
  for (const routes of [
    assistantRoutes,
    callRoutes,
    credentialRoutes,
    phoneNumberRoutes,
    metricsRoutes,
    accessCodeRoutes,
  ]) {
    await app.register(routes, deps);
  }
};
