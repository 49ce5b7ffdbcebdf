import crypto from 'node:crypto';
import {
  createdInviteSchema,
  createInviteRequestSchema,
  memberSchema,
  passwordResetSchema,
  teamSchema,
  updateMemberRequestSchema,
} from '@talkbooth/protocol';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  countOwners,
  findMember,
  listMembers,
  setPasswordHash,
  setRole,
} from '../../db/repositories/users.js';
import { HttpProblem } from '../../http/problems.js';
import { hashPassword } from '../../security/passwords.js';
import { requireRole } from '../account-auth.js';
import type { ConsoleDeps } from '../deps.js';
import { createInvite, listOpenInvites, revokeInvite } from '../invites.js';

const idParams = z.object({ id: z.string().max(100) });

/** A one-time password an owner reads out or sends: 16 characters from an unambiguous alphabet. */
export function temporaryPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
  return Array.from({ length: 16 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
}

/** The register page's address, for invite links. */
function registerUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  return `${base.replace(/\/+$/, '')}/register`;
}

/** The team page (owners only): members, roles, invite links, password resets. */
export const teamRoutes: FastifyPluginAsyncZod<ConsoleDeps> = async (app, deps) => {
  const memberOr404 = async (orgId: string, id: string) => {
    const member = await findMember(deps.db, orgId, id);
    if (member === null)
      throw new HttpProblem(404, `There is no member with id ${id} in your organisation.`);
    return member;
  };

  app.get('/team', { schema: { response: { 200: teamSchema } } }, async (request) => {
    const owner = requireRole(request, 'owner');
    return {
      members: await listMembers(deps.db, owner.organisation.id),
      invites: await listOpenInvites(deps.db, owner.organisation.id, deps.now()),
    };
  });

  app.post(
    '/team/invites',
    { schema: { body: createInviteRequestSchema, response: { 201: createdInviteSchema } } },
    async (request, reply) => {
      const owner = requireRole(request, 'owner');
      const invite = await createInvite(
        deps.db,
        {
          orgId: owner.organisation.id,
          role: request.body.role,
          createdBy: owner.id,
          registerUrl: registerUrl(request, deps.publicUrl),
        },
        deps.now(),
      );
      return reply.code(201).send(invite);
    },
  );

  app.delete('/team/invites/:id', { schema: { params: idParams } }, async (request, reply) => {
    const owner = requireRole(request, 'owner');
    if (!(await revokeInvite(deps.db, owner.organisation.id, request.params.id, deps.now()))) {
      throw new HttpProblem(404, `There is no open invite with id ${request.params.id}.`);
    }
    return reply.code(204).send();
  });

  app.patch(
    '/team/members/:id',
    {
      schema: {
        params: idParams,
        body: updateMemberRequestSchema,
        response: { 200: memberSchema },
      },
    },
    async (request) => {
      const owner = requireRole(request, 'owner');
      const orgId = owner.organisation.id;
      const member = await memberOr404(orgId, request.params.id);
      if (
        member.role === 'owner' &&
        request.body.role !== 'owner' &&
        (await countOwners(deps.db, orgId)) <= 1
      ) {
        throw new HttpProblem(
          409,
          'An organisation needs an owner: make someone else owner first.',
        );
      }
      await setRole(deps.db, member.id, request.body.role, deps.now());
      request.log.info({ userId: member.id, role: request.body.role }, 'member role changed');
      return { ...member, role: request.body.role };
    },
  );

  app.post(
    '/team/members/:id/reset-password',
    { schema: { params: idParams, response: { 200: passwordResetSchema } } },
    async (request) => {
      const owner = requireRole(request, 'owner');
      const member = await memberOr404(owner.organisation.id, request.params.id);
      const password = temporaryPassword();
      await setPasswordHash(deps.db, member.id, await hashPassword(password), deps.now());
      await deps.auth.store.deleteForUser(member.id);
      request.log.info({ userId: member.id, by: owner.id }, 'member password reset');
      return { temporaryPassword: password };
    },
  );
};
