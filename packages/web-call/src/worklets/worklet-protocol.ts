/**
 * Names and port messages of the two audio worklets. The worklet modules use these with
 * `import type` only (a worklet module must stay a single file: bundlers copy it as an
 * asset without following its imports), so the processor names are repeated there and a
 * unit test checks that they match.
 */

export const CAPTURE_PROCESSOR = 'talkbooth-capture';
export const PLAYBACK_PROCESSOR = 'talkbooth-playback';

/** `processorOptions` of the capture worklet. */
export interface CaptureOptions {
  /** Rate of the frames sent to the server (16 000). */
  targetRate: number;
  /** Samples per frame (320 = 20 ms at 16 kHz). */
  frameSamples: number;
}

/** Capture worklet → main thread: one frame of PCM s16 at the target rate. */
export type CaptureOutMessage = Int16Array;

/** `processorOptions` of the playback worklet. */
export interface PlaybackOptions {
  /** Rate of the assistant's audio until a `format` message says otherwise. */
  sourceRate: number;
  /** Start playing once this much is buffered (ms). */
  startMs: number;
  /** ...or once the first buffered sample has waited this long (ms). */
  maxWaitMs: number;
  /** Never hold more than this (ms); the oldest audio is dropped past it. */
  capacityMs: number;
  /** How often to report the output's loudness (ms of rendered audio). */
  levelWindowMs: number;
}

/** Main thread → playback worklet. */
export type PlaybackInMessage =
  | { type: 'format'; sampleRate: number }
  | { type: 'audio'; samples: Int16Array }
  /** Barge-in: drop every queued sample now. */
  | { type: 'clear' };

/** Playback worklet → main thread. */
export type PlaybackOutMessage =
  /** The processor exists and takes audio. */
  | { type: 'ready' }
  /** Sum of squares and count of the samples output since the last report. */
  | { type: 'level'; sumSquares: number; frames: number }
  /** A `clear` dropped this many queued samples (source rate). */
  | { type: 'cleared'; dropped: number };
