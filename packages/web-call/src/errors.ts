/** What went wrong, for code that reacts to errors (the message is for people). */
export type WebCallErrorKind =
  /** `POST /call/web` answered with an error status (`status`, `body`). */
  | 'http'
  /** The call server could not be reached, or answered something that is not a call. */
  | 'network'
  /** The visitor (or the browser's policy) refused the microphone (`cause` is the DOMException). */
  | 'microphone-denied'
  /** No usable microphone: none found, in use elsewhere, or no getUserMedia here. */
  | 'microphone-unavailable'
  /** The browser's audio (AudioContext, worklets) could not be set up. */
  | 'audio'
  /** The call socket was refused or closed before the call started (`closeCode`). */
  | 'connection-refused'
  /** The call socket closed during the call without the call having ended. */
  | 'connection-lost'
  /** The server reported an error during the call (its `error` message). */
  | 'server'
  /** The Daily room (hosted platform) reported an error. */
  | 'daily'
  /** Anything else (a bug, an unexpected answer). */
  | 'unknown';

export interface WebCallErrorDetails {
  kind: WebCallErrorKind;
  /** HTTP status of a failed `POST /call/web`. */
  status?: number;
  /** Body of a failed `POST /call/web` (parsed JSON when it was JSON, else the text). */
  body?: unknown;
  /** WebSocket close code, when the socket closed. */
  closeCode?: number;
  cause?: unknown;
}

/** Every error the client emits on `error` is a WebCallError (or a subclass). */
export class WebCallError extends Error {
  readonly kind: WebCallErrorKind;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly closeCode: number | undefined;

  constructor(message: string, details: WebCallErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'WebCallError';
    this.kind = details.kind;
    this.status = details.status;
    this.body = details.body;
    this.closeCode = details.closeCode;
  }
}

/** The connection to the assistant dropped during the call (no ending was announced). */
export class ConnectionLostError extends WebCallError {
  constructor(
    message = 'The connection to the assistant was lost.',
    details: Omit<WebCallErrorDetails, 'kind'> = {},
  ) {
    super(message, { ...details, kind: 'connection-lost' });
    this.name = 'ConnectionLostError';
  }
}

/** Any thrown value as an Error (WebCallErrors pass through). */
export function asWebCallError(error: unknown, fallbackMessage: string): WebCallError {
  if (error instanceof WebCallError) return error;
  const detail = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return new WebCallError(detail ? `${fallbackMessage}: ${detail}` : fallbackMessage, {
    kind: 'unknown',
    cause: error,
  });
}
