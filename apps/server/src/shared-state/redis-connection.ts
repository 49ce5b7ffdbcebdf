import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Host and port of a Redis URL, for messages: never its user or password. */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port === '' ? '6379' : parsed.port}`;
}

/**
 * Connects to the Redis that server processes share, and fails the start with a clear
 * message when it does not answer. Afterwards a command fails at once while Redis is
 * away (no queue of commands piling up behind a dead connection) and the client keeps
 * reconnecting; each change of state is logged once, not every retry.
 */
export async function connectRedis(url: string, log: Logger): Promise<Redis> {
  const address = redisAddress(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
  });
  let reachable = true;
  redis.on('error', (error: Error) => {
    if (!reachable) return;
    reachable = false;
    log.error({ redis: address, reason: error.message }, 'Redis stopped answering');
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    log.info({ redis: address }, 'Redis answers again');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `Redis at ${address} (REDIS_URL) does not answer: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return redis;
}
