import type { KnowledgeEntry } from '@talkbooth/protocol';
import { Bm25Index, type Bm25Options } from './bm25.js';
import { contentTerms, editDistance, normalize, stem, synonym, words } from './text.js';

/**
 * Ranked retrieval over an assistant's knowledge base. Each entry is one BM25 document made
 * of its questions (weight 1) and its answer (weight {@link ANSWER_WEIGHT}); a query's score
 * is turned into a 0–1 confidence by dividing it by what the query would score if each of
 * its terms occurred once in the questions of an average entry. Words the knowledge base
 * has never seen count against the confidence, so "what is the weather like" matches
 * nothing while "what are you're opening hours" still finds the hours.
 */

/**
 * Confidence thresholds (0–1), tuned on the demo clinic (knowledge.test.ts): its dev
 * phrasings score 0.74–1, misheard variants 0.49 (urgent) to 1, and off-topic lines and
 * brief answers at most 0.49, from a single shared word.
 */
export interface RetrievalThresholds {
  /** At or above: answer with the entry. */
  answer: number;
  /** At or above (and below `answer`): ask whether the caller meant the closest entry. */
  clarify: number;
  /** Urgent entries are matched first, at or above this lower threshold. */
  urgent: number;
}

export const DEFAULT_THRESHOLDS: Readonly<RetrievalThresholds> = {
  answer: 0.55,
  clarify: 0.3,
  urgent: 0.45,
};

/** How much an answer's word counts next to a question's. */
export const ANSWER_WEIGHT = 0.4;
/** How much a near-miss word (one or two letters off a known word) counts. */
const FUZZY_WEIGHT = 0.8;
/**
 * What an unknown word costs, as a share of a rare known word's reference score. Lower is
 * more forgiving of recogniser noise; higher makes off-topic questions fail sooner.
 */
const UNKNOWN_WORD_COST = 0.75;
/**
 * The confidence reference: a query term scores "fully" when it occurs this often in an
 * entry of average length (in two of its questions, or one question and the answer…).
 */
const REFERENCE_TF = 2;

const DEFAULT_BM25: Required<Bm25Options> = { k1: 1.2, b: 0.5 };

export interface KnowledgeMatch {
  entry: KnowledgeEntry;
  /** 0–1. */
  confidence: number;
  /** Raw BM25 score. */
  score: number;
  /** Whether a word of the query is in one of the entry's questions (not only its answer). */
  inQuestions: boolean;
}

export type Retrieval =
  | { kind: 'answer'; match: KnowledgeMatch }
  | { kind: 'clarify'; match: KnowledgeMatch }
  | { kind: 'none'; closest?: KnowledgeMatch };

export interface KnowledgeBaseOptions {
  thresholds?: Partial<RetrievalThresholds>;
  bm25?: Bm25Options;
}

/** An analysed query: term → weight, and how many words were unknown. */
export interface AnalysedQuery {
  terms: Map<string, number>;
  unknown: string[];
}

export class KnowledgeBase {
  readonly thresholds: RetrievalThresholds;
  private readonly entries: KnowledgeEntry[];
  private readonly index: Bm25Index<number>;
  private readonly vocabulary: string[];
  private readonly questionTerms: Set<string>[];
  private readonly unknownCost: number;

  constructor(entries: readonly KnowledgeEntry[], options: KnowledgeBaseOptions = {}) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
    this.entries = [...entries];
    this.index = new Bm25Index<number>({ ...DEFAULT_BM25, ...options.bm25 });
    this.questionTerms = this.entries.map((entry, i) => {
      const questionTerms = entry.questions.flatMap((q) => termsOf(q));
      this.index.add(i, [
        { terms: questionTerms, weight: 1 },
        // Each answer word once: "five five five, one two three four" is one phone number.
        { terms: [...new Set(termsOf(entry.answer))], weight: ANSWER_WEIGHT },
      ]);
      return new Set(questionTerms);
    });
    this.vocabulary = [...this.index.vocabulary()];
    // A word seen in exactly one entry: the rarest a known word can be.
    const rareIdf = Math.log(1 + (this.index.size - 1 + 0.5) / 1.5);
    this.unknownCost = UNKNOWN_WORD_COST * rareIdf;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The entry with this id. */
  get(id: string): KnowledgeEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** The caller's words as weighted index terms (with joined and near-miss words mapped). */
  analyse(text: string): AnalysedQuery {
    const ws = joinCompounds(words(text), (t) => this.index.has(t));
    const terms = new Map<string, number>();
    const unknown: string[] = [];
    for (const term of contentTerms(ws)) {
      if (this.index.has(term)) {
        terms.set(term, 1);
        continue;
      }
      const near = this.nearest(term);
      if (near !== undefined) {
        terms.set(near, Math.max(terms.get(near) ?? 0, FUZZY_WEIGHT));
      } else if (!unknown.includes(term)) {
        unknown.push(term);
      }
    }
    return { terms, unknown };
  }

