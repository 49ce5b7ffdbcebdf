/**
 * Turns a stream of text deltas into speakable sentences as soon as each one is complete,
 * so speech can start while the rest of the reply is still being written.
 *
 * A sentence ends at `.`, `!` or `?` (and any closing quotes or brackets) followed by
 * white space or the end of the text, or at a line break. Not at "Dr." or "e.g." or an
 * initial ("J. Smith"), not inside "3.5", and not after a list number ("1. Take…"). A very
 * long clause is cut at a comma once it has enough words, and a sentence with no
 * punctuation at all is cut at a space once it is far too long.
 */
export interface SentenceChunkerOptions {
  /** Cut at a comma (or semicolon) once the sentence has this many words. Default 20. */
  commaCutWords?: number;
  /** Cut at a space once the sentence has this many words. Default 50. */
  hardCutWords?: number;
  /** Strip markdown (bold, headings, list markers, links) for speech. Default true. */
  clean?: boolean;
}

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'approx',
  'apt',
  'dept',
  'fig',
  'mt',
  'ave',
  'rd',
  'tel',
  'ext',
]);

export class SentenceChunker {
  private buffer = '';
  private readonly commaCutWords: number;
  private readonly hardCutWords: number;
  private readonly clean: boolean;

  constructor(options: SentenceChunkerOptions = {}) {
    this.commaCutWords = options.commaCutWords ?? 20;
    this.hardCutWords = options.hardCutWords ?? 50;
    this.clean = options.clean ?? true;
  }

  /** Adds a delta; answers the sentences it completed (maybe none). */
  push(delta: string): string[] {
    this.buffer += delta;
    return this.scan(false);
  }

  /** The end of the text: answers whatever is left. */
  flush(): string[] {
    const out = this.scan(true);
    this.buffer = '';
    return out;
  }

  private scan(final: boolean): string[] {
    const buf = this.buffer;
    const out: string[] = [];
    let start = 0;
    const emit = (end: number) => {
      const sentence = this.clean ? speakable(buf.slice(start, end)) : buf.slice(start, end).trim();
      if (sentence !== '') out.push(sentence);
      start = end;
    };
    let words = 0;
    let inWord = false;
    for (let i = 0; i < buf.length; i++) {
      const c = buf.charAt(i);
      const space = /\s/.test(c);
      if (!space && !inWord) words++;
      inWord = !space;
      if (c === '\n') {
        emit(i + 1);
        words = 0;
        continue;
      }
      if (c === '.' || c === '!' || c === '?' || c === '\u2026') {
        let j = i;
        while (j + 1 < buf.length && /[.!?\u2026"'\u201d\u2019)\]]/.test(buf.charAt(j + 1))) j++;
        if (j + 1 >= buf.length && !final) break; // Wait for what comes next.
        const next = buf.charAt(j + 1);
        if (next === '' || /\s/.test(next)) {
          if (!(c === '.' && j === i && this.isNotAnEnd(buf.slice(start, i)))) {
            emit(j + 1);
            words = 0;
            inWord = false;
          }
        }
        i = j;
        continue;
      }
      if ((c === ',' || c === ';') && words >= this.commaCutWords) {
        if (i + 1 >= buf.length && !final) break;
        if (/\s/.test(buf.charAt(i + 1))) {
          emit(i + 1);
          words = 0;
        }
        continue;
      }
      if (space && words >= this.hardCutWords) {
        emit(i);
        words = 0;
      }
    }
    if (final) emit(buf.length);
    this.buffer = buf.slice(start);
    return out;
  }

  /** Whether a period after `text` is part of an abbreviation, initial or list number. */
  private isNotAnEnd(text: string): boolean {
    const last = /(\S+)$/.exec(text)?.[1] ?? '';
    const word = last.replace(/^[("'\u201c\u2018[]+/, '');
    if (ABBREVIATIONS.has(word.toLowerCase())) return true;
    // "e.g", "i.e", "U.S": letters with periods between them.
    if (/^(?:[a-z]\.)+[a-z]$/i.test(word)) return true;
    // An initial: "J. Smith".
    if (/^[A-Z]$/.test(word)) return true;
    // A list number or letter at the start of a line: "1. ", "a. ".
    return /^(?:\d{1,2}|[a-z])$/i.test(word) && text.trim() === word;
  }
}

/**
 * Plain text for a speech synthesiser: no markdown emphasis, headings, code marks, list
 * markers or link targets.
 */
export function speakable(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(?:#{1,6}\s+|>\s+|[-*+\u2022]\s+|\d{1,2}[.)]\s+)/, '')
    .replace(/\*\*|__|[*`#]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sentences from a stream of text deltas, each as soon as it is complete. */
export async function* sentencesOf(
  deltas: AsyncIterable<string>,
  options?: SentenceChunkerOptions,
): AsyncGenerator<string> {
  const chunker = new SentenceChunker(options);
  for await (const delta of deltas) yield* chunker.push(delta);
  yield* chunker.flush();
}

/** The sentences of a complete text. */
export function splitSentences(text: string, options?: SentenceChunkerOptions): string[] {
  const chunker = new SentenceChunker(options);
  return [...chunker.push(text), ...chunker.flush()];
}
