/**
 * Minimal koffi bindings to Debian's pocketsphinx (`libpocketsphinx.so.3`, 0.8+5prealpha)
 * and sphinxbase (`libsphinxbase.so.3`), plus the model-location checks.
 *
 * The C API is synchronous and a decoder (`ps_decoder_t`) is not thread-safe: one decoder
 * serves one utterance at a time. Only `ps_init` is offered asynchronously (it runs on a
 * libuv worker thread, touching nothing shared), because loading a model takes 10–300 ms.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import koffi, { type LibraryHandle } from 'koffi';
import { bindFrontEnd, bindStreamState } from './cepstral-mean.js';

/** A C pointer as koffi 3 hands it out. */
export type Pointer = bigint;

export const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** The search pocketsphinx makes from `-lm` (its `PS_DEFAULT_SEARCH`). */
export const DEFAULT_SEARCH = '_default';
export const INSTALL_HINT = 'apt-get install -y libpocketsphinx3 pocketsphinx-en-us';

/** The files of a pocketsphinx model folder (Debian's `pocketsphinx-en-us` layout). */
export interface ModelFiles {
  /** Acoustic model folder (`-hmm`). */
  acousticModel: string;
  /** General n-gram model (`-lm`), binary. */
  generalLm: string;
  /** Full pronunciation dictionary (`-dict`). */
  dictionary: string;
}

export function modelFiles(modelDir: string = DEFAULT_MODEL_DIR): ModelFiles {
  return {
    acousticModel: join(modelDir, 'en-us'),
    generalLm: join(modelDir, 'en-us.lm.bin'),
    dictionary: join(modelDir, 'cmudict-en-us.dict'),
  };
}

/** Thrown when the native library or the model is not installed. */
export class PocketsphinxUnavailableError extends Error {
  constructor(detail: string) {
    super(`pocketsphinx is not available: ${detail}. On Debian/Ubuntu: ${INSTALL_HINT}`);
    this.name = 'PocketsphinxUnavailableError';
  }
}

/** Checks the model folder; throws `PocketsphinxUnavailableError` naming what is missing. */
export function checkModel(modelDir: string = DEFAULT_MODEL_DIR): ModelFiles {
  const files = modelFiles(modelDir);
  const required = [
    files.generalLm,
    files.dictionary,
    join(files.acousticModel, 'mdef'),
    join(files.acousticModel, 'means'),
    join(files.acousticModel, 'feat.params'),
  ];
  const missing = required.filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new PocketsphinxUnavailableError(
      `model files missing (${missing.join(', ')}; package pocketsphinx-en-us)`,
    );
  }
  return files;
}

