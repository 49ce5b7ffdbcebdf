/**
 * The booth's view of a voice call. The booth only talks to this interface:
 * `createWebCallService` (web-call-service.ts) implements it over the web-call client, and
 * `unavailableCallService` stands in when the server hands out no platform key, so Start Call
 * says that calling is not available yet. Tests inject fakes.
 */

/** What the booth asks for when the visitor presses Start Call. */
export interface StartCallRequest {
  assistantId: string;
  /** The public key to start it with (the code's organisation's); else the configured one. */
  publicKey?: string;
}

/** Who said a line of the transcript. */
export type TranscriptRole = 'user' | 'assistant';

/** Events a call reports to the booth. */
export type CallEvent =
  /** The assistant is ready and listening. */
  | { type: 'call-start' }
  /**
   * The call is over, whoever ended it (the assistant, the server, or a hang-up); reported once.
   * `reason` is the platform's endedReason when known.
   */
  | { type: 'call-end'; reason?: string }
  /** The assistant started speaking. */
  | { type: 'speech-start' }
  /** The assistant stopped speaking. */
  | { type: 'speech-end' }
  /** Loudness of the assistant's voice, 0..1, about every 100 ms. */
  | { type: 'volume-level'; level: number }
  /**
   * A line of what was said. `partial` lines are still being recognised and may change; the
   * `final` line of the same role replaces them.
   */
  | {
      type: 'transcript';
      role: TranscriptRole;
      transcriptType: 'partial' | 'final';
      text: string;
    }
  /** The connection dropped without the server ending the call; the call is over. */
  | { type: 'connection-lost' }
  /** Something went wrong during the call; the call goes on unless a call-end follows. */
  | { type: 'error'; error: Error };

export type CallListener = (event: CallEvent) => void;

/** A started call. */
export interface ActiveCall {
  /** The platform's call id, when the call has one; sent along with the feedback. */
  readonly id: string | null;
  /** Hangs up. Safe to call more than once. */
  stop(): Promise<void>;
  /** Mutes or unmutes the visitor's microphone. */
  setMuted(muted: boolean): void;
  /** Whether the visitor's microphone is muted. */
  isMuted(): boolean;
}

export interface CallService {
  /**
   * Starts a call. Resolves once the assistant is ready (the microphone was granted and the
   * call has started); rejects with `CallUnavailableError` when this deployment cannot place
   * calls, and with any other error when the microphone or the connection fails.
   */
  start(request: StartCallRequest, listener: CallListener): Promise<ActiveCall>;
}

/**
 * The call server refused the call, or ended it before it began, with a message written for
 * the visitor (all lines busy, too many calls from their network, the server restarting,
 * an expired link).
 */
export class CallRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallRefusedError';
  }
}

/** Calling is not possible with this build or server. */
export class CallUnavailableError extends Error {
  constructor(message = 'Voice calls are not available on this server yet.') {
    super(message);
    this.name = 'CallUnavailableError';
  }
}

/** The call service without a platform key: every start says calling is unavailable. */
export const unavailableCallService: CallService = {
  start() {
    return Promise.reject(new CallUnavailableError());
  },
};
