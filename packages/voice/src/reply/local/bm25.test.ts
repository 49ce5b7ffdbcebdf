import { describe, expect, it } from 'vitest';
import { Bm25Index, queryOf } from './bm25.js';

describe('Bm25Index', () => {
  const build = () => {
    const index = new Bm25Index<string>({ k1: 1.2, b: 0.75 });
    index.add('d1', [{ terms: ['a', 'b'] }]);
    index.add('d2', [{ terms: ['a', 'c', 'c'] }]);
    return index;
  };

  it('computes the Okapi score by the formula', () => {
    const index = build();
    expect(index.size).toBe(2);
    expect(index.averageLength).toBe(2.5);
    expect(index.idf('b')).toBeCloseTo(Math.log(2), 10);
    const norm = 1.2 * (1 - 0.75 + (0.75 * 2) / 2.5);
    expect(index.search(queryOf(['b']))).toEqual([
      { id: 'd1', score: expect.closeTo((Math.log(2) * 2.2) / (1 + norm), 10) as number },
    ]);
  });

  it('gives rare terms more weight than common ones, and unknown terms the most', () => {
    const index = build();
    expect(index.idf('a')).toBeLessThan(index.idf('b'));
    expect(index.idf('zzz')).toBeGreaterThan(index.idf('b'));
    expect(index.has('zzz')).toBe(false);
  });

  it('saturates term frequency', () => {
    const index = new Bm25Index<string>({ b: 0 });
    index.add('once', [{ terms: ['x', 'y'] }]);
    index.add('twice', [{ terms: ['x', 'x'] }]);
    index.add('many', [{ terms: Array<string>(20).fill('x') }]);
    index.add('other', [{ terms: ['z'] }]);
    const byId = new Map(index.search(queryOf(['x'])).map((h) => [h.id, h.score]));
    const once = byId.get('once') ?? 0;
    const twice = byId.get('twice') ?? 0;
    const many = byId.get('many') ?? 0;
    expect(twice).toBeGreaterThan(once);
    expect(many).toBeGreaterThan(twice);
    // Never more than (k1 + 1) times the single-occurrence score.
    expect(many / once).toBeLessThan(2.2);
  });

  it('favours the shorter document for the same match', () => {
    const index = new Bm25Index<string>();
    index.add('short', [{ terms: ['x', 'y'] }]);
    index.add('long', [{ terms: ['x', 'p', 'q', 'r', 's', 't'] }]);
    expect(index.search(queryOf(['x'])).map((h) => h.id)).toEqual(['short', 'long']);
  });

  it('weights fields and query terms', () => {
    const index = new Bm25Index<string>({ b: 0 });
    index.add('question', [{ terms: ['park'] }, { terms: ['free'], weight: 0.4 }]);
    index.add('answer', [{ terms: ['free'] }, { terms: ['park'], weight: 0.4 }]);
    expect(index.search(queryOf(['park']))[0]?.id).toBe('question');
    const full = index.search(new Map([['park', 1]]))[0]?.score ?? 0;
    const half = index.search(new Map([['park', 0.5]]))[0]?.score ?? 0;
    expect(half).toBeCloseTo(full / 2, 10);
  });

  it('ranks best first, skips non-matching documents and honours a filter', () => {
    const index = build();
    expect(index.search(queryOf(['c'])).map((h) => h.id)).toEqual(['d2']);
    expect(index.search(queryOf(['a', 'b'])).map((h) => h.id)).toEqual(['d1', 'd2']);
    expect(index.search(queryOf(['a']), (id) => id === 'd2').map((h) => h.id)).toEqual(['d2']);
    expect(index.search(queryOf(['nothing']))).toEqual([]);
    expect(new Bm25Index().search(queryOf(['a']))).toEqual([]);
  });

  it('scales a reference score for confidence', () => {
    const index = build();
    expect(index.reference('b', 1)).toBeCloseTo(index.idf('b'), 10);
    expect(index.reference('b', 2)).toBeCloseTo((index.idf('b') * 2 * 2.2) / 3.2, 10);
  });
});
