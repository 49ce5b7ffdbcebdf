/**
 * The general English decoders, shared by every recogniser of a thread. A general decoder
 * holds the dictionary of the words that model can say (`generalDictionary`) and a search
 * over it. The model itself (about 34 MB) is read once per pool and shared by its
 * decoders, which then cost about 49 MB each (61 with the installed dictionary; 96 with a
 * model of their own; measured on this machine); an assistant's domain decoder is
 * about 7 MB. An utterance needs a general decoder only when the domain model doubts it (or
 * the recogniser has no domain model), so they are lent per utterance, not held per call:
 * a few serve many calls.
 *
 * - `take()` lends an idle decoder, or answers null and makes one off the event loop (the
 *   utterance keeps its audio and catches up once it has one); `takeNow()` makes one on
 *   the spot if it must (blocking about 0.5 s; for a turn that is ending).
 * - At most `limit` exist at once: past it an utterance that doubts waits for one to be
 *   given back, catching up on its audio when it gets it, and only a turn that has waited
 *   `overflowAfterMs` to finish gets one made beyond the limit, `overflow` of them at most;
 *   past those it waits for one given back, however long. A thread decodes one frame at a
 *   time, so more decoders than it can keep busy only cost memory: when every call's turn
 *   ends in the same second, a decoder for each would cost 49 MB a call for no faster
 *   answers.
 * - Given back, a decoder is reused; `spares` idle ones are kept ready (one is made again
 *   whenever one is lent), and after `idleTrimMs` with nothing lent or given back the rest
 *   are freed and their memory returned to the system.
 * - A call that starts says so (`expect(share)`): the pool makes decoders ahead for the
 *   live calls, up to its limit, while the greetings play: one per call whose caller is
 *   likely to need one, the calls' shares summed and rounded up (a recogniser's share is
 *   how often its assistant's recent utterances needed the general model; see
 *   `FallbackHistory`). Calls that start together speak their first lines together, and a
 *   first line has no earlier one to tell whether its caller needs the general model;
 *   making the decoders then (0.3 s of CPU each) would hold up every one of those turns.
 *   The decoders the live calls expect are not trimmed.
 *
 * The shared model is used from this thread only, one decoder at a time. Searches over it
 * are built on a worker thread (`setLmAsync`), which only reads it but counts its
 * references: while one is being built, no decoder of the pool is freed (they wait in
 * `#freeLater`), and a decoder needed on the spot then reads a model of its own.
 */
import type { Pointer, PocketsphinxApi } from './native.js';
import { DEFAULT_SEARCH, releaseFreedMemory } from './native.js';

export interface GeneralDecoder {
  ps: Pointer;
  config: Pointer;
  /** A front end configured like it, to measure an utterance's mean (null: cannot). */
  frontEnd: Pointer | null;
}

/** What a pool's decoders are made of. */
export interface GeneralModel {
  /** The decoder arguments without the language model (`-hmm … -dict … flags`). */
  args: readonly string[];
  /** The n-gram model file every decoder of the pool searches, read once. */
  lm: string;
}

export interface GeneralDecodersOptions {
  /** Idle decoders kept ready. */
  spares: number;
  idleTrimMs: number;
  /** Most decoders at once (default: no limit). */
  limit?: number;
  /** How long a finishing turn waits at the limit before one more is made (default 1.5 s). */
  overflowAfterMs?: number;
  /** Most decoders made past the limit for turns that waited (default: no cap). */
  overflow?: number;
}

const DEFAULT_OVERFLOW_AFTER_MS = 1500;

function initFailed(what = 'ps_init failed'): Error {
  return new Error(
    `pocketsphinx: could not load the general decoder (${what}; check the model files)`,
  );
}

export class GeneralDecoders {
  readonly #api: PocketsphinxApi;
  readonly #model: GeneralModel;
  readonly #idle: GeneralDecoder[] = [];
  #lent = 0;
  #making = 0;
  #spares: number;
  #idleTrimMs: number;
  #limit: number;
  #overflowAfterMs: number;
  #overflow: number;
  #users = 0;
  /** Decoders the live calls are expected to need: the sum of their shares (`expect()`). */
  #expected = 0;
  /** The shared language model, once read (null: not yet, or it could not be). */
  #lm: Pointer | null = null;
  #lmReading: Promise<Pointer | null> | null = null;
  /** Searches over the shared model being built on worker threads. */
  #settingLm = 0;
  /** Decoders (and the model's last reference) to free once no search is being built. */
  readonly #freeLater: (() => void)[] = [];
  /** Waiting for an idle decoder (`whenIdle`), woken whenever one becomes idle. */
  #waiting: (() => void)[] = [];
  #trimTimer: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;

