import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Paths that must never reach a log line: passwords and secrets in bodies, credentials in
 * headers. Fastify does not log bodies, so this guards against a careless log call.
 */
const REDACTED = [
  'password',
  '*.password',
  'body.password',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'secret',
  '*.secret',
];

export interface LoggerOptions {
  level: LogLevel;
  /** Human-readable lines (for a terminal) instead of JSON. */
  pretty?: boolean;
  /** Where to write; stdout when absent. Tests pass a stream to read what was logged. */
  destination?: DestinationStream;
}

/** Query parameters that carry secrets (the single-use token of a call link). */
const SECRET_QUERY = /([?&](?:token|key|api_key)=)[^&#]*/gi;

/** A URL fit for a log line: secret query values replaced. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request fields, with the URL made safe to log. */
const serializers = {
  req(request: RequestLike) {
    return {
      method: request.method,
      url: loggableUrl(request.url ?? ''),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  res(reply: { statusCode?: number }) {
    return { statusCode: reply.statusCode };
  },
};

export function createLogger({ level, pretty = false, destination }: LoggerOptions): Logger {
  const options = { level, serializers, redact: { paths: REDACTED, censor: '[redacted]' } };
  if (destination !== undefined) return pino(options, destination);
  if (pretty) {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
      },
    });
  }
  return pino(options);
}
