import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkerRegistry, type VoiceWorker } from './worker-registry.js';

// Scale-out project only: against the real Redis, under this run's key prefix.
let redis: Redis;
let prefix: string;
let clock: number;
const registry = (aliveMs = 10_000) =>
  new WorkerRegistry(redis, { prefix, aliveMs, now: () => clock });
const worker = (n: number, capacity: number): VoiceWorker => ({
  id: `worker-${n}`,
  url: `http://voice-${n}.internal:3000`,
  capacity,
});

beforeAll(async () => {
  const run = inject('redisTestRun');
  if (run === undefined) throw new Error('this file runs in the scale-out project only');
  redis = new Redis(run.url);
});
beforeEach(() => {
  prefix = `${inject('redisTestRun')!.prefix}registry-${crypto.randomBytes(4).toString('hex')}:`;
  clock = 1_000_000;
});
afterAll(async () => {
  await redis.quit();
});

describe('the voice-worker registry (real Redis)', () => {
  it('spreads new calls over the workers by load, relative to capacity, and says when all are full', async () => {
    const workers = registry();
    await workers.heartbeat(worker(1, 2));
    await workers.heartbeat(worker(2, 4));
    const chosen: string[] = [];
    for (let call = 0; call < 6; call += 1) {
      chosen.push((await workers.reserve(`call-${call}`, 15_000))!.id);
    }
    // Shares 0/2 = 0/4 → the emptier first; then always the lower share of capacity.
    expect(chosen.filter((id) => id === 'worker-1')).toHaveLength(2);
    expect(chosen.filter((id) => id === 'worker-2')).toHaveLength(4);
    expect(await workers.reserve('call-6', 15_000)).toBeNull();
    expect(await workers.workers()).toEqual([
      { ...worker(1, 2), load: 2 },
      { ...worker(2, 4), load: 4 },
    ]);

    // A call ends: its worker has room again, and takes the next call.
    await workers.release(chosen[5]!, 'call-5');
    expect(await workers.reserve('call-7', 15_000)).toMatchObject({ id: chosen[5] });
  });

  it('lets a reservation lapse unless its caller connects in time; a connected call keeps its place', async () => {
    const workers = registry(60_000);
    await workers.heartbeat(worker(1, 1));
    expect(await workers.reserve('late', 15_000)).toMatchObject({ id: 'worker-1' });
    expect(await workers.reserve('other', 15_000)).toBeNull();
    clock += 15_001;
    // Nobody came: the place went back.
    expect(await workers.reserve('in-time', 15_000)).toMatchObject({ id: 'worker-1' });
    clock += 10_000;
    await workers.hold('worker-1', 'in-time');
    clock += 30_000;
    expect(await workers.reserve('after', 15_000)).toBeNull();
    expect(await workers.workers()).toEqual([{ ...worker(1, 1), load: 1 }]);
    await workers.release('worker-1', 'in-time');
    expect(await workers.reserve('after', 15_000)).toMatchObject({ id: 'worker-1' });
  });

  it('forgets a worker that stops beating, with its places, and one that leaves', async () => {
    const workers = registry(200);
    await workers.heartbeat(worker(1, 5));
    await workers.heartbeat(worker(2, 5));
    await workers.reserve('a', 15_000);
    await workers.reserve('b', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await workers.heartbeat(worker(2, 5));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // worker-1's heartbeat lapsed (real Redis expiry): it is gone, and calls go to worker-2.
    expect((await workers.workers()).map((w) => w.id)).toEqual(['worker-2']);
    expect(await workers.reserve('c', 15_000)).toMatchObject({ id: 'worker-2' });
    expect(await redis.hexists(`${prefix}workers`, 'worker-1')).toBe(0);
    expect(await redis.exists(`${prefix}worker:worker-1:places`)).toBe(0);

    await workers.leave('worker-2');
    expect(await workers.workers()).toEqual([]);
    expect(await workers.reserve('d', 15_000)).toBeNull();
  });
});
