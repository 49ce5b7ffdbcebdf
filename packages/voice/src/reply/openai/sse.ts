/**
 * A small server-sent events parser (the WHATWG `text/event-stream` format), fed with text
 * in pieces split anywhere: in the middle of a line, between `\r` and `\n`, or inside a
 * multi-byte character (decode with `TextDecoder`'s `stream: true`, as `SseDecoder` does).
 *
 * Lines end with `\n`, `\r\n` or `\r`. `data:` lines accumulate (joined with `\n`) until a
 * blank line dispatches the event; `:` lines are comments (keep-alives); `event:`, `id:`
 * and `retry:` are kept. At the end of the stream a last event without its blank line is
 * still dispatched (the spec drops it; servers that close right after `data: [DONE]` are
 * common enough to be forgiving).
 */
export interface SseEvent {
  /** `event:` field, `message` by default. */
  event: string;
  data: string;
  /** Last `id:` seen, if any. */
  id?: string;
  /** `retry:` in milliseconds, if given with this event. */
  retry?: number;
}

export class SseParser {
  private buffer = '';
  private afterCarriageReturn = false;
  private started = false;
  private data: string[] = [];
  private eventType = '';
  private lastId: string | undefined;
  private retry: number | undefined;
  /** Comment lines seen (keep-alives), for diagnostics. */
  comments = 0;

  /** Feeds text; answers the events it completed. */
  push(text: string): SseEvent[] {
    let chunk = text;
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    if (this.afterCarriageReturn && chunk.length > 0) {
      // "\r" ended the last piece: a "\n" starting this one belongs to the same line end.
      if (chunk.startsWith('\n')) chunk = chunk.slice(1);
      this.afterCarriageReturn = false;
    }
    this.buffer += chunk;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer.slice(start, i), events);
      if (c === 13) {
        if (i + 1 === this.buffer.length) this.afterCarriageReturn = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** The end of the stream: answers a last event left without its blank line. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer !== '') this.line(this.buffer, events);
    this.buffer = '';
    this.line('', events);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        const event: SseEvent = { event: this.eventType || 'message', data: this.data.join('\n') };
        if (this.lastId !== undefined) event.id = this.lastId;
        if (this.retry !== undefined) event.retry = this.retry;
        events.push(event);
      }
      this.data = [];
      this.eventType = '';
      this.retry = undefined;
      return;
    }
    if (line.startsWith(':')) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        // Unknown fields are ignored, as the format says.
        break;
    }
  }
}

/** Bytes in, events out: an {@link SseParser} behind a streaming UTF-8 decoder. */
export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser = new SseParser();

  push(bytes: Uint8Array): SseEvent[] {
    return this.parser.push(this.decoder.decode(bytes, { stream: true }));
  }

  end(): SseEvent[] {
    const rest = this.decoder.decode();
    return [...(rest === '' ? [] : this.parser.push(rest)), ...this.parser.end()];
  }

  get comments(): number {
    return this.parser.comments;
  }
}
