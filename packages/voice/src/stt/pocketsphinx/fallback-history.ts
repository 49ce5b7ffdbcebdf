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

  /**
   * A finished utterance, and whether its answer needed the general model (the domain
   * model's was not trusted), whether or not a general decoder ran beside it.
   */
  record(neededGeneral: boolean): void {
    this.#recent.push(neededGeneral);
    if (this.#recent.length > this.#size) this.#recent.shift();
  }

  /** The share (0–1) of recent utterances that needed one; 1 until `minHeard` were heard. */
  get share(): number {
    if (this.#recent.length < this.#minHeard || this.#recent.length === 0) return 1;
    return this.#recent.filter(Boolean).length / this.#recent.length;
  }
}
