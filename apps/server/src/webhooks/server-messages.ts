import type { AssistantDto, Call } from '@talkbooth/protocol';
import { CALL_SECRET_PATHS } from '../db/repositories/calls.js';
import { splitSecrets } from '../security/secret-fields.js';

/**
 * The hosted platform's "server messages": JSON bodies POSTed to an assistant's
 * `serverUrl`, always wrapped as `{ "message": { "type": …, "call": …, "timestamp": … } }`,
 * with `serverUrlSecret` in the `x-vapi-secret` header. This file only builds them.
 */

/**
 * What the hosted platform sends when `serverMessages` is absent (its API reference:
 * "Default is conversation-update, end-of-call-report, function-call, hang,
 * speech-update, status-update, tool-calls, transfer-destination-request,
 * user-interrupted"). Of these this server produces status-update and end-of-call-report;
 * `transcript` has to be asked for.
 */
export const DEFAULT_SERVER_MESSAGES: readonly string[] = [
  'conversation-update',
  'end-of-call-report',
  'function-call',
  'hang',
  'speech-update',
  'status-update',
  'tool-calls',
  'transfer-destination-request',
  'user-interrupted',
];

/** The server message types this server sends. */
export type ServerMessageType = 'status-update' | 'end-of-call-report' | 'transcript';

/** Where a call's server messages go, and which ones. */
export interface ServerMessageTarget {
  url: string;
  /** Sent as `x-vapi-secret`; undefined for none. */
  secret: string | undefined;
  wanted: ReadonlySet<string>;
}

/** The target of an assistant (after the call's overrides), or null when it has no serverUrl. */
export function serverMessageTarget(assistant: AssistantDto): ServerMessageTarget | null {
  const url = assistant.serverUrl;
  if (url === undefined || url === '') return null;
  const secret = assistant.serverUrlSecret;
  return {
    url,
    secret: secret === undefined || secret === '' ? undefined : secret,
    wanted: new Set(assistant.serverMessages ?? DEFAULT_SERVER_MESSAGES),
  };
}

/** Whether the target asked for `type` (`transcript[transcriptType="final"]` counts for transcripts: only final ones are sent). */
export function wants(target: ServerMessageTarget, type: ServerMessageType): boolean {
  if (target.wanted.has(type)) return true;
  return type === 'transcript' && target.wanted.has('transcript[transcriptType="final"]');
}

/** A body ready to queue. */
export interface ServerMessageBody {
  type: ServerMessageType;
  body: { message: Record<string, unknown> & { type: ServerMessageType } };
}

/**
 * The call as a server message carries it: without its write-only fields (an inline
 * assistant's serverUrlSecret is left out, not even masked). `light` also leaves out what
 * grows with the conversation (messages, transcript, turn latencies), for the messages
 * sent during a call: a long call would otherwise queue its whole record with every line.
 */
export function callInMessage(call: Call, light = false): Record<string, unknown> {
  const { open } = splitSecrets(call, CALL_SECRET_PATHS);
  if (!light) return open;
  const { messages: _m, transcript: _t, latency: _l, ...rest } = open;
  return rest;
}

export function statusUpdate(call: Call, timestamp: string): ServerMessageBody {
  const ended = call.status === 'ended';
  return {
    type: 'status-update',
    body: {
      message: {
        type: 'status-update',
        status: call.status,
        ...(ended && call.endedReason !== undefined ? { endedReason: call.endedReason } : {}),
        call: callInMessage(call, !ended),
        timestamp,
      },
    },
  };
}

/** One line of the call record's `messages`. */
export interface TranscriptLine {
  role: string;
  message?: string | undefined;
}

/** A final transcript line; null for lines that are not speech (system lines). */
export function transcriptMessage(
  call: Call,
  line: TranscriptLine,
  timestamp: string,
): ServerMessageBody | null {
  const role = line.role === 'bot' ? 'assistant' : line.role === 'user' ? 'user' : null;
  if (role === null || line.message === undefined) return null;
  return {
    type: 'transcript',
    body: {
      message: {
        type: 'transcript',
        role,
        transcriptType: 'final',
        transcript: line.message,
        call: callInMessage(call, true),
        timestamp,
      },
    },
  };
}

/**
 * The report after a call: why it ended, its transcript, summary, messages and recording
 * link, and the analysis (the summary and the brief the assistant took, as
 * `structuredData`). The 2024 platform put the artifacts at the top level; `artifact`
 * repeats them as later versions of it do.
 */
export function endOfCallReport(call: Call, timestamp: string): ServerMessageBody {
  const record = call as Call & { analysis?: { summary?: unknown; structuredData?: unknown } };
  const summary = call.summary ?? '';
  const transcript = call.transcript ?? '';
  const messages = call.messages ?? [];
  const recording = call.recordingUrl === undefined ? {} : { recordingUrl: call.recordingUrl };
  return {
    type: 'end-of-call-report',
    body: {
      message: {
        type: 'end-of-call-report',
        endedReason: call.endedReason ?? 'unknown-error',
        call: callInMessage(call),
        transcript,
        summary,
        messages,
        ...recording,
        artifact: { transcript, messages, ...recording },
        analysis: {
          summary: typeof record.analysis?.summary === 'string' ? record.analysis.summary : summary,
          structuredData: record.analysis?.structuredData ?? {},
        },
        ...(call.cost === undefined ? {} : { cost: call.cost }),
        ...(call.startedAt === undefined ? {} : { startedAt: call.startedAt }),
        ...(call.endedAt === undefined ? {} : { endedAt: call.endedAt }),
        timestamp,
      },
    },
  };
}
