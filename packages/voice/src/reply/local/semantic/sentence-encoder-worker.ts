/**
 * The sentence encoder on a worker thread (see `sentenceEncoder`): TensorFlow.js runs each
 * encoding synchronously, 5–50 ms a sentence, which must not stall the event loop that
 * paces live calls' audio.
 */
import { parentPort } from 'node:worker_threads';
import { encodeInThisThread } from './sentence-model.js';

export interface EncodeRequest {
  id: number;
  sentences: string[];
}
export type EncodeResponse =
  { id: number; ok: true; vectors: Float32Array[] } | { id: number; ok: false; message: string };

parentPort?.on('message', (request: EncodeRequest) => {
  encodeInThisThread(request.sentences).then(
    (vectors) => {
      const response: EncodeResponse = { id: request.id, ok: true, vectors };
      parentPort?.postMessage(
        response,
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const response: EncodeResponse = { id: request.id, ok: false, message };
      parentPort?.postMessage(response);
    },
  );
});
