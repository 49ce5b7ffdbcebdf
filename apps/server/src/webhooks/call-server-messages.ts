import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AssistantDto } from '@talkbooth/protocol';
import { effectiveAssistant } from '@talkbooth/voice';
import { AssistantRepository } from '../db/repositories/assistants.js';
import type { CallChange, CallChangeListener } from '../db/repositories/calls.js';
import type { Database } from '../db/schema.js';
import type { SecretBox } from '../security/secret-box.js';
import {
  endOfCallReport,
  serverMessageTarget,
  statusUpdate,
  transcriptMessage,
  wants,
  type ServerMessageBody,
  type TranscriptLine,
} from './server-messages.js';
import { enqueueDeliveries } from './webhook-outbox.js';

export interface CallServerMessagesDeps {
  box: SecretBox;
  log: FastifyBaseLogger;
  now: () => Date;
  /** Told after a transaction that queued messages has committed (wakes the sender). */
  queued: () => void;
}

/**
 * Turns call changes into server messages, queued in the transaction that writes the
 * change (the call repository calls it for every write: the call socket starting a call,
 * the record writer's conversation and ending, the sweep ending a lost call). So each
 * status change and each new transcript line is queued exactly once, with the change or
 * not at all. Messages go to the serverUrl of the call's assistant after its overrides
 * (stored, or inline with the call), filtered by its `serverMessages`.
 */
export function callServerMessages(deps: CallServerMessagesDeps): CallChangeListener {
  return {
    async changed(trx, change) {
      try {
        return await queueFor(trx, change, deps);
      } catch (error) {
        // A message that cannot be built must not cost the call its record.
        deps.log.error(
          { err: error, callId: change.call.id },
          'could not queue the server messages of a call change',
        );
        return false;
      }
    },
    committed: () => deps.queued(),
  };
}

async function queueFor(
  trx: Kysely<Database>,
  change: CallChange,
  deps: CallServerMessagesDeps,
): Promise<boolean> {
  const { call, previousStatus, previousMessageCount } = change;
  const started = call.status === 'in-progress' && previousStatus !== 'in-progress';
  const ended = call.status === 'ended' && previousStatus !== 'ended';
  // Lines written after the call ended (by a session that lost its lease) are not live speech.
  const lines =
    previousStatus === 'ended'
      ? []
      : ((call.messages ?? []).slice(previousMessageCount) as TranscriptLine[]);
  if (!started && !ended && lines.length === 0) return false;

  const assistant = await assistantOf(trx, change, deps.box);
  const target = assistant === undefined ? null : serverMessageTarget(assistant);
  if (target === null) return false;
  const timestamp = deps.now().toISOString();
  const messages: ServerMessageBody[] = [];
  if (started && wants(target, 'status-update')) messages.push(statusUpdate(call, timestamp));
  if (wants(target, 'transcript')) {
    for (const line of lines) {
      const message = transcriptMessage(call, line, timestamp);
      if (message !== null) messages.push(message);
    }
  }
  if (ended && wants(target, 'status-update')) messages.push(statusUpdate(call, timestamp));
  if (ended && wants(target, 'end-of-call-report')) messages.push(endOfCallReport(call, timestamp));
  if (messages.length === 0) return false;
  await enqueueDeliveries(
    trx,
    deps.box,
    messages.map((message) => ({
      orgId: call.orgId,
      callId: call.id,
      url: target.url,
      secret: target.secret,
      message,
    })),
    deps.now(),
  );
  return true;
}

/** The assistant the call runs: stored (read in the same transaction) or inline, with the call's overrides. */
async function assistantOf(
  trx: Kysely<Database>,
  { call }: CallChange,
  box: SecretBox,
): Promise<AssistantDto | undefined> {
  let base: AssistantDto | undefined = call.assistant;
  if (base === undefined && call.assistantId !== undefined)
    base = (await new AssistantRepository(trx, box).get(call.orgId, call.assistantId))?.body;
  if (base === undefined) return undefined;
  return effectiveAssistant(base, call.assistantOverrides).assistant;
}
