/**
 * Endpointing on the caller's side: decides, frame by frame, when the caller starts and
 * stops a turn. A turn starts after a few consecutive speech frames (so clicks and
 * single noisy frames do not start one) and keeps a short pre-roll so the first syllable
 * reaches the recogniser. It ends after `silenceMs` without speech, or after the shorter
 * `earlySilenceMs` when the words so far already make a complete turn.
 *
 * A frame can be voiced (it sounds like speech) without counting as speech: the echo guard
 * holds back the caller's voice while the assistant is audible, in case it is the
 * assistant's echo. When a turn then starts, the voiced frames right before it were the
 * caller's first words, and they go to the recogniser too (up to `heldFrames`). Words
 * have short unvoiced stretches inside (the closure before a "p" or "k"): a gap of up to
 * `heldGapFrames` does not end the voiced run.
 */
export interface TurnDetectorOptions {
  frameMs: number;
  /** Consecutive speech frames that start a turn. */
  startFrames?: number;
  /** Silence that ends a turn. */
  silenceMs?: number;
  /** Silence that ends a turn already complete in words. */
  earlySilenceMs?: number;
  /** Frames kept from before the turn started. */
  prerollFrames?: number;
  /** Voiced frames held back before the pre-roll that may still join a turn. */
  heldFrames?: number;
  /** Unvoiced frames inside a run of voiced ones that do not end it (a consonant's closure). */
  heldGapFrames?: number;
}

export type TurnEvent =
  /** The caller started speaking: `frames` holds the pre-roll and the frames that started it. */
  | { type: 'start'; frames: Int16Array[] }
  /** A frame inside the turn; `silenceMs`: how long the caller has been quiet (0 while speaking). */
  | { type: 'frame'; frame: Int16Array; silenceMs: number }
  /** The turn is over; `silenceMs` is how long the caller had been quiet. */
  | { type: 'end'; silenceMs: number }
  /** Nothing to do (between turns). */
  | { type: 'idle' };

export class TurnDetector {
  readonly frameMs: number;
  readonly silenceMs: number;
  readonly earlySilenceMs: number;
  private readonly startFrames: number;
  private readonly prerollFrames: number;
  private readonly heldFrames: number;
  private readonly heldGapFrames: number;
  private readonly recent: Int16Array[] = [];
  private speechRun = 0;
  /**
   * Voiced frames up to the latest, speech frames and short gaps between them included
   * (0 once a gap grew past `heldGapFrames`).
   */
  private voicedRun = 0;
  /** Unvoiced frames since the latest voiced one, while they may still be a gap in a run. */
  private voicedGap = 0;
  private silentFrames = 0;
  /**
   * Frames since the last speech frame of the previous turn: a pre-roll may reach back
   * into that turn's trailing silence, never into its words.
   */
  private sinceLastTurn = Infinity;
  private inTurn = false;

  constructor(options: TurnDetectorOptions) {
    this.frameMs = options.frameMs;
    this.startFrames = options.startFrames ?? 3;
    this.silenceMs = options.silenceMs ?? 500;
    this.earlySilenceMs = Math.min(options.earlySilenceMs ?? 250, this.silenceMs);
    this.prerollFrames = options.prerollFrames ?? 10;
    this.heldFrames = options.heldFrames ?? 25;
    this.heldGapFrames = options.heldGapFrames ?? 3;
  }

  get speaking(): boolean {
    return this.inTurn;
  }

  /**
   * One caller frame and whether it holds speech; `complete` says the words so far make a
   * whole turn; `voiced` says it sounds like speech even if it does not count as such (held
   * back by the echo guard).
   */
  push(
    frame: Int16Array,
    isSpeech: boolean,
    complete: () => boolean,
    voiced: boolean = isSpeech,
  ): TurnEvent {
    // Recent frames are kept in a turn too: a caller who speaks again right after a turn
    // ends still gets the whole pre-roll (partly that turn's trailing silence), so the
    // recogniser hears the same lead-in however soon they spoke.
    this.recent.push(frame);
    const kept = this.prerollFrames + this.startFrames + this.heldFrames;
    if (this.recent.length > kept) this.recent.shift();
    this.sinceLastTurn += 1;
    if (!this.inTurn) {
      this.speechRun = isSpeech ? this.speechRun + 1 : 0;
      this.countVoiced(isSpeech || voiced);
      if (this.speechRun < this.startFrames) return { type: 'idle' };
      this.inTurn = true;
      this.silentFrames = 0;
      // The pre-roll before the frames that started the turn, or before the voiced frames
      // held back just ahead of them.
      const count = Math.min(
        this.prerollFrames + Math.max(this.startFrames, this.voicedRun),
        this.sinceLastTurn,
      );
      const frames = this.recent.slice(-count);
      this.sinceLastTurn = 0;
      return { type: 'start', frames };
    }

    this.silentFrames = isSpeech ? 0 : this.silentFrames + 1;
    if (isSpeech) this.sinceLastTurn = 0;
    const silence = this.silentFrames * this.frameMs;
    if (silence >= this.silenceMs || (silence >= this.earlySilenceMs && complete())) {
      this.inTurn = false;
      this.speechRun = 0;
      this.voicedRun = 0;
      this.voicedGap = 0;
      return { type: 'end', silenceMs: silence };
    }
    return { type: 'frame', frame, silenceMs: silence };
  }

  private countVoiced(voiced: boolean): void {
    if (voiced) {
      this.voicedRun += 1 + this.voicedGap;
      this.voicedGap = 0;
    } else if (this.voicedRun > 0 && this.voicedGap < this.heldGapFrames) {
      this.voicedGap += 1;
    } else {
      this.voicedRun = 0;
      this.voicedGap = 0;
    }
  }

  /** Abandons the current turn (the call is ending). */
  reset(): void {
    this.inTurn = false;
    this.speechRun = 0;
    this.voicedRun = 0;
    this.voicedGap = 0;
    this.silentFrames = 0;
    this.sinceLastTurn = Infinity;
    this.recent.length = 0;
  }
}

/** Words that leave a sentence hanging: a turn ending in one is not complete yet. */
const CONTINUATIONS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'to',
  'of',
  'for',
  'with',
  'my',
  'your',
  'is',
  'are',
  'i',
  'am',
  'was',
  'be',
  'in',
  'on',
  'at',
  'about',
  'because',
  'so',
  'if',
  'that',
  'um',
  'uh',
  'like',
  'some',
  'any',
  'have',
  'has',
  'do',
  'does',
  'can',
  'could',
  'would',
  'will',
  'me',
]);

/** A fallback completeness test: three or more words, not ending on a word that needs more. */
export function looksComplete(text: string): boolean {
  const words = text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.length >= 3 && !CONTINUATIONS.has(words[words.length - 1]!);
}

/**
 * Words a sentence rarely begins with, that carry on one begun before: "… for a flu shot",
 * "… and my knee".
 */
const CARRY_ON_WORDS = new Set([
  'to',
  'and',
  'or',
  'but',
  'about',
  'for',
  'with',
  'of',
  'because',
  'than',
  'from',
  'at',
  'into',
  'as',
  'that',
  'which',
  'whose',
  'by',
  'without',
  'until',
]);

/** Whether the words begin mid-sentence: with a word that carries on one said before. */
export function carriesOn(text: string): boolean {
  const first = text.trim().toLowerCase().split(/\s+/)[0] ?? '';
  return CARRY_ON_WORDS.has(first);
}
