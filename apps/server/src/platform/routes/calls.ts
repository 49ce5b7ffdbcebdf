import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  callControlAcceptedSchema,
  callControlSchema,
  callListQuerySchema,
  callSchema,
  createPhoneCallSchema,
  createWebCallSchema,
  idParamsSchema,
  withoutServerWrittenCallFields,
} from '@talkbooth/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { admissionMessage } from '../../calls/call-admission.js';
import { humanDuration } from '../../http/human-duration.js';
import { badReference, HttpProblem, notFound } from '../../http/problems.js';
import { publicSocketOrigin } from '../../http/public-address.js';
import { DRAINING_MESSAGE } from '../../lifecycle.js';
import { ALL_WORKERS_BUSY, SHARED_STORE_MESSAGE } from '../../scale-out/messages.js';
import type { VoiceWorker } from '../../scale-out/worker-registry.js';
import { principalOf } from '../auth.js';
import { JOIN_TOKEN_TTL_MS, type PlatformDeps } from '../deps.js';
import { presentCall } from '../present.js';
import { checkPublicKeyCall } from '../public-key-policy.js';

const tags = ['Calls'];

/** Web calls one client address may start per minute with the public key. */
export const WEB_CALLS_PER_MINUTE = 30;

/**
 * How long a new call's place is held for its caller to connect. A browser connects within
 * a second or two once the microphone is allowed; a visitor who denies it leaves a call
 * that never connects, and a long hold would soon count such attempts against their
 * network's cap. A link opened after the hold (within its 60 s) takes a place then, if
 * one is free.
 */
const PLACE_HOLD_MS = 15_000;

/** Why a phone call could not be placed, as recorded on the call. */
export const NO_TELEPHONY_REASON = 'telephony-not-configured';

/**
 * `/call`: list and read calls; create web calls (public keys allowed) and phone calls
 * (recorded, then refused while no telephony provider is configured).
 */
export const callRoutes: FastifyPluginAsyncZod<PlatformDeps> = async (app, deps) => {
  const { assistants, calls, phoneNumbers, now } = deps;

  app.get(
    '/call',
    { schema: { tags, querystring: callListQuerySchema, response: { 200: z.array(callSchema) } } },
    async (request) => {
      const found = await calls.list(principalOf(request).orgId, request.query);
      return found.map(presentCall);
    },
  );

  app.get(
    '/call/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: callSchema } } },
    async (request) => {
      const found = await calls.get(principalOf(request).orgId, request.params.id);
      if (found === undefined) throw notFound('call', request.params.id);
      return presentCall(found);
    },
  );

  app.get(
    '/call/:id/recording',
    { schema: { tags, params: idParamsSchema } },
    async (request, reply) => {
      const call = await calls.get(principalOf(request).orgId, request.params.id);
      if (call === undefined) throw notFound('call', request.params.id);
      const stored = call.recordingUrl === undefined ? undefined : await calls.recording(call.id);
      // Recordings made before they moved into the database are files in the data folder.
      const legacyFile = path.join(deps.legacyRecordingsDir, `${call.id}.wav`);
      if (stored === undefined && (call.recordingUrl === undefined || !fs.existsSync(legacyFile))) {
        throw new HttpProblem(
          404,
          `Call ${call.id} has no recording (recording is off, or the call has not ended yet).`,
        );
      }
      return reply
        .type(stored?.contentType ?? 'audio/wav')
        .header('cache-control', 'private, no-store')
        .send(stored?.audio ?? fs.createReadStream(legacyFile));
    },
  );

  app.post(
    '/call/:id/control',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: callControlSchema,
        response: { 202: callControlAcceptedSchema },
      },
    },
    async (request, reply) => {
      const call = await calls.get(principalOf(request).orgId, request.params.id);
      if (call === undefined) throw notFound('call', request.params.id);
      if (call.status !== 'in-progress') {
        throw new HttpProblem(
          409,
          `Call ${call.id} is not live (its status is ${call.status}), so there is nothing to control.`,
        );
      }
      let outcome: 'sent' | 'not-running';
      try {
        outcome = await deps.controlCall(call.id, request.body);
      } catch (error) {
        request.log.error({ err: error }, 'call control not sent: Redis does not answer');
        throw new HttpProblem(503, SHARED_STORE_MESSAGE);
      }
      if (outcome === 'not-running') {
        throw new HttpProblem(
          409,
          `Call ${call.id} is not running on this server any more (it may have just ended), so there is nothing to control.`,
        );
      }
      return reply.code(202).send({ id: call.id, type: request.body.type, status: 'sent' });
    },
  );

  app.post(
    '/call/web',
    {
      config: {
        publicKey: true,
        // The public key sits in every visitor's browser: calls started with it are
        // limited per client address. Private-key callers (your own servers) are not.
        rateLimit: {
          max: WEB_CALLS_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          allowList: (request, key) =>
            request.principal?.kind === 'private' || deps.rateLimitExemptIps.includes(key),
          errorResponseBuilder: (_request, context) =>
            new HttpProblem(
              429,
              `Too many calls started from your network. Try again in ${humanDuration(context.ttl / 1000)}.`,
            ),
        },
      },
      schema: { tags, body: createWebCallSchema, response: { 201: callSchema } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { orgId } = principal;
      if (deps.lifecycle.draining) throw new HttpProblem(503, DRAINING_MESSAGE);
      const { assistantId, ...rest } = request.body;
      const stored =
        assistantId === undefined ? undefined : await assistants.get(orgId, assistantId);
      if (assistantId !== undefined && stored === undefined) {
        throw badReference(
          'assistantId',
          `There is no assistant with id ${assistantId} in your organisation.`,
        );
      }
      if (principal.kind === 'public') {
        // The public key may only start calls with a stored assistant, within its limits.
        // (Fields only the server writes are dropped for every key, not refused.)
        checkPublicKeyCall(withoutServerWrittenCallFields(request.body), stored?.body ?? {});
      }

      const id = crypto.randomUUID();
      // Calls from the public key count against the caller's address; the operator's own
      // servers (private key) and exempt addresses only against the total.
      const address =
        principal.kind === 'public' && !deps.rateLimitExemptIps.includes(request.ip)
          ? request.ip
          : null;
      // Split across API processes, the per-address count lives in Redis.
      const shared = deps.addressPlaces !== undefined && address !== null;
      const refusal = deps.admission.admit(id, shared ? null : address, PLACE_HOLD_MS);
      if (refusal !== null) {
        request.log.warn({ refusal }, 'web call refused: no free place');
        reply.header('retry-after', '60');
        throw new HttpProblem(429, admissionMessage(refusal));
      }
      if (shared) await takeAddressPlace(deps, id, address, request, reply);
      const worker = await dispatchToWorker(deps, id, request, reply);
      try {
        const at = now();
        const call = await calls.create(
          orgId,
          { type: 'webCall', status: 'queued', assistantId },
          rest,
          at,
          id,
        );
        const token = await calls.issueJoinToken(call.id, JOIN_TOKEN_TTL_MS, at);
        const origin = publicSocketOrigin(request, deps.publicUrl);
        const webCallUrl = `${origin}/ws/call/${call.id}?token=${token}`;
        request.log.info({ callId: call.id, assistantId }, 'web call created');
        return await reply.code(201).send({ ...presentCall(call), webCallUrl });
      } catch (error) {
        deps.admission.release(id);
        if (worker !== null) await deps.dispatch?.release(id, worker).catch(() => undefined);
        if (shared) await deps.addressPlaces?.release(id).catch(() => undefined);
        throw error;
      }
    },
  );

  app.post('/call/phone', { schema: { tags, body: createPhoneCallSchema } }, async (request) => {
    const { orgId } = principalOf(request);
    const { assistantId, ...rest } = request.body;
    if (assistantId !== undefined && !(await assistants.exists(orgId, assistantId))) {
      throw badReference(
        'assistantId',
        `There is no assistant with id ${assistantId} in your organisation.`,
      );
    }
    if (
      rest.phoneNumberId !== undefined &&
      (await phoneNumbers.get(orgId, rest.phoneNumberId)) === undefined
    ) {
      throw badReference(
        'phoneNumberId',
        `There is no phone number with id ${rest.phoneNumberId} in your organisation.`,
      );
    }
    const at = now();
    const call = await calls.create(
      orgId,
      {
        type: 'outboundPhoneCall',
        status: 'ended',
        assistantId,
        endedReason: NO_TELEPHONY_REASON,
        endedAt: at.toISOString(),
      },
      rest,
      at,
    );
    request.log.info({ callId: call.id }, 'phone call refused: no telephony provider');
    throw new HttpProblem(
      400,
      `Phone calls need a telephony provider, and none is configured on this server. The attempt is recorded as call ${call.id}.`,
    );
  });
};

