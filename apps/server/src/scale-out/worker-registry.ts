import type { Redis } from 'ioredis';

/** A voice worker as the registry knows it. */
export interface VoiceWorker {
  /** Unique per process (host, pid and a random part). */
  id: string;
  /** Where API processes reach its call sockets (its WORKER_URL), e.g. `http://10.0.0.5:3001`. */
  url: string;
  /** Calls it takes at once (its MAX_LIVE_CALLS). */
  capacity: number;
}

/** A worker with its load, as a dispatcher or an operator sees it. */
export interface WorkerLoad extends VoiceWorker {
  /** Places taken: calls connected, and calls reserved whose caller has not yet come. */
  load: number;
}

export interface WorkerRegistryOptions {
  /** Put before every key (REDIS_KEY_PREFIX). */
  prefix: string;
  /** How long a worker counts as alive after its last heartbeat. */
  aliveMs: number;
  now?: () => number;
}

// Atomic choice of a worker: forget the dead ones (no heartbeat within aliveMs), drop
// reservations whose caller never came, then hold a place on the worker with the lowest
// share of its capacity taken (fewest places on a tie). LiveKit hands jobs to agent
// workers the same way. Keys are built inside the script, so it needs one Redis (not a
// cluster), which is what a deployment of this size runs.
const RESERVE = `
local prefix = ARGV[1]
local now = tonumber(ARGV[2])
local holdUntil = tonumber(ARGV[3])
local callId = ARGV[4]
local best, bestShare, bestLoad, bestInfo
for _, id in ipairs(redis.call('HKEYS', KEYS[1])) do
  local places = prefix .. 'worker:' .. id .. ':places'
  if redis.call('EXISTS', prefix .. 'worker:' .. id .. ':alive') == 0 then
    redis.call('HDEL', KEYS[1], id)
    redis.call('DEL', places)
  else
    redis.call('ZREMRANGEBYSCORE', places, '-inf', '(' .. now)
    local info = redis.call('HGET', KEYS[1], id)
    local capacity = tonumber(cjson.decode(info).capacity)
    local load = redis.call('ZCARD', places)
    local share = load / capacity
    if load < capacity and (best == nil or share < bestShare or (share == bestShare and load < bestLoad)) then
      best, bestShare, bestLoad, bestInfo = id, share, load, info
    end
  end
end
if best == nil then return nil end
redis.call('ZADD', prefix .. 'worker:' .. best .. ':places', holdUntil, callId)
return bestInfo
`;

/**
 * The voice workers of a deployment, in Redis: each worker registers with its capacity
 * and renews a heartbeat; an API process reserves a place for a new call on the
 * least-loaded live worker (or learns that every worker is full). A reserved place lapses
 * unless the caller connects in time; a connected call holds its place until it ends. A
 * worker that stops beating is forgotten at the next reservation, with its places.
 */
export class WorkerRegistry {
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly options: WorkerRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
    if (!('reserveWorkerPlace' in redis)) {
      redis.defineCommand('reserveWorkerPlace', { numberOfKeys: 1, lua: RESERVE });
    }
  }

  private get workersKey(): string {
    return `${this.options.prefix}workers`;
  }

  private key(workerId: string, part: 'alive' | 'places'): string {
    return `${this.options.prefix}worker:${workerId}:${part}`;
  }

  /** Registers `worker` (or renews it): it counts as alive for the next `aliveMs`. */
  async heartbeat(worker: VoiceWorker): Promise<void> {
    await this.redis
      .multi()
      .hset(this.workersKey, worker.id, JSON.stringify(worker))
      .set(this.key(worker.id, 'alive'), '1', 'PX', this.options.aliveMs)
      .exec();
  }

  /** Takes `worker` out of dispatch at once (a clean shutdown), with its places. */
  async leave(workerId: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.workersKey, workerId)
      .del(this.key(workerId, 'alive'), this.key(workerId, 'places'))
      .exec();
  }

  /**
   * Holds a place for `callId` on the least-loaded live worker with room, for `holdMs`
   * unless the caller connects first. Answers that worker, or null when all are full (or
   * none is alive).
   */
  async reserve(callId: string, holdMs: number): Promise<VoiceWorker | null> {
    const now = this.now();
    const reserve = (
      this.redis as unknown as {
        // Defined above with defineCommand; ioredis adds it to the client at run time.
        reserveWorkerPlace(key: string, ...args: (string | number)[]): Promise<string | null>;
      }
    ).reserveWorkerPlace;
    const chosen = await reserve.call(
      this.redis,
      this.workersKey,
      this.options.prefix,
      now,
      now + holdMs,
      callId,
    );
    return chosen === null ? null : (JSON.parse(chosen) as VoiceWorker);
  }

  /**
   * The caller of `callId` connected to `workerId`, which took the call: its place is held
   * until `release`, whether or not it was reserved there (the worker's own cap decides
   * whether it takes a call; this keeps the dispatcher's view of its load true).
   */
  async hold(workerId: string, callId: string): Promise<void> {
    await this.redis.zadd(this.key(workerId, 'places'), '+inf', callId);
  }

  /** The call ended (or was refused): its place is free. Idempotent. */
  async release(workerId: string, callId: string): Promise<void> {
    await this.redis.zrem(this.key(workerId, 'places'), callId);
  }

  /** Worker `id` as it registered, while it is alive. */
  async worker(id: string): Promise<VoiceWorker | undefined> {
    const [info, alive] = await Promise.all([
      this.redis.hget(this.workersKey, id),
      this.redis.exists(this.key(id, 'alive')),
    ]);
    return info === null || alive === 0 ? undefined : (JSON.parse(info) as VoiceWorker);
  }

  /** Every live worker with its load (lapsed reservations not counted). */
  async workers(): Promise<WorkerLoad[]> {
    const now = this.now();
    const all = await this.redis.hgetall(this.workersKey);
    const result: WorkerLoad[] = [];
    for (const [id, info] of Object.entries(all)) {
      if ((await this.redis.exists(this.key(id, 'alive'))) === 0) continue;
      const load = await this.redis.zcount(this.key(id, 'places'), now, '+inf');
      result.push({ ...(JSON.parse(info) as VoiceWorker), load });
    }
    return result.sort((a, b) => a.id.localeCompare(b.id));
  }
}
