/**
 * Moonshine tiny (Useful Sensors, MIT licence): a 27 M-parameter encoder-decoder speech
 * recogniser for English, run with onnxruntime-node on the CPU. The quantized ONNX files
 * ship inside the `@moonshine-ai/moonshine-js` npm package, so nothing is downloaded at
 * install or run time.
 *
 * It reads a whole utterance at once (its cost grows with the audio's length, not a fixed
 * 30 s window), so it runs when the caller stops. Measured on this machine (2 cores, one
 * thread per run): a 2.5 s question takes about 13 ms to encode and 60 ms to decode; the
 * sessions load in about 0.7 s and hold about 70 MB, shared by every call. Each reading
 * asked for beside the best adds about 20–25 ms on a short question, 50 ms on a long one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import llamaTokenizer from 'llama-tokenizer-js';
import * as ort from 'onnxruntime-node';
import type { ReadingOptions } from './moonshine-thread.js';
import { LRUCache } from 'lru-cache';
import { advance, type BiasNode, favoured, type WordBias, wordBias } from './word-bias.js';

/** The model's input rate. */
export const MOONSHINE_SAMPLE_RATE = 16_000;

/** The tiny model's decoder shape (its KV cache per layer). */
const TINY = { layers: 6, kvHeads: 8, headDim: 36 } as const;
const START_TOKEN = 1;
const END_TOKEN = 2;
/** Upstream's bound on tokens per second of audio: a decoder that loops stops there. */
const MAX_TOKENS_PER_SECOND = 6;
/**
 * A step is read again from its runner-up only when that token's logit was at most this
 * far behind (the runner-up at least e^-4, about 2 %, as likely as the token taken).
 */
const FORK_MAX_GAP = 4;

/** Assistants whose word bias a model keeps made (a few hundred words each). */
const BIASES_KEPT = 32;

/** The tiny model's quantized ONNX files. */
export const MOONSHINE_MODEL_FILES = ['encoder_model.onnx', 'decoder_model_merged.onnx'] as const;

/** Where the npm package keeps the tiny model's quantized ONNX files. */
export function moonshineModelDir(): string {
  // The package exports only its browser bundle; the model sits beside it.
  const bundle = fileURLToPath(import.meta.resolve('@moonshine-ai/moonshine-js'));
  return path.join(path.dirname(bundle), 'model', 'tiny', 'quantized');
}

export interface MoonshineTranscript {
  text: string;
  /** Other readings, from the steps where the decoder was least sure (when asked for). */
  alternatives?: string[];
  /** Tokens the decoder produced (its end token excluded). */
  tokens: number;
  /** True when the decoder hit the length bound instead of ending by itself. */
  truncated: boolean;
}

type Feeds = Record<string, ort.Tensor>;

interface Candidate {
  token: number;
  logit: number;
}

/** A place where decoding could have gone another way. */
interface Fork {
  /** The tokens before it. */
  prefix: number[];
  /** The runner-up token there. */
  token: number;
  /** How far the runner-up's logit was behind the token taken (a log-probability ratio). */
  gap: number;
  /** The decoder's cache after that step, for reading on from the runner-up. */
  past: Feeds;
}

export class MoonshineModel {
  private disposed = false;
  /** Biases made for the assistants whose calls this model reads, by their texts. */
  readonly #biases = new LRUCache<string, WordBias>({ max: BIASES_KEPT });

  private constructor(
    private readonly encoder: ort.InferenceSession,
    private readonly decoder: ort.InferenceSession,
  ) {}

