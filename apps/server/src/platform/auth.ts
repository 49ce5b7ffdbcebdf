import type { FastifyReply, FastifyRequest } from 'fastify';
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
 */
export function authenticate(keys: ApiKeyService) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.anonymous === true) return;

    const header = request.headers.authorization;
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
