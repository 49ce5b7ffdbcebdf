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

export function createLogger({ level, pretty = false, destination }: LoggerOptions): Logger {
  const options = { level, redact: { paths: REDACTED, censor: '[redacted]' } };
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
