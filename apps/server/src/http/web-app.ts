import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { handleNotFound, sendError } from './error-replies.js';

/** The routes the web app handles itself (DESIGN.md); each one serves index.html. */
export const SPA_ROUTES = [
  '/',
  '/login',
  '/medibrief',
  '/call-section',
  '/register',
  '/console',
  '/console/*',
  '/:unicode',
];

/**
 * First path segments that are never UniCodes, so `/api` is not mistaken for one, nor the
 * paths health checkers and scrapers probe (`/healthz` and `/readyz` are real routes).
 */
const RESERVED_SEGMENTS = new Set([
  'api',
  'platform',
  'assets',
  'ws',
  'health',
  'healthz',
  'readyz',
  'livez',
  'metrics',
]);

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Serves the built web app: hashed files under /assets/ are cached for a year, everything
 * else is revalidated, and the SPA routes fall back to index.html.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webRoot }, 'the web app is not built; run `npm run build`');
    for (const route of SPA_ROUTES) {
      app.get(route, (_request, reply) =>
        sendError(
          reply,
          503,
          'The web app has not been built yet. Run `npm run build` and restart.',
        ),
      );
    }
    return;
  }

  const assetsDir = path.join(webRoot, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root: webRoot,
    // Register one route per file at start: unknown files 404 instead of reaching the
    // SPA fallback, and there is no catch-all route to shadow the API.
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
    },
  });

  const serveIndex = (request: FastifyRequest, reply: FastifyReply) => {
    const { unicode } = request.params as { unicode?: string };
    if (unicode !== undefined && (unicode.includes('.') || RESERVED_SEGMENTS.has(unicode))) {
      return handleNotFound(request, reply);
    }
    // An unknown console API address is a 404 answer, not the console's page.
    if (request.url.startsWith('/console/api/')) return handleNotFound(request, reply);
    return reply.header('cache-control', REVALIDATE).sendFile('index.html');
  };
  for (const route of SPA_ROUTES) app.get(route, serveIndex);
}
