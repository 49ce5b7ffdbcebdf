import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './error-replies.js';

/**
 * The address visitors use, for the links this server hands out (call links, recording
 * links, the web app's platform URL) and for its content security policy. It comes from
 * PUBLIC_URL when set. Without it, from the request's Host (or, behind a trusted proxy,
 * X-Forwarded-Host), which is checked first: a host name or an IP address with an
 * optional port, nothing else. A Host with `;`, `,` or spaces used to reach the policy
 * header (a 500 on every route) and the links; now it is answered 400 before any route.
 */

/** A DNS name (labels of letters, digits, `-` and `_`), IPv4, or a bracketed IPv6 literal; then an optional port. */
const SAFE_HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export function isSafeHost(host: string): boolean {
  return host.length <= 255 && SAFE_HOST.test(host);
}

/** Refuses requests whose Host (or forwarded host) is not a plain host name. */
export function registerHostCheck(app: FastifyInstance, publicUrl: string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.headers.host;
    const hosts = [raw, request.host].filter((h): h is string => h !== undefined && h !== '');
    if (hosts.length === 0 && publicUrl === undefined) {
      return sendError(
        reply,
        400,
        'This request has no Host header. Send one, like Host: talk.example.',
      );
    }
    if (hosts.some((host) => !isSafeHost(host))) {
      request.log.warn('request refused: malformed Host header');
      return sendError(
        reply,
        400,
        'The Host header must be a host name or IP address with an optional port, like talk.example or 192.0.2.1:3000.',
      );
    }
  });
}

/** `https://host[:port]` of this server as visitors reach it. */
export function publicOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The WebSocket origin (`wss://host[:port]`) matching {@link publicOrigin}. */
export function publicSocketOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicOrigin(request, publicUrl).replace(/^http/, 'ws');
}
