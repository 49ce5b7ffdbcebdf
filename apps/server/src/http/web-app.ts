import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ClientConfig, TalkDocument } from '@talkbooth/protocol';
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
 * Pages drawn recently, by address and data: drawing the code-entry page takes about 20 ms
 * of the event loop that also paces every live call's audio, and most visitors ask for the
 * same few addresses with the same data.
 */
const RENDERED_PAGES = { max: 64, maxSize: 4_000_000 };

/** The code-entry addresses: their page is rendered into the HTML (see `WebRenderer`). */
const CODE_ENTRY_ROUTES = new Set(['/', '/login', '/medibrief', '/:unicode']);

/** What every visitor page reads first, carried in the page (the web app's boot-data.ts). */
export interface BootData {
  config: ClientConfig;
  talkDocuments: TalkDocument[];
}

/**
 * The web app's server renderer (apps/web/src/entry-server.tsx, built into
 * apps/web/dist-server/): index.html with the code-entry page rendered into it and the boot
 * data beside it.
 */
interface WebRenderer {
  renderPage(
    template: string,
    options: { url: string; boot: BootData | null; prerender: boolean },
  ): string;
}

export interface WebAppOptions {
  /** The built renderer's file (null or missing: index.html is served as built). */
  renderer: string | null;
  /** The boot data for a request. */
  bootData: (request: FastifyRequest) => Promise<BootData>;
}

async function loadRenderer(file: string): Promise<WebRenderer> {
  const loaded = (await import(pathToFileURL(file).href)) as Partial<WebRenderer>;
  if (typeof loaded.renderPage !== 'function') {
    throw new Error(`${file} is not the web app's renderer (it has no renderPage).`);
  }
  return loaded as WebRenderer;
}

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
 * else is revalidated, and the SPA routes fall back to index.html. With the web app's
 * renderer, index.html carries the boot data, and on the code-entry addresses the page
 * itself, drawn before any script runs; if rendering fails, the page is sent without it
 * (the browser then draws it) and the failure is logged.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webRoot: string,
  options: WebAppOptions | null = null,
): Promise<void> {
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

  const rendering =
    options !== null && options.renderer !== null && fs.existsSync(options.renderer)
      ? {
          renderer: await loadRenderer(options.renderer),
          template: fs.readFileSync(indexFile, 'utf8'),
          bootData: options.bootData,
          pages: new LRUCache<string, string>({
            ...RENDERED_PAGES,
            sizeCalculation: (html) => html.length,
          }),
        }
      : null;
  if (options?.renderer && rendering === null) {
    app.log.warn(
      { renderer: options.renderer },
      'the web app renderer is not built: pages are drawn in the browser only',
    );
  }

  const serveIndex =
    (prerender: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { unicode } = request.params as { unicode?: string };
      if (unicode !== undefined && (unicode.includes('.') || RESERVED_SEGMENTS.has(unicode))) {
        return handleNotFound(request, reply);
      }
      // An unknown console API address is a 404 answer, not the console's page.
      if (request.url.startsWith('/console/api/')) return handleNotFound(request, reply);
      reply.header('cache-control', REVALIDATE);
      if (rendering === null) return reply.sendFile('index.html');
      // Without it (the database did not answer), the browser fetches what it needs itself.
      const boot = await rendering.bootData(request).catch((err: unknown) => {
        request.log.warn({ err }, 'could not read the boot data for the page');
        return null;
      });
      const key = `${String(prerender)}\n${request.url}\n${JSON.stringify(boot)}`;
      let html = rendering.pages.get(key);
      if (html !== undefined) return reply.type('text/html; charset=utf-8').send(html);
      try {
        html = rendering.renderer.renderPage(rendering.template, {
          url: request.url,
          boot,
          prerender,
        });
        rendering.pages.set(key, html);
      } catch (err) {
        request.log.error({ err }, 'could not render the page on the server; sent it without');
        html = rendering.renderer.renderPage(rendering.template, {
          url: request.url,
          boot,
          prerender: false,
        });
      }
      return reply.type('text/html; charset=utf-8').send(html);
    };
  for (const route of SPA_ROUTES) app.get(route, serveIndex(CODE_ENTRY_ROUTES.has(route)));
}
