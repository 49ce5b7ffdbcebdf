/**
 * The real call service: the booth's `CallService` over the web-call client
 * (`@talkbooth/web-call`, the hosted platform's web SDK surface). This is the only file that
 * imports the client, and it does so lazily, so the client and its audio worklets load with the
 * first call instead of with the app.
 */
import type { ClientConfig, ServerMessage } from '@talkbooth/protocol';
import { logger } from '../../lib/logger';
import { CallRefusedError, unavailableCallService } from './call-service';
import type {
  ActiveCall,
  CallEvent,
  CallListener,
  CallService,
  StartCallRequest,
} from './call-service';

/**
 * The product's fixed call configuration, sent as `assistantOverrides` with every call from the
 * booth. `variableValues.name` is a sample value (the booth does not ask for the visitor's
 * name); it fills `{{name}}` in `firstMessage`.
 */
export const BOOTH_CALL_CONFIG = {
  transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US' },
  recordingEnabled: false,
  variableValues: { name: 'Alex' },
  firstMessage: 'Hello {{name}}, how can I help you today?',
} as const;

export type BoothCallConfig = typeof BOOTH_CALL_CONFIG;

/** How long the assistant may take to get ready once the call is placed. */
export const CONNECT_TIMEOUT_MS = 45_000;