  /** All entries that share a term with the text, best first, with their confidence. */
  rank(text: string, filter?: (entry: KnowledgeEntry) => boolean): KnowledgeMatch[] {
    const { terms, unknown } = this.analyse(text);
    if (terms.size === 0) return [];
    let reference = unknown.length * this.unknownCost;
    for (const [term, weight] of terms) {
      reference += weight * this.index.reference(term, REFERENCE_TF);
    }
    const hits = this.index.search(terms, filter && ((i) => filter(this.entryAt(i))));
    return hits.map((hit) => ({
      entry: this.entryAt(hit.id),
      score: hit.score,
      confidence: Math.min(1, hit.score / reference),
      inQuestions: [...terms.keys()].some((t) => this.questionTerms[hit.id]?.has(t) === true),
    }));
  }

  /** The best urgent entry at or above the urgent threshold, if any. */
  urgent(text: string): KnowledgeMatch | undefined {
    const best = this.rank(text, (e) => e.urgent === true)[0];
    return best && best.confidence >= this.thresholds.urgent ? best : undefined;
  }

  /** Answer, ask to rephrase, or nothing, for the best entry (urgent ones included). */
  retrieve(text: string): Retrieval {
    const best = this.rank(text)[0];
    if (!best) return { kind: 'none' };
    // A match on the answer's words alone is never sure enough to answer outright.
    if (best.confidence >= this.thresholds.answer && best.inQuestions) {
      return { kind: 'answer', match: best };
    }
    if (best.confidence >= this.thresholds.clarify) return { kind: 'clarify', match: best };
    return { kind: 'none', closest: best };
  }

  /** Entries that are not urgent, for "what can you do". */
  topics(): KnowledgeEntry[] {
    return this.entries.filter((e) => e.urgent !== true);
  }

  private entryAt(i: number): KnowledgeEntry {
    const entry = this.entries[i];
    if (!entry) throw new Error(`No knowledge entry ${i}`);
    return entry;
  }

  /** A known term one letter off (two for long words), for recogniser near-misses. */
  private nearest(term: string): string | undefined {
    if (term.length < 5 || /\d/.test(term)) return undefined;
    const max = term.length >= 8 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = max + 1;
    for (const known of this.vocabulary) {
      if (known.length < 4) continue;
      const d = editDistance(term, known, max);
      if (d < bestDistance) {
        best = known;
        bestDistance = d;
      }
    }
    return best;
  }
}

function termsOf(text: string): string[] {
  return contentTerms(words(text));
}

/**
 * Joins two neighbouring words when the joined word is a known term and the words alone are
 * not ("re fill" → "refill", "pharma see" stays).
 */
export function joinCompounds(ws: readonly string[], known: (term: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const a = ws[i] ?? '';
    const b = ws[i + 1];
    if (b !== undefined) {
      const joined = stem(synonym(a + b));
      if (known(joined) && !(known(stem(synonym(a))) && known(stem(synonym(b))))) {
        out.push(a + b);
        i++;
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

/** Pronouns turned round, so the caller's question can be asked back to them. */
const PERSPECTIVE: Readonly<Record<string, string>> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  am: 'are',
  you: 'we',
  your: 'our',
  yours: 'ours',
};

/**
 * How to name an entry when asking back ("Do you mean, what are our opening hours?"): the
 * entry's own `topic` field if it has one, otherwise its first question turned round.
 */
export function topicOf(entry: KnowledgeEntry): string {
  const topic = entry['topic'];
  if (typeof topic === 'string' && topic.trim() !== '') return topic.trim();
  const first = entry.questions[0] ?? entry.id;
  return normalize(first)
    .split(' ')
    .map((w) => PERSPECTIVE[w] ?? w)
    .join(' ');
}

/** A short name for an entry in lists ("hours, address and parking"). */
export function shortTopicOf(entry: KnowledgeEntry): string {
  const topic = entry['topic'];
  if (typeof topic === 'string' && topic.trim() !== '') return topic.trim();
  return entry.id.replace(/[-_]+/g, ' ');
}
