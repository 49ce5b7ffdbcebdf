/**
 * A trigram language model with interpolated Kneser-Ney smoothing (one absolute discount
 * per order, estimated from the count-of-counts), written and read in ARPA format.
 *
 * In ARPA form every listed n-gram carries its interpolated probability and every history
 * its back-off weight γ(h) = D·N₁₊(h•)/c(h); for an unlisted word the probability is
 * γ(h)·P(w | shorter history). Because the interpolated distributions sum to one and the
 * unlisted words get exactly the interpolation mass, every history's distribution sums to
 * one (see `checkNormalisation`).
 */

export const SENTENCE_START = '<s>';
export const SENTENCE_END = '</s>';

export interface ArpaEntry {
  /** log10 probability. */
  logProb: number;
  /** log10 back-off weight (0 when the n-gram is never a history). */
  backoff: number;
}

export interface ArpaModel {
  /** `ngrams[n - 1]` maps the space-joined n-gram to its entry. */
  ngrams: Map<string, ArpaEntry>[];
}

const LOG10_ZERO = -99;

function bump(map: Map<string, number>, key: string, by: number): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Ney's estimate D = n₁/(n₁ + 2n₂), kept in a sane range for tiny corpora. */
export function discountFromCounts(counts: Iterable<number>): number {
  let n1 = 0;
  let n2 = 0;
  for (const c of counts) {
    if (c === 1) n1++;
    else if (c === 2) n2++;
  }
  if (n1 === 0 || n2 === 0) return 0.5;
  return Math.min(0.9, Math.max(0.1, n1 / (n1 + 2 * n2)));
}

function historyOf(key: string): string {
  const i = key.lastIndexOf(' ');
  return i < 0 ? '' : key.slice(0, i);
}
function lastWord(key: string): string {
  return key.slice(key.lastIndexOf(' ') + 1);
}
function dropFirst(key: string): string {
  const i = key.indexOf(' ');
  return i < 0 ? '' : key.slice(i + 1);
}

/**
 * Trains an interpolated Kneser-Ney trigram model on weighted sentences (word arrays and
 * their counts; counts should be whole numbers).
 */
export function trainKneserNey(corpus: Iterable<readonly [readonly string[], number]>): ArpaModel {
  const c3 = new Map<string, number>();
  const c2start = new Map<string, number>();
  for (const [sentence, weight] of corpus) {
    if (sentence.length === 0 || weight <= 0) continue;
    const t = [SENTENCE_START, ...sentence, SENTENCE_END];
    bump(c2start, `${t[0]} ${t[1]}`, weight);
    for (let i = 2; i < t.length; i++) bump(c3, `${t[i - 2]} ${t[i - 1]} ${t[i]}`, weight);
  }

  // Order 2: continuation counts N₁₊(• v w), except after <s> (nothing precedes it).
  const c2 = new Map<string, number>(c2start);
  for (const key of c3.keys()) {
    const bigram = dropFirst(key);
    if (!bigram.startsWith(`${SENTENCE_START} `)) bump(c2, bigram, 1);
  }
  // Order 1: continuation counts N₁₊(• w).
  const c1 = new Map<string, number>();
  for (const key of c2.keys()) bump(c1, lastWord(key), 1);
  c1.delete(SENTENCE_START);

  const d = [
    discountFromCounts(c1.values()),
    discountFromCounts(c2.values()),
    discountFromCounts(c3.values()),
  ];

  // Unigrams, interpolated with the uniform distribution over the vocabulary.
  const vocabSize = c1.size;
  let total1 = 0;
  for (const c of c1.values()) total1 += c;
  const gamma1 = ((d[0] as number) * c1.size) / total1;
  const p1 = new Map<string, number>();
  for (const [w, c] of c1)
    p1.set(w, Math.max(c - (d[0] as number), 0) / total1 + gamma1 / vocabSize);

  function higherOrder(
    counts: Map<string, number>,
    discount: number,
    lower: (key: string) => number,
  ) {
    const totals = new Map<string, { sum: number; types: number }>();
    for (const [key, c] of counts) {
      const h = historyOf(key);
      const t = totals.get(h) ?? { sum: 0, types: 0 };
      t.sum += c;
      t.types += 1;
      totals.set(h, t);
    }
    const gamma = new Map<string, number>();
    for (const [h, t] of totals) gamma.set(h, (discount * t.types) / t.sum);
    const probs = new Map<string, number>();
    for (const [key, c] of counts) {
      const t = totals.get(historyOf(key)) as { sum: number; types: number };
      probs.set(
        key,
        Math.max(c - discount, 0) / t.sum +
          (gamma.get(historyOf(key)) as number) * lower(dropFirst(key)),
      );
    }
    return { probs, gamma };
  }

  const unigram = (w: string): number => p1.get(w) ?? 0;
  const o2 = higherOrder(c2, d[1] as number, unigram);
  const bigram = (key: string): number => {
    const listed = o2.probs.get(key);
    if (listed !== undefined) return listed;
    return (o2.gamma.get(historyOf(key)) ?? 1) * unigram(lastWord(key));
  };
  const o3 = higherOrder(c3, d[2] as number, bigram);

  const log10 = (p: number): number => (p > 0 ? Math.log10(p) : LOG10_ZERO);
  const g1 = new Map<string, ArpaEntry>();
  for (const [w, p] of p1) g1.set(w, { logProb: log10(p), backoff: log10(o2.gamma.get(w) ?? 1) });
  g1.set(SENTENCE_START, {
    logProb: LOG10_ZERO,
    backoff: log10(o2.gamma.get(SENTENCE_START) ?? 1),
  });
  const g2 = new Map<string, ArpaEntry>();
  for (const [k, p] of o2.probs)
    g2.set(k, { logProb: log10(p), backoff: log10(o3.gamma.get(k) ?? 1) });
  const g3 = new Map<string, ArpaEntry>();
  for (const [k, p] of o3.probs) g3.set(k, { logProb: log10(p), backoff: 0 });
  return { ngrams: [g1, g2, g3] };
}

