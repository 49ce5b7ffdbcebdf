import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/error-replies.js';
import type { CallMetrics } from './call-metrics.js';

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * `GET /metrics` in Prometheus's text format, for a scraper that sends
 * `Authorization: Bearer <METRICS_TOKEN>`. Without a token configured the route does not
 * exist (404, as any unknown path), so nothing about the process leaks by default.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: CallMetrics,
  token: string | undefined,
): void {
  if (token === undefined) return;
  const expected = digest(token);
  app.get('/metrics', async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    // Compared as digests in constant time: neither length nor content leaks by timing.
    if (given === undefined || !crypto.timingSafeEqual(digest(given), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, 401, 'Send the metrics token as Authorization: Bearer <token>.');
    }
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
}
