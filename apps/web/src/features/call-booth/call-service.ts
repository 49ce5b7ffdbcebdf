/**
 * The booth's view of a voice call. The booth only talks to this interface; the web-call
 * client (packages/web-call, a later issue) provides the real implementation. Until then the
 * app is wired with `unavailableCallService`, and Start Call says that calling is not
 * available yet.
 */

/** What the booth asks for when the visitor presses Start Call. */
export interface StartCallRequest {
  assistantId: string;
}

/** Events an active call reports to the booth. */
export type CallEvent =
  /** The assistant is ready and listening. */
  | { type: 'call-start' }
  /** The call is over, whoever ended it; `reason` is the platform's endedReason when known. */
  | { type: 'call-end'; reason?: string }
  /** Loudness of the assistant's voice, 0..1. */
  | { type: 'volume-level'; level: number }
  /** Something went wrong during the call. */
  | { type: 'error'; error: Error };

export type CallListener = (event: CallEvent) => void;

/** A started call. */
export interface ActiveCall {
  /** The platform's call id, when the call has one; sent along with the feedback. */
  readonly id: string | null;
  /** Hangs up. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface CallService {
  /**
   * Starts a call. Resolves once the call is connected; rejects with
   * `CallUnavailableError` when this deployment cannot place calls, and with any other
   * error when the microphone or the connection fails.
   */
  start(request: StartCallRequest, listener: CallListener): Promise<ActiveCall>;
}

/** Calling is not possible with this build or server. */
export class CallUnavailableError extends Error {
  constructor(message = 'Voice calls are not available on this server yet.') {
    super(message);
    this.name = 'CallUnavailableError';
  }
}

/** The call service until the web-call client lands: every start says calling is unavailable. */
export const unavailableCallService: CallService = {
  start() {
    return Promise.reject(new CallUnavailableError());
  },
};
