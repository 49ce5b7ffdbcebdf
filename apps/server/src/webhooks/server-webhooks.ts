import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { CallChangeListener } from '../db/repositories/calls.js';
import type { Database } from '../db/schema.js';
import type { OutboundFetch } from '../security/outbound.js';
import type { SecretBox } from '../security/secret-box.js';
import { callServerMessages } from './call-server-messages.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookSender, type WebhookSenderTimings } from './webhook-sender.js';

export interface ServerWebhooksDeps {
  db: Kysely<Database>;
  box: SecretBox;
  fetch: OutboundFetch;
  log: FastifyBaseLogger;
  now: () => Date;
  timings?: WebhookSenderTimings | undefined;
}

export interface ServerWebhooks {
  /** Give this to the call repository: it queues the messages of each call change. */
  callChanges: CallChangeListener;
  /** Starts sending (rows left by an earlier run too). */
  start(): void;
  /** Stops sending; call before the database closes. */
  stop(): Promise<void>;
}

/** The assistant's serverUrl webhooks for one server process: the queue's writer and its sender. */
export function serverWebhooks(deps: ServerWebhooksDeps): ServerWebhooks {
  const log = deps.log.child({ component: 'webhooks' });
  const sender = new WebhookSender(
    { outbox: new WebhookOutbox(deps.db, deps.box), fetch: deps.fetch, log, now: deps.now },
    deps.timings,
  );
  return {
    callChanges: callServerMessages({
      box: deps.box,
      log,
      now: deps.now,
      queued: () => sender.wake(),
    }),
    start: () => sender.start(),
    stop: () => sender.stop(),
  };
}
