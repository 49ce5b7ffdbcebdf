/**
 * How often an assistant's recent utterances needed the general model: the share of its
 * live calls whose first lines will likely need a general decoder, so the pool makes that
 * many ahead (`GeneralDecoders.expect(share)`) instead of one for every call.
 *
 * Callers who speak an assistant's own wording are heard by its domain model and never
 * borrow one: making a general decoder (61 MB then, 49 now) ahead for each of their calls
 * held 506 MB at 8 such calls (issue 14). Callers in their own words need one nearly always.
 * Until it has heard `minHeard` utterances, a recogniser assumes every call will (the
 * cautious guess: a first line that waits for a decoder made on demand waits 0.3–0.5 s).
 * It also tells whether a call's first utterance should run the general decoder from its
 * start (`expectsFallback`), as a later one does after one only the general model heard.
 */
export interface FallbackHistoryOptions {
  /** Finished utterances remembered (default 20). */
  size?: number;
  /** Finished utterances heard before the share is trusted (default 5). */
  minHeard?: number;
}

export class FallbackHistory {
  readonly #size: number;
  readonly #minHeard: number;
  /** The last `size` finished utterances: whether each needed a general decoder. */
  readonly #recent: boolean[] = [];

  constructor(options: FallbackHistoryOptions = {}) {
    this.#size = Math.max(1, options.size ?? 20);
    this.#minHeard = Math.min(this.#size, Math.max(0, options.minHeard ?? 5));
  }

  /** A finished utterance, and whether it borrowed (or asked for) a general decoder. */
  record(neededGeneral: boolean): void {
    this.#recent.push(neededGeneral);
    if (this.#recent.length > this.#size) this.#recent.shift();
  }

  /** The share (0–1) of recent utterances that needed one; 1 until `minHeard` were heard. */
  get share(): number {
    if (!this.#known) return 1;
    return this.#recent.filter(Boolean).length / this.#recent.length;
  }

  /**
   * Whether a call's first utterance should run the general decoder from its start: at
   * least half the recent utterances needed one. It then has no whole utterance to catch
   * up on when the turn ends (0.3–0.8 s of a thread's time, while every call that started
   * with it finishes its first line too); an utterance that did not need it cost only the
   * general decoding beside the domain one. Until `minHeard` were heard: no (today's
   * guess costs no CPU on a hunch).
   */
  get expectsFallback(): boolean {
    return this.#known && this.share >= 0.5;
  }

  get #known(): boolean {
    return this.#recent.length >= this.#minHeard && this.#recent.length > 0;
  }
}
