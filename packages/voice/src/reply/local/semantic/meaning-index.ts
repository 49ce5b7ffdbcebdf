import { LRUCache } from 'lru-cache';
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { cosine, type SentenceEncoder, type SentenceVector } from './sentence-encoder.js';

/** How close in meaning a caller's sentence is to one knowledge-base entry. */
export interface MeaningScore {
  /** The entry's position in the knowledge base. */
  entry: number;
  /** The cosine to the entry's closest question (or its answer), about 0–1. */
  similarity: number;
}

/** Caller sentences remembered per knowledge base (a call weighs each turn's readings several times). */
const SENTENCE_CACHE_SIZE = 512;
/** Knowledge bases whose entry vectors are kept, for the next call of the same assistant. */
const ENTRY_CACHE_SIZE = 32;

type EntryVectors = { entry: number; vector: SentenceVector }[];
const entryCache = new Map<string, Promise<EntryVectors>>();

function entryVectors(
  texts: readonly { entry: number; text: string }[],
  encoder: SentenceEncoder,
): Promise<EntryVectors> {
  const key = JSON.stringify(texts);
  const cached = entryCache.get(key);
  if (cached !== undefined) return cached;
  const loading = encoder
    .encode(texts.map((t) => t.text))
    .then((vectors) => vectors.map((vector, i) => ({ entry: texts[i]?.entry ?? 0, vector })));
  loading.catch(() => entryCache.delete(key));
  entryCache.set(key, loading);
  while (entryCache.size > ENTRY_CACHE_SIZE) {
    const oldest = entryCache.keys().next().value;
    if (oldest === undefined) break;
    entryCache.delete(oldest);
  }
  return loading;
}

/**
 * The entries of one knowledge base as sentence vectors (each question, and the answer),
 * and the caller's sentences as they are prepared. Encoding is asynchronous; ranking is
 * not, so the dialog (which hears a call's turns synchronously) asks only about
 * sentences prepared beforehand (`prepare`), and goes without meaning for any other.
 */
export class MeaningIndex {
  private ready: EntryVectors | null = null;
  private readonly texts: { entry: number; text: string }[];
  private readonly sentences = new LRUCache<string, SentenceVector>({ max: SENTENCE_CACHE_SIZE });
  /** Sentences whose encoding is under way, and when it settles. */
  private readonly encoding = new Map<string, Promise<void>>();

  /**
   * `normalize` puts the entries' questions and answers into the form the caller's
   * sentences are prepared and ranked in.
   */
  constructor(
    entries: readonly KnowledgeEntry[],
    private readonly encoder: SentenceEncoder,
    normalize: (text: string) => string,
  ) {
    this.texts = entries.flatMap((e, entry) =>
      [...e.questions, e.answer].map((text) => ({ entry, text: normalize(text) })),
    );
  }

  /**
   * Encodes the entries (once per knowledge base) and whichever of these sentences are new.
   * A sentence already being encoded (readied early, at the caller's pause) is waited for,
   * not encoded again.
   */
  async prepare(sentences: readonly string[]): Promise<void> {
    const wanted = [...new Set(sentences)].filter((s) => s !== '' && !this.sentences.has(s));
    const fresh = wanted.filter((s) => !this.encoding.has(s));
    const encoded = Promise.all([
      entryVectors(this.texts, this.encoder),
      this.encoder.encode(fresh),
    ]).then(([entries, vectors]) => {
      this.ready = entries;
      for (const [i, sentence] of fresh.entries()) {
        const vector = vectors[i];
        if (vector !== undefined) this.sentences.set(sentence, vector);
      }
    });
    const settled = encoded.finally(() => {
      for (const sentence of fresh) this.encoding.delete(sentence);
    });
    // Whoever waits for one of these sentences learns of a failure through `prepare`.
    settled.catch(() => undefined);
    for (const sentence of fresh) this.encoding.set(sentence, settled);
    const elsewhere = wanted.filter((s) => !fresh.includes(s)).map((s) => this.encoding.get(s));
    await Promise.all([encoded, ...elsewhere]);
  }

  /**
   * Every entry's closeness to a prepared sentence, closest first; undefined for a
   * sentence not prepared (or before the entries are).
   */
  rank(sentence: string): MeaningScore[] | undefined {
    const vector = this.sentences.get(sentence);
    if (vector === undefined || this.ready === null) return undefined;
    const best = new Map<number, number>();
    for (const { entry, vector: v } of this.ready) {
      best.set(entry, Math.max(best.get(entry) ?? -1, cosine(vector, v)));
    }
    return [...best]
      .map(([entry, similarity]) => ({ entry, similarity }))
      .sort((a, b) => b.similarity - a.similarity);
  }
}
