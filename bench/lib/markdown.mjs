// Markdown tables for BENCHMARKS.md and the console.

/** A Markdown table; numbers are right-aligned. */
export function table(headers, rows) {
  const align = headers.map((_, i) =>
    rows.every((row) => typeof row[i] === 'number' || row[i] === null) ? '---:' : '---',
  );
  const cell = (value) => (value === null || value === undefined ? '–' : String(value));
  return [
    `| ${headers.join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}
