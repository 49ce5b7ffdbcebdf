import {
  accessCodeListQuerySchema,
  accessCodeSchema,
  createAccessCodeSchema,
  createdAccessCodeSchema,
  idParamsSchema,
} from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/constraint-errors.js';
import {
  getAccessCode,
  insertAccessCode,
  listAccessCodes,
  revokeAccessCode,
} from '../../db/repositories/access-codes.js';
import { badReference, conflict, HttpProblem, notFound } from '../../http/problems.js';
import { generateAccessCode, hashAccessCode } from '../../security/access-codes.js';
import { principalOf } from '../auth.js';
import type { PlatformDeps } from '../deps.js';

const tags = ['Access Codes'];

/**
 * `/access-code` (our extension): UniCodes operators hand out. The code is answered once,
 * at creation; only its keyed hash is stored.
 */
export const accessCodeRoutes: FastifyPluginAsyncZod<PlatformDeps> = async (app, deps) => {
  const { db, assistants, codeKey, now } = deps;

  app.post(
    '/access-code',
    { schema: { tags, body: createAccessCodeSchema, response: { 201: createdAccessCodeSchema } } },
    async (request, reply) => {
      const { orgId } = principalOf(request);
      const { assistantId, code: chosen, label, expiresAt, maxUses } = request.body;
      if (!(await assistants.exists(orgId, assistantId))) {
        throw badReference(
          'assistantId',
          `There is no assistant with id ${assistantId} in your organisation.`,
        );
      }
      const at = now();
      if (expiresAt !== undefined && new Date(expiresAt) <= at) {
        throw new HttpProblem(400, 'expiresAt is in the past; give a time in the future.', {
          expiresAt: 'Must be in the future.',
        });
      }
      const code = chosen ?? generateAccessCode();
      try {
        const created = await insertAccessCode(
          db,
          {
            orgId,
            assistantId,
            codeHash: hashAccessCode(code, codeKey),
            label: label ?? null,
            expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
            maxUses: maxUses ?? null,
          },
          at,
        );
        request.log.info({ accessCodeId: created.id, assistantId }, 'access code created');
        return reply.code(201).send({ ...created, code });
      } catch (error) {
        // Only a chosen code can collide; codes compare without case, spaces or dashes.
        if (isUniqueViolation(error)) {
          throw conflict(
            'This code is already in use. Choose another one, or leave code out to get a generated one.',
            {
              code: 'Already in use.',
            },
          );
        }
        throw error;
      }
    },
  );

  app.get(
    '/access-code',
    {
      schema: {
        tags,
        querystring: accessCodeListQuerySchema,
        response: { 200: z.array(accessCodeSchema) },
      },
    },
    async (request) => listAccessCodes(db, principalOf(request).orgId, request.query, now()),
  );

  app.get(
    '/access-code/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: accessCodeSchema } } },
    async (request) => {
      const found = await getAccessCode(db, principalOf(request).orgId, request.params.id, now());
      if (found === undefined) throw notFound('access code', request.params.id);
      return found;
    },
  );

  app.post(
    '/access-code/:id/revoke',
    { schema: { tags, params: idParamsSchema, response: { 200: accessCodeSchema } } },
    async (request) => {
      const revoked = await revokeAccessCode(
        db,
        principalOf(request).orgId,
        request.params.id,
        now(),
      );
      if (revoked === undefined) throw notFound('access code', request.params.id);
      request.log.info({ accessCodeId: revoked.id }, 'access code revoked');
      return revoked;
    },
  );
};
