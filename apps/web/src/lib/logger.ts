/**
 * A tiny logger over the browser console. Every line starts with a `[talkbooth]` tag so the
 * app's own messages are easy to find among the browser's. Never pass secrets (passwords,
 * keys) as details.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const TAG = '[talkbooth]';

function write(level: LogLevel, message: string, details: unknown[]): void {
  console[level](`${TAG} ${message}`, ...details);
}

export const logger = {
  debug: (message: string, ...details: unknown[]) => write('debug', message, details),
  info: (message: string, ...details: unknown[]) => write('info', message, details),
  warn: (message: string, ...details: unknown[]) => write('warn', message, details),
  error: (message: string, ...details: unknown[]) => write('error', message, details),
};
