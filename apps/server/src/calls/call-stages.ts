import type { FastifyBaseLogger } from 'fastify';
import type { AssistantDto, Call } from '@talkbooth/protocol';
import { effectiveAssistant, type CallStages, type EngineRegistry } from '@talkbooth/voice';
import type { AssistantRepository } from '../db/repositories/assistants.js';
import type { CredentialRepository } from '../db/repositories/credentials.js';
import type { OutboundFetch } from '../security/outbound.js';
import { credentialsForCall } from './call-credentials.js';

export interface CallStagesDeps {
  assistants: AssistantRepository;
  credentials: CredentialRepository;
  engines: EngineRegistry;
  /** Requests to user-given URLs (a custom-llm endpoint) go through this. */
  outboundFetch: OutboundFetch;
}

/** What a call runs: its assistant after the call's overrides, and the engines chosen for it. */
export interface PreparedCall {
  assistant: AssistantDto;
  stages: CallStages;
}

/**
 * Builds the stages of one call from its assistant (stored, or inline with the call),
 * with the call's overrides and the organisation's provider keys it may use. The engines
 * themselves are chosen by the registry. Undefined when the assistant no longer exists.
 */
export async function prepareCall(
  call: Call,
  deps: CallStagesDeps,
  log: FastifyBaseLogger,
): Promise<PreparedCall | undefined> {
  const base = await assistantOf(call, deps.assistants);
  if (base === undefined) return undefined;
  const { assistant, variableValues } = effectiveAssistant(base, call.assistantOverrides);
  const credentials = await credentialsForCall(deps.credentials, call.orgId, {
    modelUrl: assistant.model?.url,
    // Only a stored assistant's URL is the organisation's; an inline one came with the call.
    storedModelUrl: call.assistant === undefined ? base.model?.url : undefined,
  });
  if (credentials.withheld !== undefined) log.warn(credentials.withheld);
  const stages = await deps.engines.stagesFor(assistant, {
    variableValues,
    credentials: (provider) => credentials.keys.get(provider),
    fetch: deps.outboundFetch,
  });
  if (credentials.withheld !== undefined) stages.providers.model.note = credentials.withheld;
  return { assistant, stages };
}

async function assistantOf(
  call: Call,
  assistants: AssistantRepository,
): Promise<AssistantDto | undefined> {
  if (call.assistant !== undefined) return call.assistant;
  if (call.assistantId === undefined) return undefined;
  return (await assistants.get(call.orgId, call.assistantId))?.body;
}
