import { describe, expect, it } from 'vitest';
import { SseDecoder, SseParser, type SseEvent } from './sse.js';

/** Parses the text fed in pieces of `size` characters. */
function parse(text: string, size: number): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
  return [...events, ...parser.end()];
}

describe('SseParser', () => {
  it('parses data lines, multi-line data, event names, ids and comments', () => {
    const stream =
      ': keep-alive\n\n' +
      'data: {"a":1}\n\n' +
      'event: update\nid: 7\nretry: 1000\ndata: line one\ndata:line two\n\n' +
      'data\n\n' +
      'unknown: field\ndata: [DONE]\n\n';
    const expected: SseEvent[] = [
      { event: 'message', data: '{"a":1}' },
      { event: 'update', data: 'line one\nline two', id: '7', retry: 1000 },
      { event: 'message', data: '', id: '7' },
      { event: 'message', data: '[DONE]', id: '7' },
    ];
    for (const size of [1, 2, 5, 13, 10_000]) expect(parse(stream, size)).toEqual(expected);
    const parser = new SseParser();
    parser.push(stream);
    expect(parser.comments).toBe(1);
  });

  it('takes \\r\\n, \\r and \\n line ends, even split between pieces', () => {
    const stream = 'data: a\r\n\r\ndata: b\r\rdata: c\n\n';
    const expected = ['a', 'b', 'c'];
    for (const size of [1, 2, 3, 100])
      expect(parse(stream, size).map((e) => e.data)).toEqual(expected);
    const parser = new SseParser();
    expect(parser.push('data: x\r')).toEqual([]);
    expect(parser.push('')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('drops a byte-order mark and dispatches a last event left open at the end', () => {
    expect(parse('\ufeffdata: first\n\ndata: [DONE]', 4).map((e) => e.data)).toEqual([
      'first',
      '[DONE]',
    ]);
    expect(parse('', 1)).toEqual([]);
  });

  it('decodes UTF-8 split inside a character', () => {
    const bytes = new TextEncoder().encode('data: café — ok\n\n');
    const decoder = new SseDecoder();
    const events: SseEvent[] = [];
    for (const byte of bytes) events.push(...decoder.push(Uint8Array.of(byte)));
    events.push(...decoder.end());
    expect(events).toEqual([{ event: 'message', data: 'café — ok' }]);
  });
});
