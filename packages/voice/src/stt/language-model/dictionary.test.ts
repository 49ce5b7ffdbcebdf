import { describe, expect, it } from 'vitest';
import { formatDictionary, headword, parseDictionary } from './dictionary.js';

describe('pronunciation dictionary', () => {
  it('names a line by its word, variant number dropped', () => {
    expect(headword('read(2) R EH D')).toBe('read');
    expect(headword('  zebra\tZ IY B R AH')).toBe('zebra');
    expect(headword("o'clock AH K L AA K")).toBe("o'clock");
    expect(headword('alone')).toBe('alone');
  });

  it('parses variants into one entry, skipping comments and blank lines', () => {
    const dict = parseDictionary(
      ';;; a comment\nread R IY D\n\nread(2)  R   EH D\nzebra Z IY B R AH\n',
    );
    expect([...dict]).toEqual([
      ['read', ['R IY D', 'R EH D']],
      ['zebra', ['Z IY B R AH']],
    ]);
  });

  it('writes the words asked for, sorted, variants numbered from 2, unknown words left out', () => {
    const dict = parseDictionary('zebra Z IY B R AH\nread R IY D\nread(2) R EH D\n');
    expect(formatDictionary(dict, ['zebra', 'read', 'unknown', 'read'])).toBe(
      'read R IY D\nread(2) R EH D\nzebra Z IY B R AH\n',
    );
  });
});
