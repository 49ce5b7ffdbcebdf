import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AddressPlaces } from './address-places.js';
import { CallDispatch } from './call-dispatch.js';
import { WorkerPresence } from './worker-presence.js';
import { WorkerRegistry } from './worker-registry.js';

/** How often a voice worker renews its place in the registry, and how long it lasts. */
const WORKER_BEAT_MS = 2_000;
const WORKER_ALIVE_MS = 3 * WORKER_BEAT_MS;

/**
 * ROLE=api and ROLE=voice: the registry of voice workers in Redis, and this process's side
 * of it (dispatching calls, or taking them). Undefined for ROLE=all.
 */
export function splitDeployment(
  config: Config,
  redis: Redis | undefined,
  owner: string,
  log: FastifyBaseLogger,
):
  | { dispatch?: CallDispatch; addressPlaces?: AddressPlaces; presence?: WorkerPresence }
  | undefined {
  if (config.role === 'all') return undefined;
  // loadConfig refuses a split role without these.
  if (redis === undefined) throw new Error('ROLE=api and ROLE=voice need REDIS_URL');
  const registry = new WorkerRegistry(redis, {
    prefix: config.redisKeyPrefix,
    aliveMs: WORKER_ALIVE_MS,
  });
  if (config.role === 'api') {
    return {
      dispatch: new CallDispatch(registry, redis, config.redisKeyPrefix),
      addressPlaces: new AddressPlaces(redis, config.redisKeyPrefix, config.maxLiveCallsPerAddress),
    };
  }
  if (config.workerUrl === undefined) throw new Error('ROLE=voice needs WORKER_URL');
  const worker = { id: owner, url: config.workerUrl, capacity: config.maxLiveCalls };
  return { presence: new WorkerPresence(registry, worker, { beatMs: WORKER_BEAT_MS, log }) };
}

/** ROLE=api readiness: some voice worker is alive and has room. */
export async function workersReadiness(dispatch: CallDispatch): Promise<string> {
  const workers = await dispatch.workers();
  if (workers.length === 0) throw new Error('No voice worker is running (ROLE=voice).');
  const load = workers.reduce((sum, w) => sum + w.load, 0);
  const capacity = workers.reduce((sum, w) => sum + w.capacity, 0);
  if (load >= capacity) throw new Error(`Every voice worker is full (${capacity} places).`);
  return `${workers.length} voice worker${workers.length === 1 ? '' : 's'}, ${load} of ${capacity} places taken`;
}