function fmt(x: number): string {
  const s = x.toFixed(6);
  return s === '-0.000000' ? '0.000000' : s;
}

/** The model as ARPA text (n-grams sorted, 6-decimal log10 values). */
export function formatArpa(model: ArpaModel): string {
  const out: string[] = ['\\data\\'];
  model.ngrams.forEach((g, i) => out.push(`ngram ${i + 1}=${g.size}`));
  const highest = model.ngrams.length;
  model.ngrams.forEach((g, i) => {
    out.push('', `\\${i + 1}-grams:`);
    for (const key of [...g.keys()].sort()) {
      const e = g.get(key) as ArpaEntry;
      out.push(
        i + 1 < highest && e.backoff !== 0
          ? `${fmt(e.logProb)}\t${key}\t${fmt(e.backoff)}`
          : `${fmt(e.logProb)}\t${key}`,
      );
    }
  });
  out.push('', '\\end\\', '');
  return out.join('\n');
}

/** Parses ARPA text; throws when the header counts disagree with the sections. */
export function parseArpa(text: string): ArpaModel {
  const lines = text.split(/\r?\n/);
  const declared: number[] = [];
  const ngrams: Map<string, ArpaEntry>[] = [];
  let section = 0;
  let sawData = false;
  let sawEnd = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (line === '\\data\\') {
      sawData = true;
      continue;
    }
    if (line === '\\end\\') {
      sawEnd = true;
      break;
    }
    const header = /^ngram (\d+)=(\d+)$/.exec(line);
    if (header && section === 0) {
      declared[Number(header[1]) - 1] = Number(header[2]);
      continue;
    }
    const start = /^\\(\d+)-grams:$/.exec(line);
    if (start) {
      section = Number(start[1]);
      ngrams[section - 1] = new Map();
      continue;
    }
    if (section === 0) throw new Error(`ARPA: unexpected line before the first section: ${line}`);
    const fields = line.split(/\s+/);
    const n = section;
    if (fields.length !== n + 1 && fields.length !== n + 2)
      throw new Error(`ARPA: malformed ${n}-gram line: ${line}`);
    const logProb = Number(fields[0]);
    const backoff = fields.length === n + 2 ? Number(fields[n + 1]) : 0;
    if (!Number.isFinite(logProb) || !Number.isFinite(backoff))
      throw new Error(`ARPA: bad number in: ${line}`);
    (ngrams[n - 1] as Map<string, ArpaEntry>).set(fields.slice(1, n + 1).join(' '), {
      logProb,
      backoff,
    });
  }
  if (!sawData || !sawEnd) throw new Error('ARPA: missing \\data\\ or \\end\\');
  declared.forEach((count, i) => {
    const got = ngrams[i]?.size ?? -1;
    if (got !== count)
      throw new Error(`ARPA: header says ngram ${i + 1}=${count} but the section has ${got}`);
  });
  if (ngrams.length !== declared.length) throw new Error('ARPA: sections and header disagree');
  return { ngrams };
}

/** log10 P(word | history) with ARPA back-off (the history's last words are used). */
export function logProbability(model: ArpaModel, history: readonly string[], word: string): number {
  const maxHistory = model.ngrams.length - 1;
  const h = history.slice(Math.max(0, history.length - maxHistory));
  let backoff = 0;
  for (let start = 0; start <= h.length; start++) {
    const ctx = h.slice(start);
    const entry = model.ngrams[ctx.length]?.get([...ctx, word].join(' '));
    if (entry) return backoff + entry.logProb;
    const ctxEntry = ctx.length > 0 ? model.ngrams[ctx.length - 1]?.get(ctx.join(' ')) : undefined;
    backoff += ctxEntry?.backoff ?? 0;
  }
  return LOG10_ZERO;
}

/**
 * For every history in the model, Σ_w P(w | history) over the vocabulary (without `<s>`).
 * Answers the largest deviation from one.
 */
export function checkNormalisation(model: ArpaModel): {
  histories: number;
  maxError: number;
  worst: string;
} {
  const vocab = [...(model.ngrams[0]?.keys() ?? [])].filter((w) => w !== SENTENCE_START);
  const histories: string[][] = [[]];
  for (let n = 1; n < model.ngrams.length; n++) {
    for (const key of model.ngrams[n - 1]?.keys() ?? []) {
      if (!key.endsWith(SENTENCE_END)) histories.push(key.split(' '));
    }
  }
  let maxError = 0;
  let worst = '';
  for (const h of histories) {
    let sum = 0;
    for (const w of vocab) sum += 10 ** logProbability(model, h, w);
    const err = Math.abs(sum - 1);
    if (err > maxError) {
      maxError = err;
      worst = h.join(' ');
    }
  }
  return { histories: histories.length, maxError, worst };
}