/** The functions we call, typed. Pointers are bigints; NULL is `null`. */
export interface PocketsphinxApi {
  /** `cmd_ln_parse_r(NULL, ps_args(), argc, argv, strict=1)`: a configuration or null on a bad argument. */
  parseConfig(argv: readonly string[]): Pointer | null;
  freeConfig(config: Pointer): void;
  init(config: Pointer): Pointer | null;
  /** `ps_init` on a worker thread. */
  initAsync(config: Pointer): Promise<Pointer | null>;
  free(ps: Pointer): void;
  /** Adds a pronunciation; `update` rebuilds the searches now (else at the next `setSearch`). */
  addWord(ps: Pointer, word: string, phones: string, update: boolean): number;
  setLmFile(ps: Pointer, name: string, path: string): number;
  /** `setLmFile` on a worker thread (for a decoder nothing else is using yet). */
  setLmFileAsync(ps: Pointer, name: string, path: string): Promise<number>;
  /**
   * Reads an n-gram model file once, to be shared by several decoders of one thread
   * (`ngram_model_read`, on a worker thread; it takes the logmath of `ps`, whose
   * configuration `config` gives its weights). Null when the file cannot be read.
   */
  readLmAsync(config: Pointer, ps: Pointer, path: string): Promise<Pointer | null>;
  /** `readLmAsync`, blocking. */
  readLm(config: Pointer, ps: Pointer, path: string): Pointer | null;
  /**
   * The words an n-gram model file can say (its unigrams, `<s>` and `</s>` among them),
   * read on a worker thread with a logmath of its own; null when the file cannot be read.
   */
  lmWordsAsync(path: string): Promise<string[] | null>;
  /**
   * `ps_set_lm`: a search named `name` over a model read by `readLm` (the decoder keeps
   * its own reference). `setLmAsync` builds the search (about 0.3 s for the general
   * model) on a worker thread: building only reads the model, so decoders of the event
   * loop's thread may go on decoding with it meanwhile.
   */
  setLm(ps: Pointer, name: string, lm: Pointer): number;
  setLmAsync(ps: Pointer, name: string, lm: Pointer): Promise<number>;
  /** Drops this reference to a model read by `readLm` (decoders keep theirs). */
  freeLm(lm: Pointer): void;
  setJsgfFile(ps: Pointer, name: string, path: string): number;
  setKws(ps: Pointer, name: string, keyfile: string): number;
  setSearch(ps: Pointer, name: string): number;
  getSearch(ps: Pointer): string | null;
  startUtt(ps: Pointer): number;
  /** `ps_process_raw(ps, data, n, no_search=0, full_utt)`: frames searched, or < 0. */
  processRaw(ps: Pointer, samples: Int16Array, fullUtt: boolean): number;
  endUtt(ps: Pointer): number;
  /** Best hypothesis and its path score (log base 1.0001), or null. */
  getHyp(ps: Pointer): { text: string; score: number } | null;
  /**
   * Up to `count` distinct hypotheses of the finished utterance, best first, from the
   * decoder's word lattice (its N-best list).
   */
  nbest(ps: Pointer, count: number): string[];
  /** Posterior of the hypothesis (log); 0 unless `-bestpath yes`. */
  getProb(ps: Pointer): number;
  getNFrames(ps: Pointer): number;
  getInSpeech(ps: Pointer): boolean;
  /** Word segments of the current hypothesis: word, frames, acoustic and language scores. */
  segments(ps: Pointer): Segment[];
  /** exp of a log-domain value of this decoder's logmath (e.g. a posterior → probability). */
  logToLinear(ps: Pointer, logValue: number): number;
  /**
   * The decoder's cepstral-mean normalisation state, which adapts to the audio it hears
   * and carries from one utterance to the next: a copy of the current means, or null when
   * this build of the library does not expose it.
   */
  cepstralMean(ps: Pointer): Float32Array | null;
  /**
   * Starts a new stream with the given cepstral means and fresh noise statistics, so an
   * utterance is heard the same whatever the decoder heard before. False when this build
   * cannot.
   */
  restoreStreamState(ps: Pointer, mean: Float32Array): boolean;
  /**
   * A feature front end configured as the decoder of `config` is (after `init`), to
   * measure audio apart from any decoder; null when this build cannot.
   */
  frontEnd(config: Pointer): Pointer | null;
  freeFrontEnd(fe: Pointer): void;
  /** The mean cepstrum of `samples` (16 kHz), from a fresh front-end stream; null if none. */
  meanCepstrum(fe: Pointer, samples: Int16Array): Float32Array | null;
}

export interface Segment {
  word: string;
  startFrame: number;
  endFrame: number;
  /** Acoustic score (log base 1.0001, relative to the best senone per frame, ≤ 0). */
  acoustic: number;
  /** Language score (log base 1.0001, ≤ 0). */
  language: number;
  /** N-gram order the language model used for this word (3 = trigram hit, lower = backed off). */
  lmOrder: number;
}

// koffi's own typings describe every foreign function as `(...args: any[]) => any`; each is
// wrapped once below with real types, so the untyped surface stays in this file.
type Foreign = ReturnType<LibraryHandle['func']>;

let api: PocketsphinxApi | undefined;
let loadError: Error | undefined;

function tryLoad(names: readonly string[]): LibraryHandle {
  let last: unknown;
  for (const name of names) {
    try {
      return koffi.load(name);
    } catch (err) {
      last = err;
    }
  }
  throw new PocketsphinxUnavailableError(
    `cannot load ${names[0]} (${last instanceof Error ? last.message : String(last)}; package libpocketsphinx3)`,
  );
}

/** The end of the queue of model loads on worker threads. */
let initQueue: Promise<void> = Promise.resolve();

/**
 * Runs model loads on worker threads one at a time: ps_init and the model readers were
 * not written for concurrent use (see err_set_logfp).
 */
function queued<T>(load: () => Promise<T>): Promise<T> {
  const loaded = initQueue.then(load);
  initQueue = loaded.then(
    () => undefined,
    () => undefined,
  );
  return loaded;
}

/** `NGRAM_AUTO` of sphinxbase's `ngram_file_type_t`: the format is read from the file. */
const NGRAM_AUTO = 0;