/**
 * ROLE=api: the call's place against its address's cap, counted in Redis so that it holds
 * across API processes. Refuses with 429 at the cap and 503 when Redis does not answer;
 * the place held here is given back either way.
 */
async function takeAddressPlace(
  deps: PlatformDeps,
  id: string,
  address: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  let taken: boolean;
  try {
    taken = await deps.addressPlaces!.take(id, address, PLACE_HOLD_MS);
  } catch (error) {
    deps.admission.release(id);
    request.log.error(
      { err: error },
      'web call refused: the address count (Redis) does not answer',
    );
    throw new HttpProblem(503, SHARED_STORE_MESSAGE);
  }
  if (taken) return;
  deps.admission.release(id);
  const limit = deps.admission.limits.maxPerAddress;
  request.log.warn({ limit }, 'web call refused: the address has its most calls open');
  reply.header('retry-after', '60');
  throw new HttpProblem(429, admissionMessage({ problem: 'address', limit }));
}

/**
 * ROLE=api: a place for the call on the least-loaded voice worker (null in a single
 * process, which holds its own places). Refuses with 429 when every worker is full, and
 * with 503 when the registry cannot be asked; the place held here is given back either way.
 */
async function dispatchToWorker(
  deps: PlatformDeps,
  id: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<VoiceWorker | null> {
  if (deps.dispatch === undefined) return null;
  let worker: VoiceWorker | null;
  try {
    worker = await deps.dispatch.reserve(id, PLACE_HOLD_MS);
  } catch (error) {
    deps.admission.release(id);
    request.log.error({ err: error }, 'web call refused: the worker registry does not answer');
    throw new HttpProblem(503, SHARED_STORE_MESSAGE);
  }
  if (worker === null) {
    deps.admission.release(id);
    request.log.warn('web call refused: every voice worker is full');
    reply.header('retry-after', '60');
    throw new HttpProblem(429, ALL_WORKERS_BUSY);
  }
  request.log.info({ callId: id, worker: worker.id }, 'web call dispatched');
  return worker;
}
