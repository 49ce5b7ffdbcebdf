import type { FastifyBaseLogger } from 'fastify';
import type { VoiceWorker, WorkerRegistry } from './worker-registry.js';

/**
 * The voice-worker side of a split deployment (ROLE=voice): keeps this worker in the
 * registry with a heartbeat while it listens, marks the calls it takes as held and frees
 * them when they end, and leaves the registry when it shuts down (a killed worker simply
 * stops beating, and is forgotten).
 */
export class WorkerPresence {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly registry: WorkerRegistry,
    readonly worker: VoiceWorker,
    private readonly options: { beatMs: number; log: FastifyBaseLogger },
  ) {}

  /** Starts beating (once the worker listens). Resolves after the first beat. */
  async start(): Promise<void> {
    await this.registry.heartbeat(this.worker);
    let failing = false;
    this.timer = setInterval(() => {
      this.registry.heartbeat(this.worker).then(
        () => {
          if (failing) this.options.log.info('voice worker heartbeat works again');
          failing = false;
        },
        (error: unknown) => {
          // Once per outage, not every beat.
          if (!failing) this.options.log.warn({ err: error }, 'voice worker heartbeat failed');
          failing = true;
        },
      );
    }, this.options.beatMs);
    this.timer.unref();
    this.options.log.info({ worker: this.worker }, 'voice worker registered');
  }

  /** A call connected here: it holds its place until `release`. */
  hold(callId: string): Promise<void> {
    return this.registry.hold(this.worker.id, callId);
  }

  /** A call ended here. Never throws: a failure is logged (its place lapses with the worker). */
  release(callId: string): void {
    this.registry.release(this.worker.id, callId).catch((error: unknown) => {
      this.options.log.warn({ err: error, callId }, 'could not free the call place in Redis');
    });
  }

  /** Takes this worker out of dispatch (a clean shutdown). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.registry.leave(this.worker.id).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'could not leave the worker registry');
    });
  }
}