function bind(): PocketsphinxApi {
  const ps = tryLoad(['libpocketsphinx.so.3', 'libpocketsphinx.so']);
  // The sphinxbase functions live in libsphinxbase (pocketsphinx 5prealpha links it);
  // newer pocketsphinx builds fold them into libpocketsphinx itself.
  let sb: LibraryHandle;
  try {
    ps.func(
      'void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)',
    );
    sb = ps;
  } catch {
    sb = tryLoad(['libsphinxbase.so.3', 'libsphinxbase.so']);
  }
  koffi.pointer('ps_decoder_t', koffi.opaque());
  koffi.pointer('cmd_ln_t', koffi.opaque());
  koffi.pointer('arg_t', koffi.opaque());
  koffi.pointer('ps_seg_t', koffi.opaque());
  koffi.pointer('logmath_t', koffi.opaque());

  const f = (lib: LibraryHandle, decl: string): Foreign => lib.func(decl);
  // The library's log goes nowhere, set once for the process. (Giving each decoder
  // `-logfn /dev/null` made every ps_init close and reopen one global FILE: two decoders
  // loading at once on different threads closed it twice and deadlocked inside stdio.)
  f(sb, 'void err_set_logfp(void *stream)')(null);
  const psArgs = f(ps, 'arg_t *ps_args()');
  const cmdLnParseR = f(
    sb,
    'cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout, arg_t *defn, int argc, const char **argv, int strict)',
  );
  const cmdLnFreeR = f(sb, 'int cmd_ln_free_r(cmd_ln_t *cmdln)');
  const logmathExp = f(sb, 'double logmath_exp(logmath_t *lmath, int logb_p)');
  const psInit = f(ps, 'ps_decoder_t *ps_init(cmd_ln_t *config)');
  const psFree = f(ps, 'int ps_free(ps_decoder_t *ps)');
  const psAddWord = f(
    ps,
    'int ps_add_word(ps_decoder_t *ps, const char *word, const char *phones, int update)',
  );
  const psSetLmFile = f(
    ps,
    'int ps_set_lm_file(ps_decoder_t *ps, const char *name, const char *path)',
  );
  koffi.pointer('ngram_model_t', koffi.opaque());
  const ngramModelRead = f(
    sb,
    'ngram_model_t *ngram_model_read(cmd_ln_t *config, const char *file_name, int file_type, logmath_t *lmath)',
  );
  const ngramModelFree = f(sb, 'int ngram_model_free(ngram_model_t *model)');
  const ngramCounts = f(sb, 'const uint32_t *ngram_model_get_counts(ngram_model_t *model)');
  const ngramWord = f(sb, 'const char *ngram_word(ngram_model_t *model, int32_t wid)');
  const logmathInit = f(sb, 'logmath_t *logmath_init(double base, int shift, int use_table)');
  const logmathFree = f(sb, 'int logmath_free(logmath_t *lmath)');
  const psSetLm = f(ps, 'int ps_set_lm(ps_decoder_t *ps, const char *name, ngram_model_t *lm)');
  const psSetJsgfFile = f(
    ps,
    'int ps_set_jsgf_file(ps_decoder_t *ps, const char *name, const char *path)',
  );
  const psSetKws = f(ps, 'int ps_set_kws(ps_decoder_t *ps, const char *name, const char *keyfile)');
  const psSetSearch = f(ps, 'int ps_set_search(ps_decoder_t *ps, const char *name)');
  const psGetSearch = f(ps, 'const char *ps_get_search(ps_decoder_t *ps)');
  const psStartUtt = f(ps, 'int ps_start_utt(ps_decoder_t *ps)');
  const psProcessRaw = f(
    ps,
    'int ps_process_raw(ps_decoder_t *ps, const int16_t *data, size_t n_samples, int no_search, int full_utt)',
  );
  const psEndUtt = f(ps, 'int ps_end_utt(ps_decoder_t *ps)');
  const psGetHyp = f(ps, 'const char *ps_get_hyp(ps_decoder_t *ps, _Out_ int32_t *out_best_score)');
  const psGetProb = f(ps, 'int32_t ps_get_prob(ps_decoder_t *ps)');
  const psGetNFrames = f(ps, 'int ps_get_n_frames(ps_decoder_t *ps)');
  const psGetInSpeech = f(ps, 'uint8_t ps_get_in_speech(ps_decoder_t *ps)');
  const psGetLogmath = f(ps, 'logmath_t *ps_get_logmath(ps_decoder_t *ps)');
  koffi.pointer('ps_nbest_t', koffi.opaque());
  const psNbest = f(ps, 'ps_nbest_t *ps_nbest(ps_decoder_t *ps)');
  const psNbestNext = f(ps, 'ps_nbest_t *ps_nbest_next(ps_nbest_t *nbest)');
  const psNbestHyp = f(ps, 'const char *ps_nbest_hyp(ps_nbest_t *nbest, _Out_ int32_t *out_score)');
  const psNbestFree = f(ps, 'void ps_nbest_free(ps_nbest_t *nbest)');
  const psSegIter = f(ps, 'ps_seg_t *ps_seg_iter(ps_decoder_t *ps)');
  const psSegNext = f(ps, 'ps_seg_t *ps_seg_next(ps_seg_t *seg)');
  const psSegWord = f(ps, 'const char *ps_seg_word(ps_seg_t *seg)');
  const psSegFrames = f(
    ps,
    'void ps_seg_frames(ps_seg_t *seg, _Out_ int *out_sf, _Out_ int *out_ef)',
  );
  const psSegProb = f(
    ps,
    'int32_t ps_seg_prob(ps_seg_t *seg, _Out_ int32_t *out_ascr, _Out_ int32_t *out_lscr, _Out_ int32_t *out_lback)',
  );
  const streamState = bindStreamState(ps, sb);
  const frontEnd = bindFrontEnd(sb);

  return {
    parseConfig: (argv) => cmdLnParseR(null, psArgs(), argv.length, [...argv], 1) as Pointer | null,
    freeConfig: (config) => void cmdLnFreeR(config),
    init: (config) => psInit(config) as Pointer | null,
    initAsync: (config) =>
      queued(
        () =>
          new Promise<Pointer | null>((resolve, reject) => {
            psInit.async(config, (err: unknown, res: Pointer | null) =>
              err ? reject(err as Error) : resolve(res),
            );
          }),
      ),
    free: (p) => void psFree(p),
    addWord: (p, word, phones, update) => psAddWord(p, word, phones, update ? 1 : 0) as number,
    setLmFile: (p, name, path) => psSetLmFile(p, name, path) as number,
    setLmFileAsync: (p, name, path) =>
      new Promise<number>((resolve, reject) => {
        psSetLmFile.async(p, name, path, (err: unknown, rc: number) =>
          err ? reject(err as Error) : resolve(rc),
        );
      }),
    readLmAsync: (config, p, path) =>
      queued(
        () =>
          new Promise<Pointer | null>((resolve, reject) => {
            ngramModelRead.async(
              config,
              path,
              NGRAM_AUTO,
              psGetLogmath(p),
              (err: unknown, lm: Pointer | null) => (err ? reject(err as Error) : resolve(lm)),
            );
          }),
      ),
    readLm: (config, p, path) =>
      ngramModelRead(config, path, NGRAM_AUTO, psGetLogmath(p)) as Pointer | null,
    lmWordsAsync: async (path) => {
      const config = cmdLnParseR(null, psArgs(), 0, [], 1) as Pointer | null;
      if (config === null) return null;
      // The base pocketsphinx's own logmath uses (`-logbase` 1.0001); only words are read.
      const lmath = logmathInit(1.0001, 0, 0) as Pointer;
      try {
        const lm = await queued(
          () =>
            new Promise<Pointer | null>((resolve, reject) => {
              ngramModelRead.async(
                config,
                path,
                NGRAM_AUTO,
                lmath,
                (err: unknown, read: Pointer | null) =>
                  err ? reject(err as Error) : resolve(read),
              );
            }),
        );
        if (lm === null) return null;
        try {
          const [unigrams] = koffi.decode(ngramCounts(lm), 'uint32_t', 1) as number[];
          const words: string[] = [];
          for (let wid = 0; wid < (unigrams ?? 0); wid++) {
            const word = ngramWord(lm, wid) as string | null;
            if (word !== null) words.push(word);
          }
          return words;
        } finally {
          ngramModelFree(lm);
        }
      } finally {
        logmathFree(lmath);
        cmdLnFreeR(config);
      }
    },
    setLm: (p, name, lm) => psSetLm(p, name, lm) as number,
    setLmAsync: (p, name, lm) =>
      queued(
        () =>
          new Promise<number>((resolve, reject) => {
            psSetLm.async(p, name, lm, (err: unknown, rc: number) =>
              err ? reject(err as Error) : resolve(rc),
            );
          }),
      ),
    freeLm: (lm) => void ngramModelFree(lm),
    setJsgfFile: (p, name, path) => psSetJsgfFile(p, name, path) as number,
    setKws: (p, name, keyfile) => psSetKws(p, name, keyfile) as number,
    setSearch: (p, name) => psSetSearch(p, name) as number,
    getSearch: (p) => psGetSearch(p) as string | null,
    startUtt: (p) => psStartUtt(p) as number,
    processRaw: (p, samples, fullUtt) =>
      psProcessRaw(p, samples, samples.length, 0, fullUtt ? 1 : 0) as number,
    endUtt: (p) => psEndUtt(p) as number,
    getHyp: (p) => {
      const score = [0];
      const text = psGetHyp(p, score) as string | null;
      return text === null ? null : { text, score: score[0] as number };
    },
    nbest: (p, count) => {
      const out: string[] = [];
      // Hypotheses differing only in silences and fillers repeat: a few more are read.
      let it = psNbest(p) as Pointer | null;
      for (let read = 0; it !== null && out.length < count && read < count * 4; read++) {
        const text = psNbestHyp(it, [0]) as string | null;
        if (text !== null && text !== '' && !out.includes(text)) out.push(text);
        // ps_nbest_next frees the iterator itself when it runs off the end.
        it = psNbestNext(it) as Pointer | null;
      }
      if (it !== null) psNbestFree(it);
      return out;
    },
    getProb: (p) => psGetProb(p) as number,
    getNFrames: (p) => psGetNFrames(p) as number,
    getInSpeech: (p) => (psGetInSpeech(p) as number) !== 0,
    segments: (p) => {
      const out: Segment[] = [];
      let seg = psSegIter(p) as Pointer | null;
      while (seg !== null) {
        const sf = [0];
        const ef = [0];
        const ascr = [0];
        const lscr = [0];
        const lback = [0];
        psSegFrames(seg, sf, ef);
        psSegProb(seg, ascr, lscr, lback);
        out.push({
          word: psSegWord(seg) as string,
          startFrame: sf[0] as number,
          endFrame: ef[0] as number,
          acoustic: ascr[0] as number,
          language: lscr[0] as number,
          lmOrder: lback[0] as number,
        });
        // ps_seg_next frees the iterator itself when it runs off the end.
        seg = psSegNext(seg) as Pointer | null;
      }
      return out;
    },
    logToLinear: (p, logValue) => logmathExp(psGetLogmath(p), logValue) as number,
    cepstralMean: (p) => streamState?.get(p) ?? null,
    restoreStreamState: (p, mean) => streamState?.restore(p, mean) ?? false,
    frontEnd: (config) => frontEnd?.create(config) ?? null,
    freeFrontEnd: (fe) => frontEnd?.free(fe),
    meanCepstrum: (fe, samples) => frontEnd?.mean(fe, samples) ?? null,
  };
}

