import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { HttpProblem } from '../http/problems.js';

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;
interface InnerStore {
  incr(key: string, done: Counted, timeWindow: number, max: number): void;
  read(key: string, done: Counted, timeWindow: number, max: number): void;
  child(routeOptions: unknown): InnerStore;
}
type InnerStoreCtor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  nameSpace: string,
) => InnerStore;

// The plugin's own Redis store (one Lua script per count); it is not in the package's
// typed exports, so it is loaded by path and typed here.
const PluginRedisStore = createRequire(import.meta.url)(
  '@fastify/rate-limit/store/RedisStore',
) as InnerStoreCtor;

/** What a visitor is told when the counters cannot be reached. */
export const RATE_LIMIT_UNAVAILABLE =
  'The service is briefly unavailable (its shared store does not answer). Please try again in a moment.';

/** The plugin's store, answering 503 with a message when Redis does not. */
class AnsweringStore implements FastifyRateLimitStore {
  constructor(private readonly inner: InnerStore) {}

  incr(key: string, done: Counted, timeWindow: number, max: number): void {
    this.inner.incr(key, unavailableAs503(done), timeWindow, max);
  }

  /** Reads a count without adding to it (`createRateLimit(...)(request, {increment: false})`). */
  read(key: string, done: Counted, timeWindow: number, max: number): void {
    this.inner.read(key, unavailableAs503(done), timeWindow, max);
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): AnsweringStore {
    return new AnsweringStore(this.inner.child(routeOptions));
  }
}

const unavailableAs503 =
  (done: Counted): Counted =>
  (error, result) =>
    error === null
      ? done(null, result)
      : done(Object.assign(new HttpProblem(503, RATE_LIMIT_UNAVAILABLE), { cause: error }));

/**
 * Rate-limit counters in Redis, shared by every server process: the plugin's own Redis
 * store, with one difference. When Redis does not answer, the request is refused with a
 * 503 that says so, instead of an unexplained 500 or (worse) no limit at all.
 */
export function redisRateLimitStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  return class SharedRateLimitStore extends AnsweringStore {
    // The plugin passes its global settings, which include these two flags.
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(
        new PluginRedisStore(
          options.continueExceeding ?? false,
          options.exponentialBackoff ?? false,
          redis,
          nameSpace,
        ),
      );
    }
  };
}
