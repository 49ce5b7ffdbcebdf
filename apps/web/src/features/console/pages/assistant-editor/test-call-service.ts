/**
 * The console's test call: the booth's call service (`createWebCallService`, so the same call
 * handling, call control and transcript as the booth) over the same web-call client, with
 * two differences:
 *
 * 1. It acts with the console session, not a public key. The web-call client makes exactly
 *    one HTTP request, `POST {base}/call/web`, through the `fetch` it is given; ours ignores
 *    the client's (placeholder) bearer token and creates the call with
 *    `sessionPlatformClient().call.createWeb(...)`, which sends the session cookie and the
 *    CSRF token, then hands the answer back as a Response. The client then joins the call's
 *    `webCallUrl` with its own transport as usual. Nothing in the booth or the client changes.
 * 2. The assistant is heard as saved: the booth's fixed overrides (its own greeting, a hosted
 *    transcriber) are not sent; only `{{name}}` gets the booth's sample value. The call is
 *    marked as a console test call in its metadata.
 *
 * The call's events, and every message the server sends, are also reported to the panel's
 * event log.
 */
import { PlatformError } from '@talkbooth/platform-client';
import type { CreateWebCall, ServerMessage } from '@talkbooth/protocol';
import type { AssistantDto, WebCallClient } from '@talkbooth/web-call';
import { DEFAULT_CLIENT_CONFIG } from '../../../../app/client-config';
import { errorMessage } from '../../../../lib/api-client';
import { CallRefusedError } from '../../../call-booth/call-service';
import type { CallEvent, CallService } from '../../../call-booth/call-service';
import { BOOTH_CALL_CONFIG, createWebCallService } from '../../../call-booth/web-call-service';
import { sessionPlatformClient } from '../../console-api';

/** One line of the event log. */
export interface CallLogEntry {
  id: number;
  /** When it happened (ms since the epoch). */
  at: number;
  /** The client's event name (`call-start`, `message: status-update`, `error`…). */
  event: string;
  detail?: string;
  problem?: boolean;
}

export type CallLogger = (entry: Omit<CallLogEntry, 'id' | 'at'>) => void;

/** Stands in for the public key the web-call client wants; never sent (see the module comment). */
const SESSION_TOKEN = 'console-session';

/** What a test call changes of the stored assistant: nothing but `{{name}}`. */
export const TEST_CALL_OVERRIDES = { variableValues: { ...BOOTH_CALL_CONFIG.variableValues } };
export const TEST_CALL_METADATA = { source: 'console-test-call' };

export const MICROPHONE_REFUSED =
  'The browser did not allow the microphone, so the assistant cannot hear you. Allow the microphone for this site (the icon beside the address bar), then press Start test call again.';

const json = (body: unknown, status: number) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body ?? null), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/**
 * The web-call client's `fetch`: `POST /call/web` through the session platform client. An
 * error answer goes back as the same status and body, so the client reports it as usual.
 */
export async function sessionCallFetch(_url: string, init: RequestInit): Promise<Response> {
  const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as CreateWebCall;
  try {
    const call = await sessionPlatformClient().call.createWeb(body, {
      signal: init.signal ?? undefined,
    });
    return json(call, 201);
  } catch (error) {
    if (error instanceof PlatformError) return json(error.body, error.status);
    throw error;
  }
}

function messageDetail(message: ServerMessage): string | undefined {
  switch (message.type) {
    case 'audio-format':
      return `${message.sampleRate} Hz`;
    case 'transcript':
      return `${message.role}, ${message.transcriptType}: ${message.transcript}`;
    case 'speech-update':
      return `${message.role} ${message.status}`;
    case 'conversation-update':
      return `${message.conversation.length} messages`;
    case 'model-output':
      return message.output;
    case 'status-update':
      return message.endedReason === undefined
        ? message.status
        : `${message.status}: ${message.endedReason}`;
    case 'error':
      return message.error;
    default:
      return undefined;
  }
}

/**
 * Reports the client's messages to the log. Its other events (call-start, speech-start/end,
 * call-end, error) reach the log through the call service (see {@link withCallLog}); so do
 * final transcript lines. Partial ones change several times a second: the live transcript
 * shows them.
 */
function tapMessages(client: WebCallClient, log: CallLogger): void {
  client.on('message', (message) => {
    if (typeof message !== 'object' || message === null || message.type === 'transcript') return;
    log({
      event: `message: ${message.type}`,
      detail: messageDetail(message),
      problem: message.type === 'error',
    });
  });
}

/** The real test-call service; `log` hears the web-call client's messages. */
export function createTestCallService(log: CallLogger): CallService {
  const config = {
    ...DEFAULT_CLIENT_CONFIG,
    platformBaseUrl: '/platform',
    platformPublicKey: SESSION_TOKEN,
  };
  return createWebCallService(config, {
    async createClient(token, baseUrl) {
      const { WebCallClient } = await import('@talkbooth/web-call');
      /** The client, calling the assistant as saved (the booth's overrides are not sent). */
      class TestCallClient extends WebCallClient {
        override start(assistantOrId: string | AssistantDto) {
          return super.start(assistantOrId, TEST_CALL_OVERRIDES, { metadata: TEST_CALL_METADATA });
        }
      }
      const client = new TestCallClient(token, baseUrl, { fetch: sessionCallFetch });
      tapMessages(client, log);
      return client;
    },
  });
}

/** A call service event as a line of the log (null for none). */
export function callEventEntry(event: CallEvent): Omit<CallLogEntry, 'id' | 'at'> | null {
  switch (event.type) {
    case 'volume-level':
      return null;
    case 'transcript':
      return event.transcriptType === 'final'
        ? { event: 'transcript', detail: `${event.role}: ${event.text}` }
        : null;
    case 'call-end':
      return { event: 'call-end', detail: event.reason };
    case 'error':
      return { event: 'error', detail: event.error.message, problem: true };
    case 'connection-lost':
      return { event: 'connection-lost', problem: true };
    default:
      return { event: event.type };
  }
}

const isNamed = (error: unknown, name: string) => error instanceof Error && error.name === name;

/** Why a test call could not start, in words for the operator (the booth's are for visitors). */
export function startFailure(error: unknown): Error {
  if (isNamed(error, 'CallRefusedError') || isNamed(error, 'CallUnavailableError')) {
    return error as Error;
  }
  const kind = (error as { kind?: unknown } | null)?.kind;
  if (kind === 'microphone-denied' || isNamed(error, 'NotAllowedError')) {
    return new CallRefusedError(MICROPHONE_REFUSED);
  }
  return new CallRefusedError(errorMessage(error));
}

/**
 * `service` with the call's events (the web-call client's, as the call service passes them
 * on) and a failed start reported to `log`; a failed start is explained for the operator.
 */
export function withCallLog(service: CallService, log: CallLogger): CallService {
  return {
    async start(request, listener) {
      log({ event: 'start', detail: 'placing a web call' });
      try {
        return await service.start(request, (event) => {
          const entry = callEventEntry(event);
          if (entry !== null) log(entry);
          listener(event);
        });
      } catch (error) {
        log({ event: 'start-failed', detail: errorMessage(error), problem: true });
        throw startFailure(error);
      }
    },
  };
}