  /**
   * Loads both sessions, one thread per run. onnxruntime-node runs a session on the
   * calling thread, so each run holds that thread while it computes (about 85 % of a
   * transcription's time, measured): calls use it on a worker thread
   * (`MoonshineThread`), not on the event loop that paces their audio.
   */
  static async load(modelDir: string = moonshineModelDir()): Promise<MoonshineModel> {
    const options: ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    };
    // Both loads are waited for, even when one fails at once: a load still under way in
    // native code when its thread stops aborts the process (see `MoonshineThread`).
    const loads = await Promise.allSettled(
      MOONSHINE_MODEL_FILES.map((file) =>
        ort.InferenceSession.create(path.join(modelDir, file), options),
      ),
    );
    const [encoder, decoder] = loads.map((l) => (l.status === 'fulfilled' ? l.value : undefined));
    if (encoder === undefined || decoder === undefined) {
      await Promise.all([encoder?.release(), decoder?.release()]);
      const failed = loads.find((l) => l.status === 'rejected');
      throw failed?.reason instanceof Error
        ? failed.reason
        : new Error('The Moonshine model did not load.');
    }
    return new MoonshineModel(encoder, decoder);
  }

  /**
   * Transcribes 16 kHz mono samples in [-1, 1] (greedy decoding). With `alternatives`, it
   * also reads the utterance again from the steps where the decoder was least sure (its
   * runner-up token close to the token it took), up to that many times: an N-best list
   * made by branching, for checks that must not miss a word the model nearly heard.
   * An aborted `signal` stops the reading between two steps (it rejects with the reason);
   * `urgency` orders the readings of a `MoonshineThread` only: here each starts at once.
   * With `bias`, the words of those texts are favoured where the decoder hesitates (see
   * `word-bias.ts`).
   */
  async transcribe(
    samples: Float32Array,
    options: ReadingOptions = {},
  ): Promise<MoonshineTranscript> {
    if (this.disposed) throw new Error('The Moonshine model was closed.');
    const { signal } = options;
    signal?.throwIfAborted();
    // Under a tenth of a second holds no word; the encoder also needs a few frames.
    if (samples.length < MOONSHINE_SAMPLE_RATE / 10)
      return { text: '', tokens: 0, truncated: false };
    const encoded = await this.encoder.run({
      input_values: new ort.Tensor('float32', samples, [1, samples.length]),
    });
    const hidden = encoded['last_hidden_state'];
    if (hidden === undefined) throw new Error('The Moonshine encoder gave no hidden state.');

    const maxTokens = Math.max(
      4,
      Math.trunc((samples.length / MOONSHINE_SAMPLE_RATE) * MAX_TOKENS_PER_SECOND),
    );
    const wanted = options.alternatives ?? 0;
    const forks: Fork[] = [];
    const bias = options.bias === undefined ? undefined : this.#biasFor(options.bias);
    const best = await this.#decode(
      hidden,
      maxTokens,
      { prefix: [], next: START_TOKEN, past: emptyCache(), at: undefined },
      bias,
      signal,
      (fork) => {
        if (wanted > 0) forks.push(fork);
      },
    );
    const transcript: MoonshineTranscript = {
      text: decode(best.tokens),
      tokens: best.tokens.length,
      truncated: best.truncated,
    };
    if (wanted === 0) return transcript;

    const alternatives: string[] = [];
    const closest = forks
      // A runner-up that ends the utterance or is only punctuation changes no word.
      .filter((f) => f.gap <= FORK_MAX_GAP && f.token !== END_TOKEN && holdsWord(f.token))
      .sort((a, b) => a.gap - b.gap)
      .slice(0, wanted);
    for (const fork of closest) {
      // Read on without the bias: the other readings are worth what the model itself nearly
      // heard, not the assistant's words favoured once more.
      const other = await this.#decode(
        hidden,
        maxTokens,
        { prefix: [...fork.prefix, fork.token], next: fork.token, past: fork.past, at: undefined },
        undefined,
        signal,
        () => undefined,
      );
      const text = decode(other.tokens);
      if (text !== '' && text !== transcript.text && !alternatives.includes(text))
        alternatives.push(text);
    }
    return { ...transcript, alternatives };
  }

  /**
   * Greedy decoding from `from.prefix` (its last token `from.next` not yet fed, `from.past`
   * the cache before it, `from.at` where the word begun stands in the bias's tree),
   * reporting at each step the runner-up token and how far behind it was.
   */
  async #decode(
    hidden: ort.OnnxValue,
    maxTokens: number,
    from: { prefix: number[]; next: number; past: Feeds; at: BiasNode | undefined },
    bias: WordBias | undefined,
    signal: AbortSignal | undefined,
    onStep: (fork: Fork) => void,
  ): Promise<{ tokens: number[]; truncated: boolean }> {
    const { prefix } = from;
    let { next, past, at } = from;
    const tokens = [...prefix];
    let step = prefix.length;
    for (; step < maxTokens; step++) {
      signal?.throwIfAborted();
      const output = await this.decoder.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(next)), [1, 1]),
        encoder_hidden_states: hidden,
        use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
        ...past,
      });
      past = nextCache(past, output, step === 0);
      const [first, second] = topTwo(output['logits'], bias, at);
      onStep({ prefix: [...tokens], token: second.token, gap: first.logit - second.logit, past });
      next = first.token;
      if (next === END_TOKEN) return { tokens, truncated: false };
      tokens.push(next);
      if (bias !== undefined) at = advance(bias, at, next);
    }
    return { tokens, truncated: true };
  }

  /** The bias for these texts, made once for each assistant's (its calls ask again and again). */
  #biasFor(texts: readonly string[]): WordBias {
    const key = texts.join('\n');
    let bias = this.#biases.get(key);
    if (bias === undefined) this.#biases.set(key, (bias = wordBias(texts)));
    return bias;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([this.encoder.release(), this.decoder.release()]);
  }
}

