/**
 * Where each sentence of an utterance sits in its audio, so a cut-off utterance can be
 * reduced to what the caller actually heard.
 */
export class SpokenText {
  private readonly spans: { text: string; start: number; end: number }[] = [];

  /** Notes that `text` begins at sample `start` of the utterance's audio. */
  begin(text: string, start: number): void {
    this.spans.push({ text, start, end: start });
  }

  /** The sentence begun last now reaches sample `end` (it grows as it is synthesised). */
  extend(end: number): void {
    const last = this.spans[this.spans.length - 1];
    if (last !== undefined) last.end = end;
  }

  get full(): string {
    return this.spans.map((span) => span.text).join(' ');
  }

  /**
   * The words heard by sample `played`: whole sentences before it, and of the sentence
   * playing then, the share of its words that its elapsed share of audio covers.
   */
  heardBy(played: number): string {
    const heard: string[] = [];
    for (const span of this.spans) {
      if (played >= span.end) {
        heard.push(span.text);
        continue;
      }
      if (played > span.start) {
        const words = span.text.split(/\s+/);
        const share = (played - span.start) / Math.max(1, span.end - span.start);
        const count = Math.floor(words.length * share);
        if (count > 0) heard.push(words.slice(0, count).join(' '));
      }
      break;
    }
    return heard.join(' ');
  }
}
