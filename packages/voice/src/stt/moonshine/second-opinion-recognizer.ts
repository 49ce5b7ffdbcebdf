/**
 * Pocketsphinx with Moonshine listening for emergencies on the utterances it doubts.
 *
 * Pocketsphinx hears the knowledge base's own wording exactly and fast, but when a caller
 * speaks otherwise its domain model doubts and its general model often mishears: "i have
 * chest pain" in a live call came out as "i can't use to you", with no emergency anywhere
 * in its readings. Moonshine hears callers' own words far better (BENCHMARKS.md) but costs
 * 40–170 ms per utterance. So its reading goes beside pocketsphinx's on the utterances
 * pocketsphinx doubted (its domain model was not sure of them, or they are a few words
 * replying to the assistant's "Do you mean …?"), as a second opinion that
 * the reply engine checks for an emergency, and answers from when it is a question
 * answered outright that pocketsphinx's best reading could not answer
 * (`ReplyEngine.choose`). It is begun at the caller's pause, so the quiet that ends the
 * turn pays for it; the whole turn is read again after it has been answered, for an
 * emergency the early reading missed (`RecognitionResult.recheck`).
 */
import { FRAME_MS } from '../../audio/format.js';
import { normalizeText } from '../language-model/normalize.js';
import { CLARIFYING_QUESTION } from '../../language/clarifying.js';
import type {
  RecognitionOptions,
  RecognitionResult,
  RecognitionStream,
  SpeechRecognizer,
} from '../types.js';
import type { MoonshineReader, ReadingOptions } from './moonshine-thread.js';
import { toFloat, withTurnEndQuiet } from './moonshine-recognizer.js';
import { ALTERNATIVE_MIN_CONFIDENCE } from '../pocketsphinx/recognizer.js';

export interface SecondOpinionOptions {
  /** The streaming recogniser whose words the call answers (pocketsphinx). */
  primary: SpeechRecognizer;
  /**
   * The second recogniser's model, loaded on first need and shared by every call. When it
   * cannot be loaded, utterances get no second opinion (the primary's result stands).
   */
  model: () => Promise<MoonshineReader>;
  /**
   * The assistant's texts (knowledge base, intake, keywords: `biasTexts`), whose words
   * Moonshine favours where the audio leaves it in doubt.
   */
  bias?: readonly string[];
}

/**
 * A domain reading below this confidence (the share of its words the model expected) gets
 * a second opinion too. The domain model's bar for answering is lower (0.65): a reading
 * with a third of its words guessed passes it ("i have chest do you", 0.67). The knowledge
 * base's own wording is heard at 1.
 */
const SURE_CONFIDENCE = 0.8;

/**
 * Moonshine's readings beside its best: where it hesitated between two words, the other
 * one read on. Its best reading alone came out "i am just vain" about half the time for
 * the demo's own "i have chest pain" (eSpeak), depending on the quiet around the words;
 * the runner-up at its least sure step carried "chest pain" in most of those.
 */
const ALTERNATIVES = 2;

/**
 * Whether the primary recogniser doubted its reading: it answered from its general model,
 * or from a domain model that was not sure (taken only because the general one heard
 * nothing, or just over its bar).
 */
function doubted(result: RecognitionResult & { confidence?: number }): boolean {
  if (result.model === 'general') return true;
  return result.model === 'domain' && (result.confidence ?? 1) < SURE_CONFIDENCE;
}

/**
 * A reply to the assistant's "Do you mean …?" of at most this many words gets a second
 * opinion whatever the domain model's confidence: such a reply closes a choice ("both",
 * "the first", "no that is wrong"), and the share of a few words the model expected says
 * little (it heard "both" as "i would" and "the first" as "a tooth", each at 1, and "no
 * that is wrong" as "no that is drown" at 0.8).
 */
const SHORT_REPLY_WORDS = 4;

/** Whether the assistant's words before the turn ask the caller to choose ("Do you mean, A, or B?"). */
function asksToChoose(question: string | undefined): boolean {
  return question !== undefined && normalizeText(question).includes(CLARIFYING_QUESTION);
}