function cacheNames(): { name: string; source: 'decoder' | 'encoder' }[] {
  const names: { name: string; source: 'decoder' | 'encoder' }[] = [];
  for (let layer = 0; layer < TINY.layers; layer++) {
    for (const source of ['decoder', 'encoder'] as const) {
      for (const part of ['key', 'value'])
        names.push({ name: `past_key_values.${layer}.${source}.${part}`, source });
    }
  }
  return names;
}
const CACHE = cacheNames();

function emptyCache(): Feeds {
  const feeds: Feeds = {};
  for (const { name } of CACHE) {
    feeds[name] = new ort.Tensor('float32', new Float32Array(0), [
      0,
      TINY.kvHeads,
      1,
      TINY.headDim,
    ]);
  }
  return feeds;
}

/**
 * The cache for the next step: the decoder's self-attention cache grows every step; the
 * cross-attention (encoder) cache is computed once, on the first step, and kept.
 */
function nextCache(
  past: Feeds,
  output: ort.InferenceSession.OnnxValueMapType,
  first: boolean,
): Feeds {
  const feeds: Feeds = {};
  for (const { name, source } of CACHE) {
    const present = output[name.replace('past_key_values', 'present')];
    const previous = past[name];
    if (source === 'decoder' || first) {
      if (!(present instanceof ort.Tensor))
        throw new Error(`The Moonshine decoder gave no ${name}.`);
      feeds[name] = present;
    } else if (previous !== undefined) {
      feeds[name] = previous;
    }
  }
  return feeds;
}

/**
 * The two most likely next tokens and their logits, the bias's favoured tokens (at `at`)
 * with its weight added.
 */
function topTwo(
  logits: ort.Tensor | undefined,
  bias: WordBias | undefined,
  at: BiasNode | undefined,
): [Candidate, Candidate] {
  if (logits === undefined) throw new Error('The Moonshine decoder gave no logits.');
  const data = logits.data as Float32Array;
  const vocabulary = logits.dims.at(-1) ?? data.length;
  const offset = data.length - vocabulary;
  const first = { token: -1, logit: -Infinity };
  const second = { token: -1, logit: -Infinity };
  for (let i = 0; i < vocabulary; i++) {
    const logit = data[offset + i] ?? -Infinity;
    if (logit > first.logit) {
      second.token = first.token;
      second.logit = first.logit;
      first.token = i;
      first.logit = logit;
    } else if (logit > second.logit) {
      second.token = i;
      second.logit = logit;
    }
  }
  if (bias === undefined) return [first, second];
  // Every other token is behind the runner-up unless the bias raises it: the two are
  // among these.
  const raised = new Map([
    [first.token, first.logit],
    [second.token, second.logit],
  ]);
  for (const token of favoured(bias, at)) {
    if (token < vocabulary) raised.set(token, (data[offset + token] ?? -Infinity) + bias.weight);
  }
  const [a, b] = [...raised].sort((x, y) => y[1] - x[1]);
  return [
    { token: a?.[0] ?? first.token, logit: a?.[1] ?? first.logit },
    { token: b?.[0] ?? second.token, logit: b?.[1] ?? second.logit },
  ];
}

/** Whether a token spells part of a word (not only punctuation, spacing or a special token). */
function holdsWord(token: number): boolean {
  return /[\p{L}\p{N}]/u.test(decode([token]));
}

function decode(tokens: number[]): string {
  // Moonshine's vocabulary is Llama's SentencePiece one; its ids past Llama's 32 000 are
  // special tokens, never text.
  const words = tokens.filter((id) => id < llamaTokenizer.vocabById.length);
  return words.length === 0 ? '' : llamaTokenizer.decode(words, false, true).trim();
}
