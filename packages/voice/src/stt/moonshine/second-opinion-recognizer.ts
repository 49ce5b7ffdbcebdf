/**
 * Pocketsphinx with Moonshine listening for emergencies on the utterances it doubts.
 *
 * Pocketsphinx hears the knowledge base's own wording exactly and fast, but when a caller
 * speaks otherwise its domain model doubts and its general model often mishears: "i have
 * chest pain" in a live call came out as "i can't use to you", with no emergency anywhere
 * in its readings. Moonshine hears callers' own words far better (BENCHMARKS.md) but costs
 * 40–170 ms per utterance after the caller stops. So it reads only the utterances
 * pocketsphinx doubted (its domain model was not sure of them), and its
 * reading goes beside pocketsphinx's as a second opinion that the reply engine checks for
 * an emergency, and answers from when it is a question answered outright that
 * pocketsphinx's best reading could not answer (`ReplyEngine.choose`).
 */
import { normalizeText } from '../language-model/normalize.js';
import type {
  RecognitionOptions,
  RecognitionResult,
  RecognitionStream,
  SpeechRecognizer,
} from '../types.js';
import type { MoonshineReader } from './moonshine-thread.js';
import { toFloat } from './moonshine-recognizer.js';

export interface SecondOpinionOptions {
  /** The streaming recogniser whose words the call answers (pocketsphinx). */
  primary: SpeechRecognizer;
  /**
   * The second recogniser's model, loaded on first need and shared by every call. When it
   * cannot be loaded, utterances get no second opinion (the primary's result stands).
   */
  model: () => Promise<MoonshineReader>;
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

export class SecondOpinionRecognizer implements SpeechRecognizer {
  readonly provider: string;

  constructor(private readonly options: SecondOpinionOptions) {
    this.provider = options.primary.provider;
  }

  open(options?: RecognitionOptions): RecognitionStream {
    const stream = this.options.primary.open(options);
    const model = this.options.model;
    let frames: Int16Array[] = [];
    return {
      push(frame: Int16Array) {
        stream.push(frame);
        // The session may reuse its buffer; keep a copy.
        frames.push(Int16Array.from(frame));
      },
      partial: () => stream.partial(),
      // Not read at a pause: Moonshine reads the whole turn, with the quiet that ended it
      // (begun at the caller's pause, it missed "i have chest pain" in CI; see the README).
      pause: (quietMs: number) => stream.pause?.(quietMs),
      async finish(): Promise<RecognitionResult> {
        const audio = frames;
        frames = [];
        const result = await stream.finish();
        if (!doubted(result) || audio.length === 0) return result;
        let heard: string[];
        try {
          const transcript = await (
            await model()
          ).transcribe(toFloat(audio), {
            alternatives: ALTERNATIVES,
          });
          heard = [transcript.text, ...(transcript.alternatives ?? [])].map(normalizeText);
        } catch {
          // No second opinion (the model is missing or failed): the primary's words stand,
          // and its own readings are still checked for an emergency.
          return result;
        }
        const readings = [result.text, ...(result.alternatives ?? [])];
        const secondOpinion = [...new Set(heard)].filter(
          (text) => text !== '' && !readings.includes(text),
        );
        return secondOpinion.length === 0 ? result : { ...result, secondOpinion };
      },
      cancel() {
        frames = [];
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
