/**
 * Paces the assistant's audio to the caller in real time, a little ahead of playback.
 * Sending at playback speed (not as fast as synthesis runs) keeps the client's queue short,
 * so a barge-in `clear` drops little, and tells us how much of an utterance was actually
 * heard: the samples sent minus the lead that is still queued at the client.
 */
export interface AudioOutputOptions {
  sampleRate: number;
  /** How far ahead of playback to send (jitter buffer at the client). */
  leadMs?: number;
  /** How often to send. */
  tickMs?: number;
  send: (chunk: Int16Array) => void;
  /** Milliseconds clock; `performance.now` by default. */
  now?: () => number;
}

interface Queued {
  samples: Int16Array;
  offset: number;
}

export class AudioOutput {
  readonly sampleRate: number;
  private readonly leadSamples: number;
  private readonly tickMs: number;
  private readonly send: (chunk: Int16Array) => void;
  private readonly now: () => number;
  private readonly queue: Queued[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  /** When the first sample of the current stretch of speech was sent. */
  private startedAt: number | null = null;
  /** Samples handed out in the current stretch (sent, or dropped while muted). */
  private sentSamples = 0;
  private enqueuedSamples = 0;
  private idleWaiters: (() => void)[] = [];
  /** While muted, audio is consumed at playback speed but not sent. */
  muted = false;

  constructor(options: AudioOutputOptions) {
    this.sampleRate = options.sampleRate;
    this.leadSamples = Math.round(((options.leadMs ?? 200) * options.sampleRate) / 1000);
    this.tickMs = options.tickMs ?? 20;
    this.send = options.send;
    this.now = options.now ?? (() => performance.now());
  }

  /** Adds audio to the end of the current stretch; starts sending if idle. */
  enqueue(samples: Int16Array): void {
    if (samples.length === 0) return;
    this.queue.push({ samples, offset: 0 });
    this.enqueuedSamples += samples.length;
    this.timer ??= setInterval(() => this.tick(), this.tickMs);
    this.tick();
  }

  /** Samples of the current stretch the caller has heard by now. */
  playedSamples(): number {
    if (this.startedAt === null) return 0;
    const elapsed = Math.floor(((this.now() - this.startedAt) * this.sampleRate) / 1000);
    return Math.min(this.sentSamples, Math.max(0, elapsed));
  }

  /** Samples of the current stretch queued so far (sent or not). */
  totalSamples(): number {
    return this.enqueuedSamples;
  }

  /** True while audio is queued here or still playing at the client. */
  isActive(): boolean {
    return (
      this.queue.length > 0 || (this.startedAt !== null && this.playedSamples() < this.sentSamples)
    );
  }

  /** Resolves once everything enqueued so far has played (immediately when idle). */
  drained(): Promise<void> {
    if (!this.isActive()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Drops everything not yet played (barge-in) and ends the stretch. Answers how many
   * samples of it were heard. The caller must tell the client to drop its queue too.
   */
  clear(): number {
    const played = this.playedSamples();
    this.queue.length = 0;
    this.finishStretch();
    return played;
  }

  dispose(): void {
    this.queue.length = 0;
    this.finishStretch();
  }

  private tick(): void {
    const target = this.playedSamples() + this.leadSamples;
    while (this.queue.length > 0 && this.sentSamples < target) {
      const head = this.queue[0]!;
      const take = Math.min(head.samples.length - head.offset, target - this.sentSamples);
      const piece = head.samples.subarray(head.offset, head.offset + take);
      if (this.startedAt === null) this.startedAt = this.now();
      if (!this.muted) this.send(piece);
      this.sentSamples += take;
      head.offset += take;
      if (head.offset >= head.samples.length) this.queue.shift();
    }
    if (
      this.queue.length === 0 &&
      this.startedAt !== null &&
      this.playedSamples() >= this.sentSamples
    ) {
      this.finishStretch();
    }
  }

  private finishStretch(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.startedAt = null;
    this.sentSamples = 0;
    this.enqueuedSamples = 0;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
