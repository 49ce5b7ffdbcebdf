/**
 * The `moonshine` transcriber's recogniser: Moonshine hears the caller's words,
 * pocketsphinx follows along while they speak.
 *
 * Moonshine reads the whole utterance when the caller stops (from the moment they pause,
 * when the session says so). Pocketsphinx (with the
 * assistant's domain model) decodes the same frames as they come, for what only a
 * streaming recogniser can give: live captions, the partial text that tells the turn
 * detector a sentence looks finished, and barge-in word counts. Whose words the call
 * answers:
 *   - pocketsphinx's, when its domain model is sure (the caller used the knowledge base's
 *     own wording, which that model hears exactly; Moonshine tiny misheard some of those
 *     lines in eSpeak voices), with Moonshine's reading as the alternative;
 *   - otherwise Moonshine's, with pocketsphinx's readings beside it as alternatives (the
 *     reply engine hears an emergency in any of them, and asks "Do you mean …?" about an
 *     answer found only there) and its N-best as hypotheses, so a caller in trouble that
 *     one recogniser misheard can still be caught by the other;
 *   - pocketsphinx's, when Moonshine hears no words at all.
 */
import { normalizeText } from '../language-model/normalize.js';
import type {
  RecognitionOptions,
  RecognitionResult,
  RecognitionStream,
  SpeechRecognizer,
} from '../types.js';
import type { MoonshineReader } from './moonshine-thread.js';

export interface MoonshineRecognizerOptions {
  model: MoonshineReader;
  /** The streaming recogniser that follows along (pocketsphinx); none gives no partials. */
  follower?: SpeechRecognizer;
  /** The assistant's texts, whose words Moonshine favours where it doubts (`biasTexts`). */
  bias?: readonly string[];
}

/** 20 ms at 16 kHz: the frames the session pushes. */
const FRAME_SAMPLES = 320;
const FRAME_MS = 20;

/**
 * The quiet a reading begun at a pause is given after the words. Moonshine hears a turn's
 * last word differently without the quiet that follows it: the demo's "i have chest pain"
 * in eSpeak en-us came out as "… cast vain" with 40–200 ms of quiet after it and as
 * "… cast pain" with 500 ms, the most a turn ends with.
 */
const TURN_END_QUIET_MS = 500;

/**
 * The audio up to a pause with the quiet a finished turn would have: the quiet frames at
 * its end (`quietMs` of them) repeated until there are {@link TURN_END_QUIET_MS} of quiet.
 */
export function withTurnEndQuiet(frames: readonly Int16Array[], quietMs: number): Int16Array[] {
  const quiet = Math.min(frames.length, Math.max(1, Math.round(quietMs / FRAME_MS)));
  const tail = frames.slice(frames.length - quiet);
  const padded = [...frames];
  const missing = Math.round((TURN_END_QUIET_MS - quietMs) / FRAME_MS);
  for (let i = 0; i < missing; i++) padded.push(tail[i % tail.length] as Int16Array);
  return padded;
}

export class MoonshineRecognizer implements SpeechRecognizer {
  readonly provider = 'moonshine';

  constructor(private readonly options: MoonshineRecognizerOptions) {}

  open(options?: RecognitionOptions): RecognitionStream {
    const { model, follower, bias } = this.options;
    const reading = bias === undefined ? {} : { bias };
    const stream = follower?.open(options);
    let frames: Int16Array[] = [];
    /** The reading begun at the caller's latest pause (see `RecognitionStream.pause`). */
    let early: { frames: number; heard: Promise<{ text: string }> } | null = null;
    let done = false;
    const check = () => {
      if (done) throw new Error('This utterance has already finished.');
    };
    return {
      push(frame: Int16Array) {
        check();
        if (frame.length !== FRAME_SAMPLES)
          throw new Error(`A frame must hold ${FRAME_SAMPLES} samples, not ${frame.length}.`);
        // The session may reuse its buffer; keep a copy.
        frames.push(Int16Array.from(frame));
        stream?.push(frame);
      },
      partial: () => stream?.partial() ?? '',
      pause(quietMs: number) {
        check();
        stream?.pause?.(quietMs);
        if (frames.length === 0 || early?.frames === frames.length) return;
        // Read now: the silence that ends the turn hides the time it takes.
        const heard = model.transcribe(toFloat(withTurnEndQuiet(frames, quietMs)), reading);
        // Awaited at `finish()`, unless more speech makes it stale.
        heard.catch(() => undefined);
        early = { frames: frames.length, heard };
        // Moonshine's words, and pocketsphinx's so far (taken when its domain model is sure).
        const heardSoFar = stream?.partial() ?? '';
        return heard.then(
          (reading) => distinct([normalizeText(reading.text), heardSoFar], ''),
          () => (heardSoFar === '' ? [] : [heardSoFar]),
        );
      },
      async finish(): Promise<RecognitionResult> {
        check();
        done = true;
        const begun = early;
        early = null;
        const followed = stream === undefined ? undefined : await stream.finish();
        // Nothing after the latest pause was speech, so a reading begun there heard it all.
        const heard = await (begun?.heard ?? model.transcribe(toFloat(frames), reading));
        frames = [];
        const text = normalizeText(heard.text);
        // Moonshine heard no words where pocketsphinx did (a voice it ends on at once):
        // the caller said something, so their turn is taken as pocketsphinx heard it.
        if (text === '' && followed !== undefined && followed.text !== '') return followed;
        // Pocketsphinx sure of its domain model: the caller used the knowledge base's own
        // words, which that model hears exactly. Moonshine's reading is the alternative.
        if (followed?.model === 'domain' && followed.text !== '') {
          return {
            ...followed,
            alternatives: distinct([text, ...(followed.alternatives ?? [])], followed.text),
          };
        }
        // Otherwise Moonshine's words first; pocketsphinx's readings stay beside them as
        // the session's alternatives (one emergency in them is heard; an answer found only
        // there is asked about) and hypotheses, as they were before Moonshine.
        const alternatives = followed
          ? distinct([followed.text, ...(followed.alternatives ?? [])], text)
          : [];
        const hypotheses = distinct(followed?.hypotheses ?? [], text);
        return {
          text,
          model: 'neural',
          ...(alternatives.length > 0 ? { alternatives } : {}),
          ...(hypotheses.length > 0 ? { hypotheses } : {}),
          ...(followed?.channel ? { channel: followed.channel } : {}),
        };
      },
      cancel() {
        done = true;
        frames = [];
        early = null;
        stream?.cancel();
      },
    };
  }

  reserve(): () => void {
    return this.options.follower?.reserve?.() ?? (() => undefined);
  }

  /**
   * Holds nothing of its own: the model is shared by every assistant, and the follower
   * belongs to the engine that made it (pocketsphinx's cache); each is freed by its owner.
   */
  dispose(): void {}
}

/** The readings other than `first`, each once, without empty ones. */
function distinct(readings: readonly string[], first: string): string[] {
  return [...new Set(readings)].filter((r) => r !== '' && r !== first);
}

/** 16-bit frames as one float signal (-1…1), as Moonshine reads it. */
export function toFloat(frames: readonly Int16Array[]): Float32Array {
  const audio = new Float32Array(frames.length * FRAME_SAMPLES);
  let at = 0;
  for (const frame of frames) {
    for (let i = 0; i < frame.length; i++) audio[at + i] = (frame[i] ?? 0) / 32768;
    at += frame.length;
  }
  return audio;
}
