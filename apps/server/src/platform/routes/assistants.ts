import {
  assistantDtoSchema,
  assistantPatchSchema,
  assistantSchema,
  idParamsSchema,
  listQuerySchema,
  type AssistantDto,
} from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ASSISTANT_SECRET_PATHS } from '../../db/repositories/assistants.js';
import { checkedJson, sendJsonAnswer } from '../../http/json-answers.js';
import { notFound } from '../../http/problems.js';
import { validationProblem } from '../../http/validation-problems.js';
import { restoreMaskedSecrets } from '../../security/secret-fields.js';
import { principalOf } from '../auth.js';
import type { PlatformDeps } from '../deps.js';
import { AnswerMemo } from '../answer-memo.js';
import { applyMergePatch } from '../json-merge-patch.js';
import { presentAssistant } from '../present.js';

const tags = ['Assistants'];

/** `/assistant`: create, list, get, PATCH (merge), PUT (replace), delete. */
export const assistantRoutes: FastifyPluginAsyncZod<PlatformDeps> = async (app, deps) => {
  const { assistants, now, prepareAssistant } = deps;
  // The list answers each stored assistant with the JSON it had the last time its row was
  // the same (presented and checked against assistantSchema when first seen): a long list
  // is then SQLite and a copy, not a parse, a schema check and a stringify of every
  // assistant on every request. See AnswerMemo for why that cannot go stale.
  const assistantJson = checkedJson(assistantSchema, { method: 'GET', url: '/platform/assistant' });
  const listed = new AnswerMemo((row) => assistantJson(presentAssistant(assistants.unpack(row))));

  app.post(
    '/assistant',
    { schema: { tags, body: assistantDtoSchema, response: { 201: assistantSchema } } },
    async (request, reply) => {
      const created = await assistants.create(principalOf(request).orgId, request.body, now());
      prepareAssistant?.(created);
      return reply.code(201).send(presentAssistant(created));
    },
  );

  app.get(
    '/assistant',
    { schema: { tags, querystring: listQuerySchema, response: { 200: z.array(assistantSchema) } } },
    async (request, reply) => {
      const rows = await assistants.listRows(principalOf(request).orgId, request.query);
      return sendJsonAnswer(reply, listed.list(rows));
    },
  );

  app.get(
    '/assistant/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: assistantSchema } } },
    async (request) => {
      const found = await assistants.get(principalOf(request).orgId, request.params.id);
      if (found === undefined) throw notFound('assistant', request.params.id);
      return presentAssistant(found);
    },
  );

  app.patch(
    '/assistant/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: assistantPatchSchema,
        response: { 200: assistantSchema },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const stored = await assistants.get(orgId, request.params.id);
      if (stored === undefined) throw notFound('assistant', request.params.id);
      const patch = restoreMaskedSecrets(request.body, stored.body, ASSISTANT_SECRET_PATHS);
      const merged = assistantDtoSchema.safeParse(applyMergePatch(stored.body, patch));
      if (!merged.success) throw validationProblem(merged.error.issues);
      const updated = await assistants.replace(orgId, stored.id, merged.data, now());
      if (updated === undefined) throw notFound('assistant', request.params.id);
      prepareAssistant?.(updated);
      return presentAssistant(updated);
    },
  );

  app.put(
    '/assistant/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: assistantDtoSchema,
        response: { 200: assistantSchema },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const stored = await assistants.get(orgId, request.params.id);
      if (stored === undefined) throw notFound('assistant', request.params.id);
      const body = restoreMaskedSecrets(
        request.body,
        stored.body,
        ASSISTANT_SECRET_PATHS,
      ) as AssistantDto;
      const updated = await assistants.replace(orgId, stored.id, body, now());
      if (updated === undefined) throw notFound('assistant', request.params.id);
      prepareAssistant?.(updated);
      return presentAssistant(updated);
    },
  );

  app.delete(
    '/assistant/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: assistantSchema } } },
    async (request) => {
      const deleted = await assistants.delete(principalOf(request).orgId, request.params.id);
      if (deleted === undefined) throw notFound('assistant', request.params.id);
      return presentAssistant(deleted);
    },
  );
};