/** The part of `WebCallClient` the booth uses; the real client must fit it. */
export interface WebCallClientLike {
  /** Resolves the created call, or null when starting failed (an `error` event came first). */
  start(assistantId: string, assistantOverrides: BoothCallConfig): Promise<{ id: string } | null>;
  stop(): void | Promise<void>;
  setMuted(muted: boolean): void;
  isMuted(): boolean;
  on(event: 'call-start' | 'speech-start' | 'speech-end', listener: () => void): unknown;
  on(event: 'call-end', listener: (info?: { endedReason?: string }) => void): unknown;
  on(event: 'volume-level', listener: (volume: number) => void): unknown;
  on(event: 'message', listener: (message: ServerMessage) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** Makes a client for one call: `new WebCallClient(publicKey, baseUrl)`. */
export type WebCallClientFactory = (
  publicKey: string,
  baseUrl: string,
) => Promise<WebCallClientLike>;

export interface WebCallServiceOptions {
  /** Replaces the real client (tests). */
  createClient?: WebCallClientFactory;
  /** Replaces `CONNECT_TIMEOUT_MS` (tests). */
  connectTimeoutMs?: number;
}

/** The client's class for "the socket dropped", known once the package has loaded. */
let connectionLostErrorClass: (abstract new (...args: never[]) => Error) | null = null;

const loadWebCallClient: WebCallClientFactory = async (publicKey, baseUrl) => {
  const { WebCallClient, ConnectionLostError } = await import('@talkbooth/web-call');
  connectionLostErrorClass = ConnectionLostError;
  return new WebCallClient(publicKey, baseUrl);
};

/** The socket dropped without the server ending the call (a `ConnectionLostError`). */
export function isConnectionLost(error: unknown): boolean {
  if (connectionLostErrorClass != null && error instanceof connectionLostErrorClass) return true;
  if (!(error instanceof Error)) return false;
  // By name or kind too: the check must not depend on which copy of the class was loaded.
  return (
    error.name === 'ConnectionLostError' ||
    (error as Error & { kind?: unknown }).kind === 'connection-lost'
  );
}

function asError(error: unknown): Error {
  // DOMException (getUserMedia's NotAllowedError) is not an Error subclass everywhere.
  if (error instanceof Error || error instanceof DOMException) return error;
  if (typeof error === 'string') return new Error(error);
  if (typeof error === 'object' && error != null) {
    const { message, error: inner } = error as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return new Error(message);
    if (inner !== undefined && inner !== error) return asError(inner);
  }
  return new Error('The call failed for an unknown reason.');
}

/** HTTP statuses of a refused `POST /call/web` whose message speaks to the visitor. */
const REFUSAL_STATUSES = new Set([429, 503]);

/**
 * Why a call could not start, for the booth: the server's own message when it refused the
 * call for a reason the visitor can act on (lines busy, too many calls from their network,
 * a restart), else the error as it came.
 */
function startFailure(raw: unknown): Error {
  const { kind, status, body } = (raw ?? {}) as {
    kind?: unknown;
    status?: unknown;
    body?: unknown;
  };
  if (kind === 'http' && typeof status === 'number' && REFUSAL_STATUSES.has(status)) {
    const message = (body as { message?: unknown } | null)?.message;
    if (typeof message === 'string' && message !== '') return new CallRefusedError(message);
  }
  return asError(raw);
}

/** The platform URL as an absolute address (the config may give a path like `/platform`). */
function absoluteUrl(url: string): string {
  try {
    return new URL(url, window.location.href).href.replace(/\/+$/, '');
  } catch {
    return url;
  }
}

/**
 * The call service for this deployment: real calls when the server hands out a platform public
 * key, otherwise `unavailableCallService` (calls are not available).
 */
export function createWebCallService(
  config: ClientConfig,
  options: WebCallServiceOptions = {},
): CallService {
  const publicKey = config.platformPublicKey;
  if (publicKey == null || publicKey.trim() === '') return unavailableCallService;
  const createClient = options.createClient ?? loadWebCallClient;
  const timeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const baseUrl = absoluteUrl(config.platformBaseUrl);
  return {
    async start(request, listener) {
      // One client per call: each call starts with fresh listeners and state.
      const client = await createClient(request.publicKey ?? publicKey, baseUrl);
      return startCall(client, request, listener, timeoutMs);
    },
  };
}

/**
 * Places the call and resolves once the assistant is ready: `start()` gave a call and the
 * client reported `call-start`. Rejects with the client's error (or a plain one) otherwise.
 */
function startCall(
  client: WebCallClientLike,
  request: StartCallRequest,
  listener: CallListener,
  timeoutMs: number,
): Promise<ActiveCall> {
  return new Promise<ActiveCall>((resolve, reject) => {
    /** starting: until the assistant is ready; active: talking; over: ended or failed. */
    let state: 'starting' | 'active' | 'over' = 'starting';
    let created: { id: string } | null = null;
    let ready = false;
    /** The last thing that went wrong while starting: the reason a failed start gives. */
    let startError: Error | null = null;
    let endedReason: string | undefined;
    let timer: ReturnType<typeof setTimeout> | null = null;

    const clearTimer = () => {
      if (timer != null) clearTimeout(timer);
      timer = null;
    };

    /** The client has let go of the call: it reported call-end, or we stopped it. */
    let released = false;

    const hangUp = async (force = false) => {
      if (released && !force) return;
      released = true;
      try {
        await client.stop();
      } catch (error) {
        logger.warn('Stopping the web call reported an error', error);
      }
    };

    const fail = (error: Error) => {
      if (state !== 'starting') return;
      state = 'over';
      clearTimer();
      void hangUp();
      reject(error);
    };

    /** Events of the call reach the booth while it is active, and not after it ended. */
    const emit = (event: CallEvent) => {
      if (state === 'active') listener(event);
    };

    const call: ActiveCall = {
      get id() {
        return created?.id ?? null;
      },
      stop() {
        // Also after the call ended by itself: until the client reported call-end it may
        // still hold the microphone.
        state = 'over';
        clearTimer();
        return hangUp();
      },
      setMuted(muted) {
        if (state === 'active') client.setMuted(muted);
      },
      isMuted() {
        if (state !== 'active') return false;
        try {
          return client.isMuted();
        } catch {
          return false;
        }
      },
    };

    const becomeActiveWhenReady = () => {
      if (state !== 'starting' || !ready || created == null) return;
      state = 'active';
      clearTimer();
      listener({ type: 'call-start' });
      resolve(call);
    };

    /** The call is over, whoever ended it. Reported once. */
    const ended = () => {
      if (state === 'starting') {
        fail(startError ?? new Error('The call ended before the assistant was ready.'));
        return;
      }
      if (state !== 'active') return;
      state = 'over';
      listener(
        endedReason === undefined
          ? { type: 'call-end' }
          : { type: 'call-end', reason: endedReason },
      );
    };

    client.on('call-start', () => {
      ready = true;
      becomeActiveWhenReady();
    });
    client.on('call-end', (info) => {
      released = true;
      endedReason ??= info?.endedReason;
      ended();
    });
    client.on('speech-start', () => emit({ type: 'speech-start' }));
    client.on('speech-end', () => emit({ type: 'speech-end' }));
    client.on('volume-level', (volume) => {
      const level = Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : 0;
      emit({ type: 'volume-level', level });
    });
    client.on('message', (message) => {
      if (typeof message !== 'object' || message == null) return;
      switch (message.type) {
        case 'transcript':
          if (message.role === 'user' || message.role === 'assistant') {
            emit({
              type: 'transcript',
              role: message.role,
              transcriptType: message.transcriptType === 'final' ? 'final' : 'partial',
              text: typeof message.transcript === 'string' ? message.transcript : '',
            });
          }
          break;
        case 'status-update':
          if (message.status === 'ended') {
            endedReason = message.endedReason;
            ended();
          }
          break;
        case 'error':
          // During the call the client also reports it as an `error` event (passed on below);
          // while starting it is the reason a failed start gives.
          if (state === 'starting') startError = new CallRefusedError(message.error);
          break;
        case 'hang':
          logger.debug('The assistant is hanging up');
          break;
        default:
          break;
      }
    });
    client.on('error', (raw) => {
      const error = asError(raw);
      if (state === 'starting') {
        // The server's own message (it refused the socket) says more than the close.
        fail(startError ?? startFailure(raw));
      } else if (state === 'active' && isConnectionLost(raw)) {
        state = 'over';
        listener({ type: 'connection-lost' });
      } else {
        emit({ type: 'error', error });
      }
    });

    client.start(request.assistantId, structuredClone(BOOTH_CALL_CONFIG)).then(
      (result) => {
        if (state !== 'starting') {
          // Failed while starting (an error event came first): make sure nothing stays connected.
          if (result != null) void hangUp(true);
          return;
        }
        if (result == null) {
          fail(startError ?? new Error('The call could not be started.'));
          return;
        }
        created = result;
        if (!ready) {
          timer = setTimeout(
            () => fail(new Error('The assistant did not get ready in time.')),
            timeoutMs,
          );
        }
        becomeActiveWhenReady();
      },
      (error: unknown) => fail(asError(error)),
    );
  });
}
