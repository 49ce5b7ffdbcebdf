import {
  buyPhoneNumberSchema,
  idParamsSchema,
  importTwilioSchema,
  importVonageSchema,
  listQuerySchema,
  phoneNumberSchema,
  updatePhoneNumberSchema,
} from '@talkbooth/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/constraint-errors.js';
import {
  PHONE_NUMBER_SECRET_PATHS,
  type PhoneNumberFields,
} from '../../db/repositories/phone-numbers.js';
import { badReference, conflict, HttpProblem, notFound } from '../../http/problems.js';
import { restoreMaskedSecrets } from '../../security/secret-fields.js';
import { principalOf } from '../auth.js';
import type { PlatformDeps } from '../deps.js';
import { presentPhoneNumber } from '../present.js';

const tags = ['Phone Numbers'];

/** Fields fixed when a number is imported: changing them means importing it again. */
const FIXED_FIELDS = ['provider', 'number', 'credentialId', 'twilioAccountSid'];
const SERVER_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];

/** `/phone-number`: import numbers from Twilio or Vonage, list, read, update, delete. */
export const phoneNumberRoutes: FastifyPluginAsyncZod<PlatformDeps> = async (app, deps) => {
  const { db, assistants, credentials, phoneNumbers, now } = deps;

  const checkAssistant = async (orgId: string, assistantId: string | null | undefined) => {
    if (assistantId != null && !(await assistants.exists(orgId, assistantId))) {
      throw badReference(
        'assistantId',
        `There is no assistant with id ${assistantId} in your organisation.`,
      );
    }
  };
  const alreadyImported = (number: string) =>
    conflict(`The number ${number} is already in your organisation.`, {
      number: 'This number is already imported.',
    });

  app.post(
    '/phone-number/buy',
    { schema: { tags, body: buyPhoneNumberSchema } },
    async (request) => {
      await checkAssistant(principalOf(request).orgId, request.body.assistantId);
      throw new HttpProblem(
        400,
        'Buying phone numbers needs a telephony provider, and none is configured on this server. Import a number you own from Twilio or Vonage instead.',
      );
    },
  );

  app.post(
    '/phone-number/import/twilio',
    { schema: { tags, body: importTwilioSchema, response: { 201: phoneNumberSchema } } },
    async (request, reply) => {
      const { orgId } = principalOf(request);
      const { twilioPhoneNumber, twilioAccountSid, twilioAuthToken, assistantId, ...rest } =
        request.body;
      await checkAssistant(orgId, assistantId);
      const at = now();
      try {
        // The auth token becomes a credential of its own: stored sealed, listed under /credential.
        const created = await db.transaction().execute(async (trx) => {
          const credential = await credentials.create(
            orgId,
            {
              provider: 'twilio',
              accountSid: twilioAccountSid,
              authToken: twilioAuthToken,
              name: `Twilio ${twilioPhoneNumber}`,
            },
            at,
            trx,
          );
          return phoneNumbers.create(
            orgId,
            {
              ...rest,
              provider: 'twilio',
              number: twilioPhoneNumber,
              twilioAccountSid,
              credentialId: credential.id,
              assistantId,
            },
            at,
            trx,
          );
        });
        return reply.code(201).send(presentPhoneNumber(created));
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyImported(twilioPhoneNumber);
        throw error;
      }
    },
  );

  app.post(
    '/phone-number/import/vonage',
    { schema: { tags, body: importVonageSchema, response: { 201: phoneNumberSchema } } },
    async (request, reply) => {
      const { orgId } = principalOf(request);
      const { vonagePhoneNumber, credentialId, assistantId, ...rest } = request.body;
      const credential = await credentials.get(orgId, credentialId);
      if (credential?.body.provider !== 'vonage') {
        throw badReference(
          'credentialId',
          credential === undefined
            ? `There is no credential with id ${credentialId} in your organisation.`
            : `The credential ${credentialId} is for ${credential.body.provider}; importing a Vonage number needs a vonage credential.`,
        );
      }
      await checkAssistant(orgId, assistantId);
      try {
        const created = await phoneNumbers.create(
          orgId,
          { ...rest, provider: 'vonage', number: vonagePhoneNumber, credentialId, assistantId },
          now(),
        );
        return reply.code(201).send(presentPhoneNumber(created));
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyImported(vonagePhoneNumber);
        throw error;
      }
    },
  );

  app.get(
    '/phone-number',
    {
      schema: { tags, querystring: listQuerySchema, response: { 200: z.array(phoneNumberSchema) } },
    },
    async (request) => {
      const found = await phoneNumbers.list(principalOf(request).orgId, request.query);
      return found.map(presentPhoneNumber);
    },
  );

  app.get(
    '/phone-number/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: phoneNumberSchema } } },
    async (request) => {
      const found = await phoneNumbers.get(principalOf(request).orgId, request.params.id);
      if (found === undefined) throw notFound('phone number', request.params.id);
      return presentPhoneNumber(found);
    },
  );

  app.patch(
    '/phone-number/:id',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: updatePhoneNumberSchema,
        response: { 200: phoneNumberSchema },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const stored = await phoneNumbers.get(orgId, request.params.id);
      if (stored === undefined) throw notFound('phone number', request.params.id);
      const fixed = FIXED_FIELDS.filter(
        (field) => field in request.body && request.body[field] !== stored[field],
      );
      if (fixed.length > 0) {
        const message =
          'This is fixed when the number is imported; import the number again to change it.';
        throw new HttpProblem(
          400,
          `${fixed.join(', ')} cannot be changed. ${message}`,
          Object.fromEntries(fixed.map((f) => [f, message])),
        );
      }
      await checkAssistant(orgId, request.body.assistantId);

      const patch = restoreMaskedSecrets(request.body, stored, PHONE_NUMBER_SECRET_PATHS);
      const next: Record<string, unknown> = { ...stored };
      for (const [field, value] of Object.entries(patch)) {
        if (SERVER_FIELDS.includes(field)) continue;
        if (value === null) delete next[field];
        else next[field] = value;
      }
      const updated = await phoneNumbers.replace(
        orgId,
        stored.id,
        next as PhoneNumberFields,
        now(),
      );
      if (updated === undefined) throw notFound('phone number', request.params.id);
      return presentPhoneNumber(updated);
    },
  );

  app.delete(
    '/phone-number/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: phoneNumberSchema } } },
    async (request) => {
      const deleted = await phoneNumbers.delete(principalOf(request).orgId, request.params.id);
      if (deleted === undefined) throw notFound('phone number', request.params.id);
      return presentPhoneNumber(deleted);
    },
  );
};
