import type { ServerMessage } from '@talkbooth/protocol';
import type { CallConclusion } from '../reply/types.js';
import type { RecognitionModel } from '../stt/types.js';

/** Why a call ended, in the hosted platform's words. */
export type EndedReason =
  | 'customer-ended-call'
  | 'assistant-ended-call'
  | 'assistant-said-end-call-phrase'
  | 'silence-timed-out'
  | 'exceeded-max-duration'
  | 'assistant-error'
  | 'server-shutdown'
  /** Ended through the platform API's live-call control (`end-call`). */
  | 'manually-canceled'
  | 'unknown-error'
  /** The client broke the wire protocol (a malformed frame or message, one over the size limit). */
  | 'customer-sent-invalid-data'
  /** The client sent audio much faster than real time (see the server's audio pacer). */
  | 'customer-sent-audio-too-fast'
  /** The speech recogniser stopped mid-call (its thread crashed); other calls go on. */
  | 'pipeline-error-transcriber-failed';

/** One line of the call record's `messages`, in the hosted platform's shape. */
export interface RecordMessage {
  role: 'system' | 'user' | 'bot';
  message: string;
  /** Epoch milliseconds when it started and ended. */
  time: number;
  endTime: number;
  secondsFromStart: number;
}

/** How long each stage of one turn took, in milliseconds. */
export interface TurnMetrics {
  turn: number;
  /** Silence waited before the caller's turn was considered over. */
  endOfSpeechDelayMs: number;
  /** Time to the final recognition result once the turn was over. */
  recognitionMs: number;
  /** From the end of the turn to the first text of the reply. */
  firstTextMs: number | null;
  /** From the end of the turn to the first audio of the reply being sent. */
  firstAudioMs: number | null;
  /** From the caller's last word to the assistant's first sound: the wait the caller hears. */
  voiceToVoiceMs: number | null;
  /** Which recognition model produced the caller's words. */
  recognitionModel: RecognitionModel;
  /**
   * Of `recognitionMs`, the turn's end waiting behind the recognition thread's earlier work
   * (the frames of this and the other calls on it): long when that thread cannot keep up.
   * Only with recognition on threads of its own.
   */
  recognitionQueuedMs?: number;
  /**
   * Of `recognitionMs`, the recognition thread's own finishing of the turn: waiting for a
   * general decoder, catching up, the last decoding.
   */
  recognitionDecodingMs?: number;
  /**
   * Of `recognitionMs`, the second recogniser's reading waited for once the first's result
   * was in. Only on turns it read.
   */
  secondOpinionWaitMs?: number;
}

export interface ProviderChange {
  stage: 'model';
  from: string;
  to: string;
  reason: string;
}

/**
 * Something went wrong that the caller need not hear about, because the call goes on as
 * it was: the operator's to know (the server logs it).
 */
export interface SessionProblem {
  /**
   * `recheck`: the second recogniser's reading of a turn already answered failed.
   * `choose`: the reply engine failed to weigh a turn's readings; the recogniser's best
   * was answered. `complete`: it failed to judge whether the caller's words so far make a
   * whole turn; their form alone decided (told once a call).
   */
  stage: 'recheck' | 'choose' | 'complete';
  error: string;
}

export interface CallEnd {
  reason: EndedReason;
  conclusion: CallConclusion;
  messages: RecordMessage[];
}

/** What a session tells the outside world; the server turns these into socket and database writes. */
export interface CallSessionListener {
  /** Assistant audio for the caller, at the synthesiser's rate. */
  audio(chunk: Int16Array): void;
  /** A JSON message for the caller. */
  message(message: ServerMessage): void;
  /** The call record's messages changed (a turn was completed or cut short). */
  conversation(messages: readonly RecordMessage[]): void;
  /** A turn's stage timings. */
  metrics(metrics: TurnMetrics): void;
  /** The session switched reply providers mid-call. */
  providerChanged?(change: ProviderChange): void;
  /** Something failed that the call goes on without (see {@link SessionProblem}). */
  problem?(problem: SessionProblem): void;
  /** The call is over; the session is done. */
  ended(end: CallEnd): void;
}
