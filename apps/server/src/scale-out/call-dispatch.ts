import type { Redis } from 'ioredis';
import type { VoiceWorker, WorkerRegistry } from './worker-registry.js';

/** How long the API remembers which worker a new call went to (its link lives 60 s). */
const ROUTE_TTL_MS = 120_000;

/**
 * The API side of a split deployment (ROLE=api): a new call gets a place on the
 * least-loaded voice worker, and its socket is later relayed to that worker, whichever API
 * process the browser reaches.
 */
export class CallDispatch {
  constructor(
    private readonly registry: WorkerRegistry,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private routeKey(callId: string): string {
    return `${this.prefix}call:${callId}:worker`;
  }

  /** A place on a worker for `callId`, held `holdMs` for its caller; null when all are full. */
  async reserve(callId: string, holdMs: number): Promise<VoiceWorker | null> {
    const worker = await this.registry.reserve(callId, holdMs);
    if (worker !== null) await this.redis.set(this.routeKey(callId), worker.id, 'PX', ROUTE_TTL_MS);
    return worker;
  }

  /** Gives a reservation back (creating the call failed). */
  async release(callId: string, worker: VoiceWorker): Promise<void> {
    await this.registry.release(worker.id, callId);
    await this.redis.del(this.routeKey(callId));
  }

  /** The live worker a call was dispatched to, if it is still alive. */
  async workerOf(callId: string): Promise<VoiceWorker | undefined> {
    const id = await this.redis.get(this.routeKey(callId));
    return id === null ? undefined : this.registry.worker(id);
  }

  /** Live workers, their places and capacity: for readiness and metrics. */
  workers() {
    return this.registry.workers();
  }
}
