import { metricsQuerySchema, metricsSchema } from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpProblem } from '../../http/problems.js';
import { principalOf } from '../auth.js';
import type { PlatformDeps } from '../deps.js';
import { computeMetrics } from '../metrics.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_RANGE_DAYS = 30;
const MAX_RANGE_DAYS = 366;

/** `GET /metrics`: usage over a range (default: the last 30 days), from the stored calls. */
export const metricsRoutes: FastifyPluginAsyncZod<PlatformDeps> = async (app, deps) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['Metrics'],
        querystring: metricsQuerySchema,
        response: { 200: metricsSchema },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const rangeEnd =
        request.query.rangeEnd === undefined ? deps.now() : new Date(request.query.rangeEnd);
      const rangeStart =
        request.query.rangeStart === undefined
          ? new Date(rangeEnd.getTime() - DEFAULT_RANGE_DAYS * DAY_MS)
          : new Date(request.query.rangeStart);
      if (rangeStart >= rangeEnd) {
        throw new HttpProblem(400, 'rangeStart must be before rangeEnd.', {
          rangeStart: 'Must be before rangeEnd.',
        });
      }
      if (rangeEnd.getTime() - rangeStart.getTime() > MAX_RANGE_DAYS * DAY_MS) {
        throw new HttpProblem(400, `A metrics range can span at most ${MAX_RANGE_DAYS} days.`, {
          rangeStart: `Must be at most ${MAX_RANGE_DAYS} days before rangeEnd.`,
        });
      }
      const [calls, callActive] = await Promise.all([
        deps.calls.createdBetween(orgId, rangeStart, rangeEnd),
        deps.calls.countInProgress(orgId),
      ]);
      return computeMetrics({ orgId, rangeStart, rangeEnd, calls, callActive });
    },
  );
};