/** The bindings, loaded on first use. Throws `PocketsphinxUnavailableError` when the library is missing. */
export function pocketsphinx(): PocketsphinxApi {
  if (api) return api;
  if (loadError) throw loadError;
  try {
    api = bind();
    return api;
  } catch (err) {
    loadError =
      err instanceof PocketsphinxUnavailableError
        ? err
        : new PocketsphinxUnavailableError(String(err));
    throw loadError;
  }
}

/** Whether the native library loads and the model is installed (at `modelDir`). */
export function pocketsphinxAvailable(modelDir: string = DEFAULT_MODEL_DIR): boolean {
  return pocketsphinxProblem(modelDir) === null;
}

/** What keeps pocketsphinx from running (the library or a model file missing), or null. */
export function pocketsphinxProblem(modelDir: string = DEFAULT_MODEL_DIR): string | null {
  try {
    pocketsphinx();
    checkModel(modelDir);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

let mallocTrim: ((pad: number) => number) | null | undefined;

/**
 * Returns memory that freed decoders left in glibc's malloc arenas to the system
 * (`malloc_trim(0)`). Decoders are loaded on worker threads, each with its own arena, so
 * without this a peak of calls keeps its memory after they end. A no-op off glibc.
 */
export function releaseFreedMemory(): void {
  if (mallocTrim === undefined) {
    try {
      const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
      mallocTrim = (pad) => trim(pad) as number;
    } catch {
      mallocTrim = null;
    }
  }
  mallocTrim?.(0);
}