  constructor(api: PocketsphinxApi, model: GeneralModel, options: GeneralDecodersOptions) {
    this.#api = api;
    this.#model = model;
    this.#spares = Math.max(0, options.spares);
    this.#idleTrimMs = options.idleTrimMs;
    this.#limit = limitOf(options);
    this.#overflowAfterMs = options.overflowAfterMs ?? DEFAULT_OVERFLOW_AFTER_MS;
    this.#overflow = overflowOf(options);
  }

  /** Decoders in existence (idle + lent). */
  get count(): number {
    return this.#idle.length + this.#lent;
  }

  /** A recogniser starts using the pool; the most spares any asks for are kept. */
  use(options: GeneralDecodersOptions): void {
    this.#users += 1;
    this.#spares = Math.max(this.#spares, options.spares);
    this.#idleTrimMs = Math.min(this.#idleTrimMs, options.idleTrimMs);
    this.#limit = Math.max(this.#limit, limitOf(options));
    this.#overflowAfterMs = Math.min(
      this.#overflowAfterMs,
      options.overflowAfterMs ?? DEFAULT_OVERFLOW_AFTER_MS,
    );
    this.#overflow = Math.max(this.#overflow, overflowOf(options));
  }

  /**
   * A call starts that needs a general decoder with the likelihood `share` (0–1, default
   * 1): the live calls' shares, summed and rounded up, are the decoders made ahead (off the
   * event loop, up to the limit) and kept until the calls end, when they call the answer.
   * Answers at once.
   */
  expect(share = 1): () => void {
    const weight = Number.isFinite(share) ? Math.min(1, Math.max(0, share)) : 1;
    this.#expected += weight;
    this.#fill();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#expected = Math.max(0, this.#expected - weight);
      this.#scheduleTrim();
    };
  }

  /** Decoders kept in existence: the spares, or those the live calls expect, within the limit. */
  get #wanted(): number {
    // (The shares are sums of fractions: a rounding error must not ask for one more.)
    const expected = Math.ceil(this.#expected - 1e-9);
    return Math.min(this.#limit, Math.max(this.#spares + this.#lent, expected));
  }

  /** Makes decoders off the event loop until the spares are idle and the expected exist. */
  #fill(): Promise<void>[] {
    const makes: Promise<void>[] = [];
    if (this.#disposed) return makes;
    // (Wanting spares + lent is wanting `spares` idle; `#wanted` is within the limit.)
    while (this.count + this.#making < this.#wanted) makes.push(this.#makeAhead());
    return makes;
  }

  /** Whether another decoder may be made without passing the limit. */
  get #roomForMore(): boolean {
    return this.count + this.#making < this.#limit;
  }

  /** Whether one more may be made past the limit, for a turn that has waited. */
  get #roomForOverflow(): boolean {
    return this.count + this.#making < this.#limit + this.#overflow;
  }

  /** A recogniser is done with the pool; answers true when nobody uses it any more. */
  leave(): boolean {
    this.#users = Math.max(0, this.#users - 1);
    return this.#users === 0;
  }

  /** Makes decoders off the event loop (`#fill()`); answers when they are made. */
  async ready(): Promise<void> {
    await Promise.all(this.#fill());
  }

  /**
   * An idle decoder, or null. A first ask answered null starts making one for the asker
   * (off the event loop) unless the pool is at its limit: it asks `again` until it has one.
   */
  take(ask: 'first' | 'again' = 'first'): GeneralDecoder | null {
    if (this.#disposed) throw new Error('GeneralDecoders: take() after dispose()');
    const decoder = this.#idle.pop() ?? null;
    if (decoder !== null) this.#lent += 1;
    else if (ask === 'first' && this.#roomForMore) void this.#makeAhead();
    // One lent, the spares are readied again for the next utterance that doubts.
    this.#fill();
    return decoder;
  }

  /** Whether a decoder is idle now (`take()` would lend it). */
  get hasIdle(): boolean {
    return this.#idle.length > 0;
  }

  /**
   * Settles once a decoder is idle, making one off the event loop if none is on its way
   * and the limit allows: for a turn that is ending and will need one, instead of
   * `takeNow()` blocking its thread (and every other utterance on it) for about 0.5 s.
   * At the limit it waits for one to be given back; after `overflowAfterMs` one more is
   * made (while fewer than `overflow` are past the limit), so a turn is rarely held up
   * long by the others. Answers true when a decoder is idle; false when it gave up (the
   * decoders it had made were taken by others, or could not be made), which leaves
   * `takeNow()` to make one or say why it cannot.
   */
  async whenIdle(): Promise<boolean> {
    const overflowAt = performance.now() + this.#overflowAfterMs;
    let overflowTimer: ReturnType<typeof setTimeout> | null = null;
    try {
      // A few makes: another waiter may take the one made; a make that fails (the model
      // cannot load) is left for takeNow() to report.
      let makes = 0;
      while (this.#idle.length === 0 && !this.#disposed && makes < 4) {
        const overdue = performance.now() >= overflowAt;
        if (this.#making === 0 && (this.#roomForMore || (overdue && this.#roomForOverflow))) {
          makes += 1;
          void this.#makeAhead();
        }
        await new Promise<void>((resolve) => {
          this.#waiting.push(resolve);
          // At the limit, woken by a decoder given back, or at the deadline.
          if (!overdue && overflowTimer === null && this.#making === 0) {
            overflowTimer = setTimeout(
              () => {
                overflowTimer = null;
                this.#wake();
              },
              Math.max(0, overflowAt - performance.now()),
            );
          }
        });
      }
      return this.#idle.length > 0;
    } finally {
      if (overflowTimer !== null) clearTimeout(overflowTimer);
    }
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** An idle decoder, or one made now (blocking). */
  takeNow(): GeneralDecoder {
    const decoder = this.take('again');
    if (decoder !== null) return decoder;
    const made = this.#make();
    this.#lent += 1;
    return made;
  }

  /** Gives a lent decoder back (its utterance ended). */
  give(decoder: GeneralDecoder): void {
    this.#lent -= 1;
    if (this.#disposed) {
      this.#free(decoder);
      return;
    }
    this.#idle.push(decoder);
    this.#scheduleTrim();
    this.#wake();
  }

  /** Frees every idle decoder; lent ones are freed as they come back. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#trimTimer !== null) clearTimeout(this.#trimTimer);
    for (const decoder of this.#idle.splice(0)) this.#free(decoder);
    this.#wake();
    // The pool's own reference; decoders still lent keep theirs until they come back.
    this.#afterSearches(() => {
      if (this.#lm !== null) this.#api.freeLm(this.#lm);
      this.#lm = null;
    });
    releaseFreedMemory();
  }

  #config(): Pointer {
    const config = this.#api.parseConfig(this.#model.args);
    if (config === null)
      throw new Error(`pocketsphinx: bad configuration ${this.#model.args.join(' ')}`);
    return config;
  }

  #make(): GeneralDecoder {
    const config = this.#config();
    const ps = this.#api.init(config);
    if (ps === null) {
      this.#api.freeConfig(config);
      throw initFailed();
    }
    const decoder = { ps, config, frontEnd: this.#api.frontEnd(config) };
    try {
      if (this.#settingLm > 0) {
        // A search over the shared model is being built: this one reads a model of its own.
        this.#search(this.#api.setLmFile(ps, DEFAULT_SEARCH, this.#model.lm), decoder);
      } else {
        this.#lm ??= this.#api.readLm(config, ps, this.#model.lm);
        if (this.#lm === null) throw initFailed(`cannot read ${this.#model.lm}`);
        this.#search(this.#api.setLm(ps, DEFAULT_SEARCH, this.#lm), decoder);
      }
    } catch (err) {
      this.#free(decoder);
      throw err;
    }
    return decoder;
  }

  /** Selects the search just made; throws if it could not be. */
  #search(rc: number, decoder: GeneralDecoder): void {
    if (rc < 0 || this.#api.setSearch(decoder.ps, DEFAULT_SEARCH) < 0)
      throw initFailed(`cannot search ${this.#model.lm}`);
  }

  /** The shared model, read off the event loop by the first decoder that needs it. */
  async #sharedLm(decoder: GeneralDecoder): Promise<Pointer | null> {
    if (this.#lm !== null) return this.#lm;
    this.#lmReading ??= this.#api
      .readLmAsync(decoder.config, decoder.ps, this.#model.lm)
      .then((lm) => {
        this.#lmReading = null;
        if (lm !== null && this.#lm === null && !this.#disposed) this.#lm = lm;
        else if (lm !== null && lm !== this.#lm) this.#api.freeLm(lm);
        return this.#lm;
      });
    return this.#lmReading;
  }

  async #makeAhead(): Promise<void> {
    this.#making += 1;
    try {
      const config = this.#config();
      const ps = await this.#api.initAsync(config);
      if (ps === null) {
        this.#api.freeConfig(config);
        return; // takeNow() makes one itself, and says why if it cannot
      }
      const decoder = { ps, config, frontEnd: this.#api.frontEnd(config) };
      const lm = this.#disposed ? null : await this.#sharedLm(decoder);
      // (Disposed meanwhile, the pool's reference to the model may be gone.)
      if (lm === null || this.#disposed) {
        this.#free(decoder);
        return; // as above
      }
      this.#settingLm += 1;
      let rc: number;
      try {
        rc = await this.#api.setLmAsync(ps, DEFAULT_SEARCH, lm);
      } finally {
        this.#settingLm -= 1;
        if (this.#settingLm === 0) for (const free of this.#freeLater.splice(0)) free();
      }
      if (rc < 0 || this.#api.setSearch(ps, DEFAULT_SEARCH) < 0) {
        this.#free(decoder);
        return; // as above
      }
      if (this.#disposed) this.#free(decoder);
      // Behind the others: a decoder just given back is reused first.
      else {
        this.#idle.unshift(decoder);
        this.#scheduleTrim();
      }
    } catch {
      // As above: the next takeNow() reports it.
    } finally {
      this.#making -= 1;
      // Woken either way: a waiter whose decoder could not be made makes it itself.
      this.#wake();
    }
  }

  #scheduleTrim(): void {
    if (this.#disposed) return;
    if (this.#trimTimer !== null) clearTimeout(this.#trimTimer);
    this.#trimTimer = setTimeout(() => {
      this.#trimTimer = null;
      let freed = 0;
      // Idle ones beyond the spares go, but not those the live calls expect.
      const keep = Math.max(this.#spares, this.#wanted - this.#lent);
      while (this.#idle.length > keep) {
        // The front holds the ones made ahead and never used, then the longest idle.
        this.#free(this.#idle.shift() as GeneralDecoder);
        freed += 1;
      }
      if (freed > 0) releaseFreedMemory();
    }, this.#idleTrimMs);
    this.#trimTimer.unref();
  }

  #free(decoder: GeneralDecoder): void {
    this.#afterSearches(() => {
      if (decoder.frontEnd !== null) this.#api.freeFrontEnd(decoder.frontEnd);
      this.#api.free(decoder.ps);
      this.#api.freeConfig(decoder.config);
    });
  }

  /** Runs `free` now, or once no search over the shared model is being built. */
  #afterSearches(free: () => void): void {
    if (this.#settingLm > 0) this.#freeLater.push(free);
    else free();
  }
}

function limitOf(options: GeneralDecodersOptions): number {
  return options.limit === undefined ? Infinity : Math.max(1, options.limit);
}

function overflowOf(options: GeneralDecodersOptions): number {
  return options.overflow === undefined ? Infinity : Math.max(0, options.overflow);
}

/** The pools of this thread, by configuration: recognisers of the same model share one. */
const pools = new Map<string, GeneralDecoders>();

/** The shared pool for this model (made on first use). */
export function generalDecodersFor(
  api: PocketsphinxApi,
  model: GeneralModel,
  options: GeneralDecodersOptions,
): { pool: GeneralDecoders; release: () => void } {
  const key = [...model.args, model.lm].join('\u0000');
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new GeneralDecoders(api, model, options);
    pools.set(key, pool);
  }
  pool.use(options);
  const shared = pool;
  let released = false;
  return {
    pool: shared,
    release: () => {
      if (released) return;
      released = true;
      if (shared.leave()) {
        pools.delete(key);
        shared.dispose();
      }
    },
  };
}
