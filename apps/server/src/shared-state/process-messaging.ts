import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { AssistantDto, CallControl } from '@talkbooth/protocol';
import type { EngineRegistry } from '@talkbooth/voice';
import type { Config } from '../config.js';
import type { AssistantRepository, StoredAssistant } from '../db/repositories/assistants.js';
import type { LiveCalls } from '../calls/live-calls.js';
import { ProcessEvents } from './process-events.js';

export interface ProcessMessagingDeps {
  config: Pick<Config, 'role' | 'redisKeyPrefix'>;
  /** The deployment's Redis, or undefined for a single process. */
  redis: Redis | undefined;
  assistants: AssistantRepository;
  engines: EngineRegistry;
  live: LiveCalls;
  log: FastifyBaseLogger;
}

export interface ProcessMessaging {
  /** For the platform API: each saved assistant (undefined where nothing needs to know). */
  prepareAssistant: ((stored: StoredAssistant) => void) | undefined;
  /** For the platform API: a live-call control, to wherever the call runs. */
  controlCall: (callId: string, control: CallControl) => Promise<'sent' | 'not-running'>;
  close(): Promise<void>;
}

/**
 * What a process tells the others, and does when told. A single process acts at once:
 * it prepares a saved assistant's language model and hands a control to its own call.
 * With Redis, both go through {@link ProcessEvents}, and every process that runs calls
 * listens for them (an API process only publishes).
 */
export async function processMessaging(deps: ProcessMessagingDeps): Promise<ProcessMessaging> {
  const { config, redis, assistants, engines, live, log } = deps;
  const prepareLocally = (assistant: AssistantDto) => {
    engines.prepare(assistant).catch((error: unknown) => {
      log.warn({ err: error }, 'could not prepare the language model of a saved assistant');
    });
  };
  if (redis === undefined) {
    return {
      prepareAssistant: config.role === 'all' ? (stored) => prepareLocally(stored.body) : undefined,
      controlCall: (callId, control) =>
        Promise.resolve(live.control(callId, control) ? 'sent' : 'not-running'),
      close: () => Promise.resolve(),
    };
  }
  const events = new ProcessEvents(redis, `${config.redisKeyPrefix}events`, log);
  if (config.role !== 'api') {
    await events.listen((event) => {
      if (event.type === 'call-control') {
        live.control(event.callId, event.control);
        return;
      }
      assistants.get(event.orgId, event.assistantId).then(
        (stored) => stored !== undefined && prepareLocally(stored.body),
        (error: unknown) => log.warn({ err: error }, 'could not read a saved assistant'),
      );
    });
  }
  return {
    prepareAssistant: (stored) => {
      events
        .publish({ type: 'assistant-saved', orgId: stored.orgId, assistantId: stored.id })
        .catch((error: unknown) => {
          log.warn({ err: error }, 'could not tell the voice workers of a saved assistant');
        });
    },
    controlCall: async (callId, control) => {
      await events.publish({ type: 'call-control', callId, control });
      return 'sent';
    },
    close: () => events.close(),
  };
}
