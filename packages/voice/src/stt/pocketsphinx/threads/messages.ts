/**
 * What the event loop and a recognition thread say to each other (see
 * `recognition-threads.ts`). Streams and reservations are numbered by the event loop side;
 * a recogniser is named by its key (one per assistant vocabulary). Each side sends what it
 * had to say during one turn of its event loop in one `batch`, in order: a live call pushes
 * a frame every 20 ms, and one message per frame each way was a quarter of the event loop's
 * own time at eight calls (a CPU profile of the concurrency benchmark).
 */
import type { RecognitionOptions } from '../../types.js';
import type { DetailedRecognitionResult, PocketsphinxRecognizerOptions } from '../recognizer.js';

/** The options a recogniser is made with on a thread: plain data (no lexicon object). */
export type ThreadRecognizerOptions = Omit<PocketsphinxRecognizerOptions, 'lexicon'>;

export type ToThreadMessage =
  /** Makes (or finds cached) a recogniser; answered by `made`. */
  | { type: 'recognizer'; key: string; options: ThreadRecognizerOptions }
  | { type: 'drop-recognizer'; key: string }
  | { type: 'reserve'; key: string; reservation: number }
  | { type: 'release'; reservation: number }
  | { type: 'open'; key: string; stream: number; options: RecognitionOptions }
  /** One 20 ms frame (its buffer is transferred). */
  | { type: 'push'; stream: number; frame: Int16Array }
  /** Answered by `state` once every frame pushed before it is decoded. */
  | { type: 'sync'; stream: number; request: number }
  | { type: 'finish'; stream: number }
  | { type: 'cancel'; stream: number }
  /** Answered by `count`. */
  | { type: 'count'; request: number }
  /** Frees everything; the thread then ends. */
  | { type: 'close' };

export type FromThreadMessage =
  /** The thread is up and listening. */
  | { type: 'ready' }
  | { type: 'made'; key: string; ok: true; decoderInitMs: number; hasDomain: boolean }
  | { type: 'made'; key: string; ok: false; message: string }
  /** A stream's words so far: every few frames, and in answer to `sync`. */
  | {
      type: 'state';
      stream: number;
      partial: string;
      confidence: number | undefined;
      request?: number;
    }
  | { type: 'result'; stream: number; ok: true; result: DetailedRecognitionResult }
  | { type: 'result'; stream: number; ok: false; message: string }
  | { type: 'count'; request: number; decoders: number };

export type ToThread = ToThreadMessage | { type: 'batch'; messages: ToThreadMessage[] };
export type FromThread = FromThreadMessage | { type: 'batch'; messages: FromThreadMessage[] };
