import { apiKeySchema, createApiKeyRequestSchema, createdApiKeySchema } from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiKeyRecord } from '../../db/repositories/api-keys.js';
import { HttpProblem } from '../../http/problems.js';
import { requireRole } from '../account-auth.js';
import type { ConsoleDeps } from '../deps.js';

const present = (record: ApiKeyRecord) => ({
  id: record.id,
  kind: record.kind,
  name: record.name,
  hint: record.hint,
  allowedOrigins: record.allowedOrigins,
  revokedAt: record.revokedAt,
  createdAt: record.createdAt,
});

/** The organisation's platform API keys (owners only): a new key is shown once. */
export const keyRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  app.get('/keys', { schema: { response: { 200: z.array(apiKeySchema) } } }, async (request) => {
    const owner = requireRole(request, 'owner');
    return (await deps.keys.list(owner.organisation.id)).map(present);
  });

  app.post(
    '/keys',
    { schema: { body: createApiKeyRequestSchema, response: { 201: createdApiKeySchema } } },
    async (request, reply) => {
      const owner = requireRole(request, 'owner');
      const { kind, name, allowedOrigins } = request.body;
      const created = await deps.keys.create(
        kind,
        { name, allowedOrigins, orgId: owner.organisation.id },
        deps.now(),
      );
      request.log.info({ keyId: created.record.id, kind, by: owner.id }, 'api key created');
      return reply.code(201).send({ key: created.key, record: present(created.record) });
    },
  );

  app.post(
    '/keys/:id/revoke',
    { schema: { params: z.object({ id: z.string().max(100) }), response: { 200: apiKeySchema } } },
    async (request) => {
      const owner = requireRole(request, 'owner');
      const revoked = await deps.keys.revoke(request.params.id, deps.now(), owner.organisation.id);
      if (revoked === undefined) {
        throw new HttpProblem(
          404,
          `There is no API key with id ${request.params.id} in your organisation.`,
        );
      }
      request.log.info({ keyId: revoked.id, by: owner.id }, 'api key revoked');
      return present(revoked);
    },
  );
};
