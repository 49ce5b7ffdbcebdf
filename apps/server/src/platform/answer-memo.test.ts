import { describe, expect, it } from 'vitest';
import type { DocumentRow } from '../db/repositories/documents.js';
import type { JsonAnswer } from '../http/json-answers.js';
import { AnswerMemo } from './answer-memo.js';

const row = (id: string, data: Record<string, unknown>, more: Partial<DocumentRow> = {}) => ({
  id,
  org_id: 'org-1',
  data: JSON.stringify(data),
  secrets: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...more,
});

/** A memo whose presenter counts its calls and answers the row's data with its id. */
function countingMemo(maxBytes?: number) {
  const presented: string[] = [];
  const present = (stored: DocumentRow): JsonAnswer<object> => {
    presented.push(stored.id);
    const body = JSON.parse(stored.data) as Record<string, unknown>;
    if (body.broken === true) throw new Error('does not match the schema');
    return Buffer.from(JSON.stringify({ ...body, id: stored.id, sealed: stored.secrets }));
  };
  return { memo: new AnswerMemo(present, maxBytes), presented };
}

const text = (json: Buffer) => json.toString('utf8');

describe('AnswerMemo', () => {
  it('answers the JSON array JSON.stringify would, for no rows, one and many', () => {
    const { memo } = countingMemo();
    expect(text(memo.list([]))).toBe('[]');
    const rows = [
      row('a', { name: 'Ä “quoted” ☎' }),
      row('b', {}),
      row('c', { n: [1, { x: null }] }),
    ];
    const expected = JSON.stringify(
      rows.map((r) => ({ ...JSON.parse(r.data), id: r.id, sealed: null })),
    );
    expect(text(memo.list(rows.slice(0, 1)))).toBe(JSON.stringify([JSON.parse(expected)[0]]));
    expect(text(memo.list(rows))).toBe(expected);
    expect(text(memo.list(rows))).toBe(expected);
  });

  it('presents a row once while it stays the same, and again as soon as any column changes', () => {
    const { memo, presented } = countingMemo();
    const a = row('a', { name: 'A' });
    memo.list([a, row('b', { name: 'B' })]);
    memo.list([{ ...a }, row('b', { name: 'B' })]);
    expect(presented).toEqual(['a', 'b']);

    const changes: Partial<DocumentRow>[] = [
      { data: JSON.stringify({ name: 'A2' }) },
      { secrets: 'v1.sealed' },
      { secrets: 'v1.sealed-again' },
      { updated_at: '2026-01-02T00:00:00.000Z' },
      { created_at: '2025-12-31T00:00:00.000Z' },
      { org_id: 'org-2' },
    ];
    let current = a;
    for (const change of changes) {
      current = { ...current, ...change };
      presented.length = 0;
      const answer = JSON.parse(text(memo.one(current))) as Record<string, unknown>;
      expect(presented, JSON.stringify(change)).toEqual(['a']);
      expect(answer.sealed).toBe(current.secrets);
      memo.one({ ...current });
      expect(presented, JSON.stringify(change)).toEqual(['a']);
    }
    // Back to an earlier content: still the answer of that content (a pure function of it).
    expect(JSON.parse(text(memo.one(a)))).toEqual({ name: 'A', id: 'a', sealed: null });
    expect(memo.size.entries).toBe(2);
  });

  it('keeps no answer for a row the presenter rejects: it fails on every list', () => {
    const { memo, presented } = countingMemo();
    const broken = row('x', { broken: true });
    expect(() => memo.list([row('a', {}), broken])).toThrow('does not match the schema');
    expect(() => memo.list([row('a', {}), broken])).toThrow('does not match the schema');
    expect(presented).toEqual(['a', 'x', 'x']);
    expect(memo.size.entries).toBe(1);
  });

  it('drops the least recently used rows beyond its size, and never keeps an oversized one', () => {
    const one = row('a', { pad: 'x'.repeat(100) });
    const { memo: probe } = countingMemo();
    probe.one(one);
    const entryBytes = probe.size.bytes;

    const { memo, presented } = countingMemo(entryBytes * 2);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => row(id, { pad: 'x'.repeat(100) }));
    memo.list([a!, b!]);
    memo.one(a!); // a is now the most recently used
    memo.one(c!); // over the bound: b goes
    expect(memo.size).toEqual({ entries: 2, bytes: entryBytes * 2 });
    presented.length = 0;
    memo.list([a!, c!]);
    expect(presented).toEqual([]);
    memo.one(b!);
    expect(presented).toEqual(['b']);

    const huge = row('h', { pad: 'x'.repeat(entryBytes * 3) });
    memo.one(huge);
    memo.one(huge);
    expect(presented).toEqual(['b', 'h', 'h']);
    expect(memo.size.bytes).toBeLessThanOrEqual(entryBytes * 2);
  });
});
