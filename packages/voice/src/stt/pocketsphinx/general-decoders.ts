/**
 * The general English decoders, shared by every recogniser of a thread. A general decoder
 * holds the full dictionary and the general language model: about 91 MB each, against
 * about 7 MB for an assistant's domain decoder (measured on this machine). An utterance
 * needs one only when the domain model doubts it (or the recogniser has no domain model),
 * so they are lent per utterance, not held per call: a few serve many calls.
 *
 * - `take()` lends an idle decoder, or answers null and makes one off the event loop (the
 *   utterance keeps its audio and catches up once it has one); `takeNow()` makes one on
 *   the spot if it must (blocking 0.3–0.7 s; for a turn that is ending).
 * - Given back, a decoder is reused; `spares` idle ones are kept ready (one is made again
 *   whenever one is lent), and after `idleTrimMs` with nothing lent or given back the rest
 *   are freed and their memory returned to the system.
 */
import type { Pointer, PocketsphinxApi } from './native.js';
import { releaseFreedMemory } from './native.js';

export interface GeneralDecoder {
  ps: Pointer;
  config: Pointer;
  /** A front end configured like it, to measure an utterance's mean (null: cannot). */
  frontEnd: Pointer | null;
}

export interface GeneralDecodersOptions {
  /** Idle decoders kept ready. */
  spares: number;
  idleTrimMs: number;
}

function initFailed(): Error {
  return new Error(
    'pocketsphinx: could not load the general decoder (ps_init failed; check the model files)',
  );
}

export class GeneralDecoders {
  readonly #api: PocketsphinxApi;
  readonly #args: readonly string[];
  readonly #idle: GeneralDecoder[] = [];
  #lent = 0;
  #making = 0;
  #spares: number;
  #idleTrimMs: number;
  #users = 0;
  /** Waiting for an idle decoder (`whenIdle`), woken whenever one becomes idle. */
  #waiting: (() => void)[] = [];
  #trimTimer: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;

  constructor(api: PocketsphinxApi, args: readonly string[], options: GeneralDecodersOptions) {
    this.#api = api;
    this.#args = args;
    this.#spares = Math.max(0, options.spares);
    this.#idleTrimMs = options.idleTrimMs;
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
  }

  /** A recogniser is done with the pool; answers true when nobody uses it any more. */
  leave(): boolean {
    this.#users = Math.max(0, this.#users - 1);
    return this.#users === 0;
  }

  /** Makes decoders off the event loop until `spares` are idle; answers when they are. */
  async ready(): Promise<void> {
    const makes: Promise<void>[] = [];
    while (this.#idle.length + this.#making < this.#spares) makes.push(this.#makeAhead());
    await Promise.all(makes);
  }

  /**
   * An idle decoder, or null. A first ask answered null starts making one for the asker
   * (off the event loop): it asks `again` until it has one.
   */
  take(ask: 'first' | 'again' = 'first'): GeneralDecoder | null {
    if (this.#disposed) throw new Error('GeneralDecoders: take() after dispose()');
    const decoder = this.#idle.pop() ?? null;
    if (decoder !== null) this.#lent += 1;
    else if (ask === 'first') void this.#makeAhead();
    // One lent, the spares are readied again for the next utterance that doubts.
    while (this.#idle.length + this.#making < this.#spares) void this.#makeAhead();
    return decoder;
  }

  /** Whether a decoder is idle now (`take()` would lend it). */
  get hasIdle(): boolean {
    return this.#idle.length > 0;
  }

  /**
   * Settles once a decoder is idle, making one off the event loop if none is on its way:
   * for a turn that is ending and will need one, instead of `takeNow()` blocking its
   * thread (and every other utterance on it) for 0.3–0.7 s.
   */
  async whenIdle(): Promise<void> {
    // A few rounds: another waiter may take the one made; a make that fails (the model
    // cannot load) is left for takeNow() to report.
    for (let round = 0; round < 4 && this.#idle.length === 0 && !this.#disposed; round++) {
      if (this.#making === 0) void this.#makeAhead();
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
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
    releaseFreedMemory();
  }

  #config(): Pointer {
    const config = this.#api.parseConfig(this.#args);
    if (config === null) throw new Error(`pocketsphinx: bad configuration ${this.#args.join(' ')}`);
    return config;
  }

  #make(): GeneralDecoder {
    const config = this.#config();
    const ps = this.#api.init(config);
    if (ps === null) {
      this.#api.freeConfig(config);
      throw initFailed();
    }
    return { ps, config, frontEnd: this.#api.frontEnd(config) };
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
      while (this.#idle.length > this.#spares) {
        // The front holds the ones made ahead and never used, then the longest idle.
        this.#free(this.#idle.shift() as GeneralDecoder);
        freed += 1;
      }
      if (freed > 0) releaseFreedMemory();
    }, this.#idleTrimMs);
    this.#trimTimer.unref();
  }

  #free(decoder: GeneralDecoder): void {
    if (decoder.frontEnd !== null) this.#api.freeFrontEnd(decoder.frontEnd);
    this.#api.free(decoder.ps);
    this.#api.freeConfig(decoder.config);
  }
}

/** The pools of this thread, by configuration: recognisers of the same model share one. */
const pools = new Map<string, GeneralDecoders>();

/** The shared pool for these decoder arguments (`-hmm … -lm … -dict …`; made on first use). */
export function generalDecodersFor(
  api: PocketsphinxApi,
  args: readonly string[],
  options: GeneralDecodersOptions,
): { pool: GeneralDecoders; release: () => void } {
  const key = args.join('\u0000');
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new GeneralDecoders(api, args, options);
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
