import {
  callBrowseQuerySchema,
  callFeedbackSchema,
  callPageSchema,
  usageQuerySchema,
  usageSchema,
} from '@talkbooth/protocol';
import { stringify } from 'csv-stringify/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpProblem } from '../../http/problems.js';
import { accountOf } from '../account-auth.js';
import { briefsBetween, browseCalls, feedbackForCall, usageBetween } from '../call-browser.js';
import type { ConsoleDeps } from '../deps.js';

const DAY_MS = 86_400_000;

/** A date range given as ISO date-times, checked: `from` before `to`, at most a year and a day. */
function rangeOf(query: { from: string; to: string }): { from: Date; to: Date } {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (!(from < to))
    throw new HttpProblem(400, 'The range must start before it ends.', {
      to: 'Pick an end after the start.',
    });
  if (to.getTime() - from.getTime() > 367 * DAY_MS) {
    throw new HttpProblem(400, 'Pick a range of at most a year.', { from: 'At most a year.' });
  }
  return { from, to };
}

/** The console's call list, a call's feedback, brief export and usage: every role may read. */
export const callRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  app.get(
    '/calls',
    { schema: { querystring: callBrowseQuerySchema, response: { 200: callPageSchema } } },
    async (request) => browseCalls(deps.db, accountOf(request).organisation.id, request.query),
  );

  app.get(
    '/calls/:id/feedback',
    {
      schema: {
        params: z.object({ id: z.string().max(100) }),
        response: { 200: z.array(callFeedbackSchema) },
      },
    },
    async (request) => {
      const found = await feedbackForCall(
        deps.db,
        accountOf(request).organisation.id,
        request.params.id,
      );
      if (found === null)
        throw new HttpProblem(
          404,
          `There is no call with id ${request.params.id} in your organisation.`,
        );
      return found;
    },
  );

  app.get('/briefs.csv', { schema: { querystring: usageQuerySchema } }, async (request, reply) => {
    const { from, to } = rangeOf(request.query);
    const briefs = await briefsBetween(
      deps.db,
      accountOf(request).organisation.id,
      from.toISOString(),
      to.toISOString(),
    );
    // One column per brief question, in the order they were first met.
    const questions = [...new Set(briefs.flatMap((b) => Object.keys(b.answers)))];
    const csv = stringify(
      briefs.map((b) => [
        b.createdAt,
        b.callId,
        b.assistantName ?? '',
        b.urgent ? 'yes' : 'no',
        b.confirmed ? 'yes' : 'no',
        ...questions.map((q) => b.answers[q] ?? ''),
      ]),
      {
        header: true,
        columns: ['call time (UTC)', 'call id', 'assistant', 'urgent', 'confirmed', ...questions],
        // A cell starting with = + - @ is not run as a formula by a spreadsheet.
        cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) },
      },
    );
    const name = `briefs-${from.toISOString().slice(0, 10)}-to-${to.toISOString().slice(0, 10)}.csv`;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(csv);
  });

  app.get(
    '/usage',
    { schema: { querystring: usageQuerySchema, response: { 200: usageSchema } } },
    async (request) => {
      const { from, to } = rangeOf(request.query);
      return usageBetween(deps.db, accountOf(request).organisation.id, from, to);
    },
  );
};
