import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/error-replies.js';

/** A readiness check: resolves when fine, throws an Error saying what is wrong. */
export type ReadinessCheck = () => Promise<string>;

export interface HealthOptions {
  /** Named checks, all run on every /readyz (database, voice engine, shutdown, call cap). */
  checks: Record<string, ReadinessCheck>;
}

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: every
 * check passes, so a load balancer may send it traffic). Both answer JSON and are never
 * cached; /readyz answers 503 naming the failing check. Neither is rate limited, and
 * neither reaches the web app's fallback (which would treat the path as an access code).
 */
export function registerHealthRoutes(app: FastifyInstance, options: HealthOptions): void {
  const startedAt = Date.now();
  app.get('/healthz', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .send({ status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }),
  );

  app.get('/readyz', async (_request, reply) => {
    const checks: Record<string, string> = {};
    const problems: string[] = [];
    await Promise.all(
      Object.entries(options.checks).map(async ([name, check]) => {
        try {
          checks[name] = await check();
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          checks[name] = `failing: ${message}`;
          problems.push(message);
        }
      }),
    );
    reply.header('cache-control', 'no-store');
    if (problems.length === 0) return reply.send({ status: 'ready', checks });
    return reply
      .code(503)
      .send({ ...errorBody(503, `Not ready: ${problems.join(' ')}`), status: 'not-ready', checks });
  });
}
