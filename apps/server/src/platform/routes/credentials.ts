import {
  createCredentialSchema,
  credentialSchema,
  idParamsSchema,
  listQuerySchema,
  type CreateCredential,
} from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { credentialSecretPaths } from '../../db/repositories/credentials.js';
import { conflict, notFound } from '../../http/problems.js';
import { restoreMaskedSecrets } from '../../security/secret-fields.js';
import { principalOf } from '../auth.js';
import type { PlatformDeps } from '../deps.js';
import { presentCredential } from '../present.js';

const tags = ['Credentials'];

/** `/credential`: provider credentials; secrets go in, and never come out. */
export const credentialRoutes: FastifyPluginAsyncZod<PlatformDeps> = async (app, deps) => {
  const { credentials, now } = deps;

  app.post(
    '/credential',
    { schema: { tags, body: createCredentialSchema, response: { 201: credentialSchema } } },
    async (request, reply) => {
      const created = await credentials.create(principalOf(request).orgId, request.body, now());
      return reply.code(201).send(presentCredential(created));
    },
  );

  app.get(
    '/credential',
    {
      schema: { tags, querystring: listQuerySchema, response: { 200: z.array(credentialSchema) } },
    },
    async (request) => {
      const found = await credentials.list(principalOf(request).orgId, request.query);
      return found.map(presentCredential);
    },
  );

  app.get(
    '/credential/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: credentialSchema } } },
    async (request) => {
      const found = await credentials.get(principalOf(request).orgId, request.params.id);
      if (found === undefined) throw notFound('credential', request.params.id);
      return presentCredential(found);
    },
  );

  app.put(
    '/credential/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: createCredentialSchema,
        response: { 200: credentialSchema },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const stored = await credentials.get(orgId, request.params.id);
      if (stored === undefined) throw notFound('credential', request.params.id);
      const body =
        stored.body.provider === request.body.provider
          ? (restoreMaskedSecrets(
              request.body,
              stored.body,
              credentialSecretPaths(stored.body.provider),
            ) as CreateCredential)
          : request.body;
      const updated = await credentials.replace(orgId, stored.id, body, now());
      if (updated === undefined) throw notFound('credential', request.params.id);
      return presentCredential(updated);
    },
  );

  app.delete(
    '/credential/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: credentialSchema } } },
    async (request) => {
      const { orgId } = principalOf(request);
      const users = await credentials.usedBy(orgId, request.params.id);
      if (users.length > 0) {
        throw conflict(
          `This credential is in use by the phone number${users.length === 1 ? '' : 's'} ${users.join(', ')}. Delete ${
            users.length === 1 ? 'that number' : 'those numbers'
          } first.`,
        );
      }
      const deleted = await credentials.delete(orgId, request.params.id);
      if (deleted === undefined) throw notFound('credential', request.params.id);
      return presentCredential(deleted);
    },
  );
};
