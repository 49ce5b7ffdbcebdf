import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { callControlSchema } from '@talkbooth/protocol';
import { z } from 'zod';

/** What one server process tells the others through Redis pub/sub. */
const processEventSchema = z.discriminatedUnion('type', [
  /** For the process running the call: a live-call control from the platform API. */
  z.object({ type: z.literal('call-control'), callId: z.string(), control: callControlSchema }),
  /** An assistant was created or changed: processes that run calls prepare for it. */
  z.object({ type: z.literal('assistant-saved'), orgId: z.string(), assistantId: z.string() }),
]);
export type ProcessEvent = z.infer<typeof processEventSchema>;

/**
 * Events between the server processes of one deployment, on one Redis channel. Every
 * process may publish; the processes that run calls listen. An event published while a
 * listener's connection is down is lost to it (pub/sub keeps nothing), which suits what
 * is sent here: a control for a live call is only worth anything now, and a missed
 * assistant-saved only means that assistant's first call builds its model itself.
 */
export class ProcessEvents {
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Sends an event to every listening process; rejects when Redis does not answer. */
  async publish(event: ProcessEvent): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify(event));
  }

  /** Starts listening (on a connection of its own, as Redis requires for subscribers). */
  async listen(handle: (event: ProcessEvent) => void): Promise<void> {
    // Subscribing waits for the connection; ioredis subscribes again after a reconnect.
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined);
    subscriber.on('message', (_channel: string, text: string) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const event = processEventSchema.safeParse(parsed);
      if (!event.success) {
        this.log.warn({ channel: this.channel }, 'ignored a malformed event from another process');
        return;
      }
      handle(event.data);
    });
    await subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }
}