/**
 * The turn as answered when the primary did not trust its reading and had none better
 * (`RecognitionResult.unsure`: pocketsphinx's domain reading below its bar, its general
 * model off): Moonshine's best reading comes first, as the general model's did, with the
 * domain reading beside it when it is not word salad. Moonshine reads every doubted turn
 * anyway, so this saves the general model's decoding (4 % of a core per call at eight
 * calls) and its decoders (49 MB each); the general model's reading still gets a few more
 * of the callers' own wordings understood (README, `GENERAL_MODEL`), which is why it runs
 * by default.
 */
function insteadOfUnsure(
  result: RecognitionResult & { confidence?: number },
  best: string,
  secondOpinion: string[],
): RecognitionResult {
  const { unsure: _unsure, alternatives: _alternatives, ...rest } = result;
  const domain = result.text;
  const keep =
    domain !== '' && domain !== best && (result.confidence ?? 0) >= ALTERNATIVE_MIN_CONFIDENCE;
  return {
    ...rest,
    text: best,
    model: 'neural',
    ...(keep ? { alternatives: [domain] } : {}),
    secondOpinion,
  };
}

export class SecondOpinionRecognizer implements SpeechRecognizer {
  readonly provider: string;

  constructor(private readonly options: SecondOpinionOptions) {
    this.provider = options.primary.provider;
  }

