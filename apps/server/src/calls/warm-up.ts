import type { FastifyBaseLogger } from 'fastify';
import type { EngineRegistry } from '@talkbooth/voice';
import type { AssistantRepository } from '../db/repositories/assistants.js';

export interface WarmUpDeps {
  assistants: Pick<AssistantRepository, 'reachableByCode'>;
  engines: Pick<EngineRegistry, 'warm'>;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * Gets the engines of the assistants visitors reach by access code ready (up to `count`,
 * the most recently updated first), one at a time, in the background after the server
 * starts: otherwise the first call of each spends seconds loading its recogniser (and
 * building its language model, after a fresh install) before the greeting. Resolves with
 * how many were warmed; a failure is logged and leaves the rest to warm on their first
 * call, as before. `stopped()` is checked between assistants so a closing server does not
 * start another.
 */
export async function warmAssistants(
  deps: WarmUpDeps,
  count: number,
  stopped: () => boolean,
): Promise<number> {
  if (count <= 0) return 0;
  const started = performance.now();
  let warmed = 0;
  try {
    for (const stored of await deps.assistants.reachableByCode(deps.now(), count)) {
      if (stopped()) break;
      await deps.engines.warm(stored.body);
      warmed += 1;
    }
  } catch (error) {
    deps.log.warn(
      { err: error, warmed },
      'could not get every assistant ready before its first call',
    );
    return warmed;
  }
  deps.log.info(
    { warmed, ms: Math.round(performance.now() - started) },
    'assistants ready for their first calls',
  );
  return warmed;
}
