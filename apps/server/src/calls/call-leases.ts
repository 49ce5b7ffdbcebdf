import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import {
  VOICE_WORKER_OWNER,
  type CallLease,
  type CallRepository,
} from '../db/repositories/calls.js';

export interface CallLeasesOptions {
  /** How long a lease lasts unrenewed (CALL_LEASE_SECONDS). */
  ttlMs: number;
  /** How long a queued web call's link lives: past it (and a margin) the call is abandoned. */
  joinTtlMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Told of each call the sweep ends, with its reason. */
  onEnded?: (reason: string) => void;
  /** True on a voice worker (ROLE=voice): its leases say so, and its lost calls are `worker-lost`. */
  voiceWorker?: boolean;
}

/** Extra time a queued call is given past its link's expiry before the sweep ends it. */
const QUEUED_MARGIN_MS = 30_000;

/**
 * Leases on live calls. The process serving a call holds its lease and renews it every
 * third of its lifetime; a process that dies (`kill -9`, a crash, a lost machine) stops
 * renewing, and once the lease has run out any process sharing the database ends the call
 * as `server-crashed`, keeping what was written. The same sweep ends web calls whose link
 * expired unopened (`call-start-timeout`). It runs at start and then every half lease, so a
 * lost call is ended within about 1.5 lease lifetimes.
 */
export class CallLeases {
  /** This process, as lease owner: host, pid and a random part (a pid can be reused). */
  readonly owner: string;
  private readonly held = new Map<string, () => void>();
  private renewTimer: ReturnType<typeof setInterval> | null = null;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private work: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly calls: CallRepository,
    private readonly options: CallLeasesOptions,
  ) {
    const self = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
    this.owner = options.voiceWorker === true ? `${VOICE_WORKER_OWNER}${self}` : self;
  }

  /** A fresh lease for a call this process starts serving now. */
  lease(): CallLease {
    return {
      owner: this.owner,
      expiresAt: new Date(this.options.now().getTime() + this.options.ttlMs),
    };
  }

  /** Keeps renewing the lease of call `id`; `lost` runs if it turns out another process ended it. */
  hold(id: string, lost: () => void): void {
    this.held.set(id, lost);
  }

  /** Stops renewing (the call ended here). */
  drop(id: string): void {
    this.held.delete(id);
  }

  /** Sweeps once now, then renews and sweeps on timers until `stop()`. */
  async start(): Promise<void> {
    await this.sweep();
    const { ttlMs } = this.options;
    this.renewTimer = setInterval(() => this.serially(() => this.renew()), ttlMs / 3);
    this.sweepTimer = setInterval(() => this.serially(() => this.sweep()), ttlMs / 2);
    this.renewTimer.unref();
    this.sweepTimer.unref();
  }

  /** Stops the timers and waits for a renewal or sweep under way. */
  async stop(): Promise<void> {
    if (this.renewTimer !== null) clearInterval(this.renewTimer);
    if (this.sweepTimer !== null) clearInterval(this.sweepTimer);
    this.renewTimer = this.sweepTimer = null;
    await this.work;
  }

  /** Ends every call nobody serves any more; answers how many. */
  async sweep(): Promise<number> {
    const now = this.options.now();
    const ended = await this.calls.endAbandoned(
      now,
      new Date(now.getTime() - this.options.joinTtlMs - QUEUED_MARGIN_MS),
    );
    for (const call of ended) {
      this.options.log.warn({ callId: call.id, endedReason: call.reason }, 'abandoned call ended');
      this.options.onEnded?.(call.reason);
    }
    return ended.length;
  }

  private async renew(): Promise<void> {
    const ids = [...this.held.keys()];
    const lost = await this.calls.renewLeases(ids, this.lease());
    for (const id of lost) {
      const onLost = this.held.get(id);
      this.held.delete(id);
      if (onLost === undefined) continue;
      this.options.log.error({ callId: id }, 'lost the lease of a live call: ending it here');
      onLost();
    }
  }

  /** One database round at a time; a failure is logged and the next tick tries again. */
  private serially(task: () => Promise<unknown>): void {
    this.work = this.work
      .then(task)
      .catch((error: unknown) =>
        this.options.log.error({ err: error }, 'call lease renewal or sweep failed'),
      );
  }
}
