/**
 * The parts of sphinxbase behind channel adaptation (cepstral-mean normalisation): the
 * decoder's live mean, and a front end to measure an utterance's own mean. Bound apart
 * from the rest of the API because each may be missing from a build of the library.
 */
import koffi, { type LibraryHandle } from 'koffi';
import type { Pointer } from './native.js';

/**
 * The cepstral-mean state lives in sphinxbase's `feat_t` (`cmn_struct`), which the C API
 * only hands out as a pointer: the leading fields of `feat_t` and `cmn_t` below follow
 * sphinxbase 5prealpha's `feat.h` and `cmn.h`, and are checked on use (13 cepstra, one
 * stream, a vector length that matches) before anything is read or written. A library
 * whose layout differs, or that lacks the functions, gets null: decoders then keep
 * adapting across utterances, as before.
 */
export function bindStreamState(
  ps: LibraryHandle,
  sb: LibraryHandle,
): {
  get(p: Pointer): Float32Array | null;
  restore(p: Pointer, mean: Float32Array): boolean;
} | null {
  try {
    const featHead = koffi.struct('talkbooth_feat_head', {
      refcount: 'int',
      name: 'void *',
      cepsize: 'int32',
      n_stream: 'int32',
      stream_len: 'void *',
      window_size: 'int32',
      n_sv: 'int32',
      sv_len: 'void *',
      subvecs: 'void *',
      sv_buf: 'void *',
      sv_dim: 'int32',
      cmn: 'int',
      varnorm: 'int32',
      agc: 'int',
      compute_feat: 'void *',
      cmn_struct: 'void *',
    });
    const cmnHead = koffi.struct('talkbooth_cmn_head', {
      cmn_mean: 'void *',
      cmn_var: 'void *',
      sum: 'void *',
      nframe: 'int32',
      veclen: 'int32',
    });
    const psGetFeat = ps.func('void *ps_get_feat(ps_decoder_t *ps)');
    const psStartStream = ps.func('int ps_start_stream(ps_decoder_t *ps)');
    const cmnLiveGet = sb.func('void cmn_live_get(void *cmn, _Out_ float *vec)');
    const cmnLiveSet = sb.func('void cmn_live_set(void *cmn, const float *vec)');
    const cmnOf = (p: Pointer): { cmn: Pointer; length: number } | null => {
      const feat = psGetFeat(p) as Pointer | null;
      if (feat === null) return null;
      const head = koffi.decode(feat, featHead) as {
        cepsize: number;
        n_stream: number;
        cmn_struct: Pointer | null;
      };
      if (head.cepsize !== 13 || head.n_stream !== 1 || head.cmn_struct === null) return null;
      const cmn = koffi.decode(head.cmn_struct, cmnHead) as { veclen: number };
      return cmn.veclen === head.cepsize ? { cmn: head.cmn_struct, length: cmn.veclen } : null;
    };
    return {
      get: (p) => {
        const c = cmnOf(p);
        if (!c) return null;
        const mean = new Float32Array(c.length);
        cmnLiveGet(c.cmn, mean);
        return mean;
      },
      restore: (p, mean) => {
        const c = cmnOf(p);
        if (!c || c.length !== mean.length) return false;
        if ((psStartStream(p) as number) < 0) return false;
        cmnLiveSet(c.cmn, mean);
        return true;
      },
    };
  } catch {
    return null;
  }
}

/** sphinxbase's feature front end, alone; null when the library lacks it. */
export function bindFrontEnd(sb: LibraryHandle): {
  create(config: Pointer): Pointer | null;
  free(fe: Pointer): void;
  mean(fe: Pointer, samples: Int16Array): Float32Array | null;
} | null {
  try {
    const feInit = sb.func('void *fe_init_auto_r(cmd_ln_t *config)');
    const feFree = sb.func('int fe_free(void *fe)');
    const feOutputSize = sb.func('int fe_get_output_size(void *fe)');
    const feStartStream = sb.func('void fe_start_stream(void *fe)');
    const feStartUtt = sb.func('int fe_start_utt(void *fe)');
    const feProcessUtt = sb.func(
      'int fe_process_utt(void *fe, const int16_t *spch, size_t nsamps, _Out_ void **cep_block, _Out_ int32_t *nframes)',
    );
    const feFree2d = sb.func('void fe_free_2d(void *arr)');
    return {
      create: (config) => feInit(config) as Pointer | null,
      free: (fe) => void feFree(fe),
      mean: (fe, samples) => {
        const width = feOutputSize(fe) as number;
        feStartStream(fe);
        feStartUtt(fe);
        const block: (Pointer | null)[] = [null];
        const count = [0];
        const rc = feProcessUtt(fe, samples, samples.length, block, count) as number;
        const cep = block[0] ?? null;
        if (cep === null) return null;
        try {
          const frames = count[0] as number;
          if (rc < 0 || frames <= 0 || width <= 0) return null;
          // fe_process_utt's block is an array of row pointers into one contiguous buffer.
          const rows = koffi.decode(cep, 'void *', 1) as Pointer[];
          const values = koffi.decode(rows[0] as Pointer, 'float', frames * width) as number[];
          const sum = new Float64Array(width);
          for (let i = 0; i < frames; i++)
            for (let k = 0; k < width; k++)
              sum[k] = (sum[k] as number) + (values[i * width + k] as number);
          return Float32Array.from(sum, (v) => v / frames);
        } finally {
          feFree2d(cep);
        }
      },
    };
  } catch {
    return null;
  }
}
