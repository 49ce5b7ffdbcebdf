// Summary statistics for benchmark samples.

/** The q-quantile (0..1) of `values` by nearest rank; null when there are none. */
export function quantile(values, q) {
  const sorted = values
    .filter((v) => typeof v === 'number' && Number.isFinite(v))
    .sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function mean(values) {
  const numbers = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  return numbers.length === 0 ? null : numbers.reduce((a, b) => a + b, 0) / numbers.length;
}

/** p50, p95, p99, mean and count of a sample, rounded to `digits`. */
export function summarise(values, digits = 1) {
  const round = (v) => (v === null ? null : Number(v.toFixed(digits)));
  return {
    count: values.length,
    p50: round(quantile(values, 0.5)),
    p95: round(quantile(values, 0.95)),
    p99: round(quantile(values, 0.99)),
    mean: round(mean(values)),
  };
}

/** a / b, rounded, or null. */
export function ratio(a, b, digits = 2) {
  return a === null || b === null || b === 0 ? null : Number((a / b).toFixed(digits));
}
