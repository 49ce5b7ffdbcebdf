/**
 * Sentence meaning: Google's Universal Sentence Encoder (lite), 512-number vectors whose
 * cosine says how close two sentences are in meaning, whatever their words (see
 * `sentence-model.ts` for where the weights come from).
 *
 * It runs on a worker thread of its own: TensorFlow.js encodes synchronously (5–50 ms a
 * sentence on this machine), and a live call's audio is paced by this process's event
 * loop. Loading takes 0.5–1.2 s, once per process. Running from TypeScript sources (unit
 * tests), where the worker is not compiled, it encodes in the calling thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EncodeRequest, EncodeResponse } from './sentence-encoder-worker.js';
import { encodeInThisThread } from './sentence-model.js';

export type SentenceVector = Float32Array;

export interface SentenceEncoder {
  /** One unit-length vector per sentence, in order. */
  encode(sentences: readonly string[]): Promise<SentenceVector[]>;
}

/** The compiled worker (absent when running from TypeScript sources). */
const WORKER_FILE = fileURLToPath(new URL('./sentence-encoder-worker.js', import.meta.url));

interface Pending {
  resolve: (vectors: SentenceVector[]) => void;
  reject: (error: Error) => void;
}

/** One worker for the process, started on first use and again after it fails. */
class WorkerEncoder implements SentenceEncoder {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  encode(sentences: readonly string[]): Promise<SentenceVector[]> {
    if (sentences.length === 0) return Promise.resolve([]);
    const worker = this.started();
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Only while it works for someone does the worker keep the process alive.
      if (this.pending.size === 1) worker.ref();
      const request: EncodeRequest = { id, sentences: [...sentences] };
      worker.postMessage(request);
    });
  }

  private started(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(WORKER_FILE);
    worker.unref();
    worker.on('message', (response: EncodeResponse) => {
      const waiting = this.pending.get(response.id);
      if (waiting === undefined) return;
      this.pending.delete(response.id);
      if (this.pending.size === 0) worker.unref();
      if (response.ok) waiting.resolve(response.vectors);
      else waiting.reject(new Error(`The sentence encoder failed: ${response.message}`));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The sentence encoder's worker exited (${code}).`)));
    this.worker = worker;
    return worker;
  }
}

const inThisThread: SentenceEncoder = { encode: encodeInThisThread };
let shared: SentenceEncoder | null = null;

/** The process's encoder. */
export function sentenceEncoder(): SentenceEncoder {
  shared ??= existsSync(WORKER_FILE) ? new WorkerEncoder() : inThisThread;
  return shared;
}

/** Cosine of two unit vectors. */
export function cosine(a: SentenceVector, b: SentenceVector): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}
