import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** What the hosted platform's Daily transport loads and connects to (Daily's CSP guide). */
const DAILY_SCRIPTS = ['https://*.daily.co'];
const DAILY_CONNECTIONS = ['https://*.daily.co', 'wss://*.daily.co', 'wss://*.wss.daily.co'];

/**
 * The call socket on this very host: `'self'` does not cover ws: in every browser. From
 * PUBLIC_URL when set, else from the Host header, which the host check (public-address.ts)
 * has already found to be a plain host name.
 */
const ownSockets = (publicUrl: string | undefined) => (request: IncomingMessage) => {
  const host =
    publicUrl === undefined ? (request.headers.host ?? 'localhost') : new URL(publicUrl).host;
  return `ws://${host} wss://${host}`;
};

/**
 * Security headers for every answer. The web app loads only its own scripts (its audio
 * worklets too, as same-origin files); MUI/emotion inject <style> elements at run time,
 * hence 'unsafe-inline' for styles only. When the browser is pointed at another platform
 * (`webPlatformBaseUrl`, the hosted one), its origin and Daily's are allowed as well. No
 * upgrade-insecure-requests: self-hosted installs often serve plain HTTP on a LAN.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { webPlatformBaseUrl?: string | undefined; publicUrl?: string | undefined } = {},
): Promise<void> {
  const hosted =
    options.webPlatformBaseUrl === undefined ? null : new URL(options.webPlatformBaseUrl).origin;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(hosted === null ? [] : DAILY_SCRIPTS)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: [
          "'self'",
          ownSockets(options.publicUrl),
          ...(hosted === null ? [] : [hosted, ...DAILY_CONNECTIONS]),
        ],
        workerSrc: ["'self'", ...(hosted === null ? [] : ['blob:'])],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The booth needs the microphone; nothing here needs the camera or location.
    permittedCrossDomainPolicies: false,
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('permissions-policy', 'microphone=(self), camera=(), geolocation=()');
  });
}
