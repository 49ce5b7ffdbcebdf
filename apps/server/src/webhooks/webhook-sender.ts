import type { FastifyBaseLogger } from 'fastify';
import type { OutboundFetch } from '../security/outbound.js';
import type { AttemptResult, ClaimedDelivery, WebhookOutbox } from './webhook-outbox.js';

/** When each retry follows the try before: 5 tries over about 30 minutes. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  30_000,
  2 * 60_000,
  8 * 60_000,
  20 * 60_000,
];
/** How often the sender looks for due rows queued by another process, or left by a restart. */
export const DEFAULT_POLL_INTERVAL_MS = 5_000;
/** How long one try may take before it counts as failed. */
export const DEFAULT_TRY_TIMEOUT_MS = 10_000;

/** Timings of the sender; tests shorten them. */
export interface WebhookSenderTimings {
  /** The wait before each retry; tries = retries + 1. */
  retryDelaysMs?: readonly number[];
  pollIntervalMs?: number;
  tryTimeoutMs?: number;
  /** At close, how long tries under way may finish before they are cut off (and retried later). */
  stopGraceMs?: number;
}

export interface WebhookSenderDeps {
  outbox: WebhookOutbox;
  /** Requests go through the outbound hardening (no private addresses unless allowed). */
  fetch: OutboundFetch;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** Rows claimed per round. */
const BATCH = 20;

/**
 * Posts queued server messages. One round at a time: claim due rows, send them (the
 * messages of one call in order, calls side by side), record each try, then sleep until
 * the next retry is due or the poll interval passes, whichever is first. `wake()` starts a
 * round at once (a row was queued in this process). Logs name the delivery and the
 * listener's origin, never the secret, the payload or the URL's path and query.
 */
export class WebhookSender {
  private readonly retryDelaysMs: readonly number[];
  private readonly pollIntervalMs: number;
  private readonly tryTimeoutMs: number;
  private readonly stopGraceMs: number;
  private running = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private round: Promise<void> | null = null;
  private again = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: WebhookSenderDeps,
    timings: WebhookSenderTimings = {},
  ) {
    this.retryDelaysMs = timings.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.pollIntervalMs = timings.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.tryTimeoutMs = timings.tryTimeoutMs ?? DEFAULT_TRY_TIMEOUT_MS;
    this.stopGraceMs = timings.stopGraceMs ?? 2_000;
  }

  /** Claims are held this long: well past a try, so a crashed sender's rows are taken over soon. */
  private get claimMs(): number {
    return this.tryTimeoutMs * 3 + 5_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** A row was queued: send it now rather than at the next poll. */
  wake(): void {
    if (!this.running) return;
    // A round under way goes again once done; a round waiting on its timer starts now.
    this.again = true;
    if (this.round === null || this.timer !== null) this.schedule(0);
  }

  /**
   * Stops: no new round; tries under way get `stopGraceMs` to finish, then are cut off
   * and their rows given back untried (a restart or another process sends them).
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const round = this.round;
    if (round === null) return;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<void>((resolve) => {
      grace = setTimeout(resolve, this.stopGraceMs);
    });
    await Promise.race([round, graceOver]);
    clearTimeout(grace);
    this.stopping.abort();
    await round;
  }

  private schedule(ms: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const round: Promise<void> = (this.round ?? Promise.resolve())
        .then(() => this.runRounds())
        .finally(() => {
          if (this.round === round) this.round = null;
        });
      this.round = round;
    }, ms);
    this.timer.unref();
  }

  private async runRounds(): Promise<void> {
    let wait = this.pollIntervalMs;
    try {
      let full: boolean;
      do {
        this.again = false;
        full = (await this.sendDue()) === BATCH;
      } while (this.running && (this.again || full));
      if (!this.running) return;
      const due = await this.deps.outbox.nextDueAt();
      if (due !== null)
        wait = Math.min(wait, Math.max(0, due.getTime() - this.deps.now().getTime()));
    } catch (error) {
      // The database may be away: try again at the next poll, not in a tight loop.
      this.deps.log.error({ err: error }, 'webhook sender round failed');
      this.again = false;
    }
    if (this.running) this.schedule(this.again ? 0 : wait);
  }

  /** One batch: answers how many rows it claimed. */
  private async sendDue(): Promise<number> {
    const now = this.deps.now();
    const claimed = await this.deps.outbox.claimDue(
      now,
      new Date(now.getTime() + this.claimMs),
      BATCH,
    );
    const byCall = new Map<string, ClaimedDelivery[]>();
    for (const delivery of claimed) {
      const key = delivery.callId ?? delivery.id;
      byCall.set(key, [...(byCall.get(key) ?? []), delivery]);
    }
    await Promise.all(
      [...byCall.values()].map(async (deliveries) => {
        for (const delivery of deliveries) await this.sendOne(delivery);
      }),
    );
    return claimed.length;
  }

  private async sendOne(delivery: ClaimedDelivery): Promise<void> {
    const { log, outbox } = this.deps;
    if (this.stopping.signal.aborted) return outbox.release(delivery.id, this.deps.now());
    const result = await this.post(delivery);
    if (result === 'stopped') return outbox.release(delivery.id, this.deps.now());
    const at = this.deps.now();
    const attempt = delivery.attempts + 1;
    const delay = this.retryDelaysMs[attempt - 1] ?? 0;
    const status = await outbox.recordAttempt(delivery, result, at, {
      maxAttempts: this.retryDelaysMs.length + 1,
      retryAt: new Date(at.getTime() + delay),
    });
    const context = {
      deliveryId: delivery.id,
      callId: delivery.callId,
      messageType: delivery.messageType,
      listener: originOf(delivery.url),
      attempt,
      statusCode: result.statusCode,
      durationMs: Math.round(result.durationMs),
    };
    if (status === 'delivered') log.info(context, 'server message delivered');
    else if (status === 'failed')
      log.warn({ ...context, error: result.error }, 'server message failed: no more tries');
    else
      log.warn(
        { ...context, error: result.error, retryInMs: delay },
        'server message not delivered: will retry',
      );
  }

  /** One POST, limited in time; a redirect is not followed (it would carry the secret elsewhere). */
  private async post(delivery: ClaimedDelivery): Promise<AttemptResult | 'stopped'> {
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.tryTimeoutMs);
    const signal = AbortSignal.any([timeout, this.stopping.signal]);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (delivery.secret !== undefined) headers['x-vapi-secret'] = delivery.secret;
    try {
      const response = await this.deps.fetch(delivery.url, {
        method: 'POST',
        headers,
        body: delivery.payload,
        redirect: 'manual',
        signal,
      });
      // The answer's body is not needed; drop it so the connection is free again.
      await response.body?.cancel().catch(() => undefined);
      const durationMs = performance.now() - started;
      const ok = response.status >= 200 && response.status < 300;
      return {
        statusCode: response.status,
        error: ok
          ? null
          : `The listener answered ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}.`,
        durationMs,
      };
    } catch (error) {
      const durationMs = performance.now() - started;
      if (this.stopping.signal.aborted && !timeout.aborted) return 'stopped';
      return {
        statusCode: null,
        error: timeout.aborted
          ? `No answer within ${this.tryTimeoutMs / 1000} s.`
          : `The request failed: ${describeError(error)}.`,
        durationMs,
      };
    }
  }
}

/** The scheme, host and port of a URL: safe to log (no user info, path or query). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unparseable URL';
  }
}

/** fetch reports every connection failure as "fetch failed"; the cause says what happened. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code !== undefined && !cause.message.includes(code)
      ? `${cause.message} (${code})`
      : cause.message;
  }
  return error.message;
}
