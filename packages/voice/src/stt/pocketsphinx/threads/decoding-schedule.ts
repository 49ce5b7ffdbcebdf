/**
 * When a recognition thread decodes what (see `recognizer-worker.ts`).
 *
 * A caller who has stopped speaking waits for their words; one still speaking does not, as
 * long as their audio is decoded by the time they stop. So a stream's frames are held when
 * they come, and decoded here a few at a time, every held stream in turn, in short slices
 * between which the thread reads its messages, and not at all while a finish is decoding
 * (a caller waits for it). Decoded as they came, at twelve calls on two threads a turn's end
 * waited up to 1.8 s (p95) behind the frames of the calls still speaking (issue 14): every
 * finish slice took its turn with each frame that had come meanwhile, and a thread's
 * message handler decoding a dozen calls' frames at once kept the finish waiting to be read.
 *
 * With every held frame decoded, the thread's time to spare goes to the general decoders
 * still behind (each starts when the domain model doubts the words, a second or two into
 * the turn), so that less of that is left to the turn's end.
 */

/** What the schedule needs of a stream (`PocketsphinxRecognitionStream`). */
export interface ScheduledStream {
  /** Held frames that can be decoded now. */
  readonly heldFrames: number;
  decodeHeld(count: number): void;
  /** Whether its finish waits for another utterance to give back a general decoder. */
  readonly waitingForDecoder: boolean;
  /** Frames its general decoder has still to hear. */
  readonly generalLag: number;
  feedGeneral(count: number): void;
}

export interface DecodingScheduleOptions {
  /** Called after the schedule decoded some of a stream's frames. */
  decoded: (id: number) => void;
  /** Called when decoding a stream's frames threw; the stream is dropped from the schedule. */
  failed: (id: number, error: unknown) => void;
  /** Decoding before the thread reads its messages again. Default 4 ms. */
  sliceMs?: number;
  /** Frames of one stream decoded before the next stream's turn. Default 2 (40 ms of audio). */
  framesPerTurn?: number;
}

/**
 * Decoding 4 ms at a time: a finish that comes waits at most that long to be read (a frame
 * of the general model takes 2–4 ms, of the domain model under 1 ms).
 */
const SLICE_MS = 4;
const FRAMES_PER_TURN = 2;
/** A lagging general decoder's frames per turn (fed to it in one call: 100 ms of audio). */
const GENERAL_FRAMES_PER_TURN = 5;

export class DecodingSchedule {
  readonly #behind = new Map<number, ScheduledStream>();
  /** Streams whose general decoder is behind, in the order they are served. */
  readonly #lagging = new Map<number, ScheduledStream>();
  readonly #finishing = new Set<ScheduledStream>();
  #scheduled = false;
  readonly #sliceMs: number;
  readonly #framesPerTurn: number;

  constructor(private readonly options: DecodingScheduleOptions) {
    this.#sliceMs = options.sliceMs ?? SLICE_MS;
    this.#framesPerTurn = options.framesPerTurn ?? FRAMES_PER_TURN;
  }

  /** Stream `id` has frames held: they are decoded in its turn. */
  held(id: number, stream: ScheduledStream): void {
    this.#behind.set(id, stream);
    this.#wake();
  }

  /** Stream `id` is finished or cancelled: nothing more of it is decoded here. */
  forget(id: number): void {
    this.#behind.delete(id);
    this.#lagging.delete(id);
  }

  /**
   * A caller waits for `stream`'s finish until `done` settles: held frames wait meanwhile,
   * unless it waits for a general decoder.
   */
  finishing(stream: ScheduledStream, done: Promise<unknown>): void {
    this.#finishing.add(stream);
    const settled = () => {
      this.#finishing.delete(stream);
      this.#wake();
    };
    done.then(settled, settled);
  }

  /** Whether a finish is decoding (not waiting for a general decoder to be given back). */
  get callerWaiting(): boolean {
    for (const stream of this.#finishing) if (!stream.waitingForDecoder) return true;
    return false;
  }

  #wake(): void {
    if (this.#scheduled || (this.#behind.size === 0 && this.#lagging.size === 0)) return;
    this.#scheduled = true;
    // After the messages that came meanwhile: a finish among them goes first.
    setImmediate(() => this.#pump());
  }

  #pump(): void {
    this.#scheduled = false;
    // A finish decoding now wakes the schedule again when it settles.
    if (this.callerWaiting) return;
    const until = performance.now() + this.#sliceMs;
    // One stream's turn at least, however short the slice.
    do {
      // The stream whose turn it is: the one served longest ago, held frames first.
      const held = this.#behind.size > 0;
      const next = (held ? this.#behind : this.#lagging).entries().next();
      if (next.done === true) break;
      const [id, stream] = next.value;
      this.#behind.delete(id);
      this.#lagging.delete(id);
      try {
        if (held) stream.decodeHeld(this.#framesPerTurn);
        else stream.feedGeneral(GENERAL_FRAMES_PER_TURN);
      } catch (error) {
        this.options.failed(id, error);
        continue;
      }
      // Still behind: to the back of its line.
      if (stream.heldFrames > 0) this.#behind.set(id, stream);
      else if (stream.generalLag > 0) this.#lagging.set(id, stream);
      if (held) this.options.decoded(id);
    } while (performance.now() < until);
    this.#wake();
  }
}