  open(options?: RecognitionOptions): RecognitionStream {
    const stream = this.options.primary.open(options);
    const { model, bias } = this.options;
    const closing = asksToChoose(options?.question);
    const shortReply = (text: string) =>
      closing && text.split(' ').filter((w) => w !== '').length <= SHORT_REPLY_WORDS;
    let frames: Int16Array[] = [];
    /** The caller's pauses so far (`pause()` calls): each follows a new stretch of speech. */
    let pauses = 0;
    /**
     * Moonshine's reading of the audio up to the caller's latest pause, begun then so the
     * quiet that ends the turn (250–500 ms) hides its time; stale once the caller spoke on,
     * and then dropped (`drop`), as it would only hold up the readings other calls wait for.
     */
    let early: {
      frames: number;
      heard: Promise<string[] | undefined>;
      drop: AbortController;
    } | null = null;
    const dropEarly = () => {
      early?.drop.abort();
      early = null;
    };
    /**
     * Moonshine's readings of the audio; undefined when the model is missing or failed, or
     * the reading was dropped.
     */
    const read = async (
      audio: readonly Int16Array[],
      options: Omit<ReadingOptions, 'alternatives'> = {},
    ): Promise<string[] | undefined> => {
      try {
        const transcript = await (
          await model()
        ).transcribe(toFloat(audio), {
          ...options,
          alternatives: ALTERNATIVES,
          ...(bias === undefined ? {} : { bias }),
        });
        return [transcript.text, ...(transcript.alternatives ?? [])].map(normalizeText);
      } catch {
        return undefined;
      }
    };
    /**
     * The readings to expect should the turn end at the caller's `pause`-th pause (`audio`
     * held `upTo` frames then, the last `quietMs` of them quiet), once the primary's words
     * up to it are known; Moonshine's reading begins here.
     */
    const readAtPause = (audio: Int16Array[], upTo: number, quietMs: number, pause: number) => {
      // What the primary has heard so far: its best reading, should the turn end here.
      const heardSoFar = stream.partial();
      const primary = heardSoFar === '' ? [] : [heardSoFar];
      // The turn ended, or the caller spoke on and paused again, while the primary caught
      // up. Frames that came meanwhile without a new pause are the quiet after the words:
      // they once counted as speaking on, so on a busy server (the primary a frame or more
      // behind) the reading was never begun, and the turn waited for a whole one at its end.
      if (audio !== frames || pause !== pauses) return Promise.resolve(primary);
      // Not for words the domain model is already sure of (the knowledge base's own
      // wording): the reading would take the other calls' time for nothing. Unknown
      // (audio still waiting to be decoded) counts as not sure. Should the turn be
      // doubted at its end after all, it is read whole then.
      if ((stream.confidenceSoFar?.() ?? 0) >= SURE_CONFIDENCE && !shortReply(heardSoFar))
        return Promise.resolve(primary);
      const drop = new AbortController();
      // The quiet so far: the pause's and the frames since.
      const quiet = quietMs + (audio.length - upTo) * FRAME_MS;
      const heard = read(withTurnEndQuiet(audio, quiet), { signal: drop.signal });
      early = { frames: upTo, heard, drop };
      return heard.then((second) => [...new Set([...primary, ...(second ?? [])])]);
    };
    return {
      push(frame: Int16Array) {
        stream.push(frame);
        // The session may reuse its buffer; keep a copy.
        frames.push(Int16Array.from(frame));
      },
      partial: () => stream.partial(),
      confidenceSoFar: () => stream.confidenceSoFar?.(),
      pause(quietMs: number) {
        // A primary decoding on another thread tells its words once it has caught up.
        const caughtUp = stream.pause?.(quietMs);
        if (frames.length === 0 || early?.frames === frames.length) return;
        // The caller spoke on since the pause that began the reading under way.
        dropEarly();
        pauses += 1;
        const audio = frames;
        const upTo = frames.length;
        const pause = pauses;
        const decide = () => readAtPause(audio, upTo, quietMs, pause);
        return caughtUp === undefined ? decide() : caughtUp.then(decide);
      },
      async finish(): Promise<RecognitionResult> {
        const audio = frames;
        const begun = early;
        frames = [];
        early = null;
        // No reading begun at a pause (the caller never paused, or the primary was still
        // catching up when the turn ended) of words the primary doubts so far: the whole
        // turn's begins now, beside the primary's last decoding rather than after it, and
        // is dropped should its final reading be sure after all.
        const soFar = stream.confidenceSoFar?.();
        const readNow =
          begun === null && audio.length > 0 && soFar !== undefined && soFar < SURE_CONFIDENCE;
        const dropWhole = new AbortController();
        const whole = readNow ? read(audio, { signal: dropWhole.signal }) : null;
        let result: RecognitionResult;
        try {
          result = await stream.finish();
        } catch (error) {
          // The primary failed: nobody will wait for Moonshine's readings of this turn.
          begun?.drop.abort();
          dropWhole.abort();
          throw error;
        }
        if ((!doubted(result) && !shortReply(result.text)) || audio.length === 0) {
          begun?.drop.abort();
          dropWhole.abort();
          return result;
        }
        const readings = [result.text, ...(result.alternatives ?? [])];
        const fresh = (heard: readonly string[], besides: readonly string[] = []) =>
          [...new Set(heard)].filter((text) => text !== '' && !besides.includes(text));
        // Nothing after the latest pause was speech (see `RecognitionStream.pause`), so a
        // reading begun there heard every word, and the turn is answered from it at once.
        // Moonshine hears a turn differently with more quiet after it, so the whole turn is
        // read again, for an emergency the early reading missed ("i have chest pain" heard
        // as an ordinary sentence at the pause, twice in CI).
        const waitFrom = performance.now();
        const heard = await (begun?.heard ?? whole ?? read(audio));
        const waits = { ...result.waits, secondOpinionMs: performance.now() - waitFrom };
        // Without a second opinion (the model is missing or failed) the primary's words
        // stand, and its own readings are still checked for an emergency.
        if (heard === undefined) return { ...result, waits };
        // Every reading of Moonshine's, one pocketsphinx also gave included: that the two
        // heard the same words is itself what the reply engine weighs ("can you play some
        // music", whose domain reading "can you poison years ago" raised the alarm while
        // Moonshine's identical reading was dropped as nothing new).
        const secondOpinion = fresh(heard);
        const answered = {
          ...(result.unsure === true && (heard[0] ?? '') !== ''
            ? insteadOfUnsure(result, heard[0] as string, fresh(heard.slice(1)))
            : secondOpinion.length === 0
              ? result
              : { ...result, secondOpinion }),
          waits,
        };
        if (begun === null) return answered;
        // Nothing waits for it: the thread reads it after the readings answers wait for.
        const recheck = read(audio, { urgency: 'later' }).then((late) =>
          fresh(late ?? [], [...readings, ...secondOpinion]),
        );
        return { ...answered, recheck };
      },
      cancel() {
        frames = [];
        dropEarly();
        stream.cancel();
      },
    };
  }

  reserve(): () => void {
    return this.options.primary.reserve?.() ?? (() => undefined);
  }

  /** Holds nothing of its own: the primary and the model belong to the engines that made them. */
  dispose(): void {}
}
