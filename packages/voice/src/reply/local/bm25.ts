/**
 * Okapi BM25 over a small in-memory collection. A document is built from weighted fields
 * (BM25F-style: a term's frequency and the document's length are summed with each field's
 * weight), so a knowledge entry's questions can count more than its answer.
 *
 *   score(q, d) = Σ_t w_q(t) · idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 */
export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). Default 0.75. */
  b?: number;
}

export interface Bm25Field {
  terms: readonly string[];
  /** How much one occurrence in this field counts. Default 1. */
  weight?: number;
}

export interface Bm25Hit<Id> {
  id: Id;
  score: number;
}

interface Doc<Id> {
  id: Id;
  tf: Map<string, number>;
  length: number;
}

export class Bm25Index<Id> {
  readonly k1: number;
  readonly b: number;
  private readonly docs: Doc<Id>[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
  }

  /** Adds a document made of one or more weighted fields. */
  add(id: Id, fields: readonly Bm25Field[]): void {
    const tf = new Map<string, number>();
    let length = 0;
    for (const field of fields) {
      const weight = field.weight ?? 1;
      for (const term of field.terms) {
        tf.set(term, (tf.get(term) ?? 0) + weight);
        length += weight;
      }
    }
    for (const term of tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    this.docs.push({ id, tf, length });
    this.totalLength += length;
  }

  get size(): number {
    return this.docs.length;
  }

  get averageLength(): number {
    return this.docs.length === 0 ? 0 : this.totalLength / this.docs.length;
  }

  /** Whether any document has the term. */
  has(term: string): boolean {
    return this.df.has(term);
  }

  /** All terms of the collection. */
  vocabulary(): IterableIterator<string> {
    return this.df.keys();
  }

  /** Inverse document frequency; a term no document has gets the highest value. */
  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    const N = this.docs.length;
    return Math.log(1 + (N - n + 0.5) / (n + 0.5));
  }

  /**
   * The contribution of a term seen with frequency `tf` in a document of average length:
   * idf · tf·(k1+1) / (tf + k1). Used to scale scores into a 0–1 confidence.
   */
  reference(term: string, tf = 1): number {
    return (this.idf(term) * (tf * (this.k1 + 1))) / (tf + this.k1);
  }

  /** Scores one document for the query (term → query weight). */
  private scoreDoc(doc: Doc<Id>, query: ReadonlyMap<string, number>): number {
    const avgdl = this.averageLength || 1;
    let score = 0;
    for (const [term, weight] of query) {
      const f = doc.tf.get(term);
      if (f === undefined) continue;
      const norm = this.k1 * (1 - this.b + (this.b * doc.length) / avgdl);
      score += weight * this.idf(term) * ((f * (this.k1 + 1)) / (f + norm));
    }
    return score;
  }

  /**
   * Every document with a positive score, best first (ties keep insertion order).
   * `filter` limits the documents considered.
   */
  search(query: ReadonlyMap<string, number>, filter?: (id: Id) => boolean): Bm25Hit<Id>[] {
    const hits: Bm25Hit<Id>[] = [];
    for (const doc of this.docs) {
      if (filter && !filter(doc.id)) continue;
      const score = this.scoreDoc(doc, query);
      if (score > 0) hits.push({ id: doc.id, score });
    }
    return hits.sort((x, y) => y.score - x.score);
  }
}

/** A query with every term weighted 1 (repeated terms count once). */
export function queryOf(terms: readonly string[]): Map<string, number> {
  return new Map(terms.map((t) => [t, 1]));
}
