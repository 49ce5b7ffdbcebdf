import type { FastifyReply, FastifyRequest } from 'fastify';
import { changesState, type AccountAuth } from '../console/account-auth.js';
import { sendError } from '../http/error-replies.js';
import type { ApiKeyService, Principal } from './api-key-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a platform route, set by the bearer-token check. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route is open to public keys too (only `POST /call/web`). */
    publicKey?: boolean;
    /** The route needs no key at all (the OpenAPI document). */
    anonymous?: boolean;
  }
}

/** The caller; only for routes behind `authenticate`. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('platform route reached without a principal');
  return request.principal;
}

/**
 * The bearer-token check of every platform route: 401 without a valid key, 403 for a
 * public key outside web-call creation or from an origin it is not allowed on.
 *
 * Without an Authorization header, a console session is the credential too (the console
 * manages assistants and access codes through this API): it acts for its organisation,
 * and a viewer may only read. Its changes pass the CSRF check before this runs.
 */
export function authenticate(keys: ApiKeyService, accounts?: AccountAuth) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.anonymous === true) return;

    const header = request.headers.authorization;
    if (header === undefined && accounts !== undefined) {
      const account = await accounts.load(request);
      if (account !== null) {
        if (account.role === 'viewer' && changesState(request)) {
          return sendError(
            reply,
            403,
            'Your role (viewer) can only read. Ask an owner of your organisation for the admin role.',
          );
        }
        request.principal = {
          orgId: account.organisation.id,
          kind: 'private',
          keyId: `account:${account.id}`,
          allowedOrigins: [],
        };
        return;
      }
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (token === undefined) {
      return sendError(
        reply,
        401,
        header === undefined
          ? 'This API needs an API key. Send it in the Authorization header: "Authorization: Bearer <your key>".'
          : 'The Authorization header must read "Bearer <your key>".',
      );
    }
    const principal = await keys.authenticate(token);
    if (principal === null) {
      return sendError(
        reply,
        401,
        'This API key is not valid or has been revoked. Check the key, or create a new one.',
      );
    }
    if (principal.kind === 'public') {
      if (config.publicKey !== true) {
        return sendError(
          reply,
          403,
          'A public key can only start web calls (POST /call/web). Use your private key for this request, and keep it on your server.',
        );
      }
      const origin = request.headers.origin;
      if (
        principal.allowedOrigins.length > 0 &&
        (origin === undefined || !principal.allowedOrigins.includes(origin))
      ) {
        return sendError(
          reply,
          403,
          `This public key only works from ${principal.allowedOrigins.join(', ')}; this request came from ${
            origin ?? 'no origin (not a browser page)'
          }.`,
        );
      }
    }
    request.principal = principal;
  };
}
