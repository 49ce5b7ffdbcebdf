/**
 * Pocketsphinx with Moonshine listening for emergencies on the utterances it doubts.
 *
 * Pocketsphinx hears the knowledge base's own wording exactly and fast, but when a caller
 * speaks otherwise its domain model doubts and its general model often mishears: "i have
 * chest pain" in a live call came out as "i can't use to you", with no emergency anywhere
 * in its readings. Moonshine hears callers' own words far better (BENCHMARKS.md) but costs
 * 40–170 ms per utterance after the caller stops. So it reads only the utterances
 * pocketsphinx answered from its general model (its domain model was not sure), and its
 * reading goes beside pocketsphinx's as a second opinion that the reply engine checks for
 * an emergency only: the words answered stay pocketsphinx's, so what callers are told, and
 * how fast, changes only when Moonshine hears someone in trouble.
 */
import { normalizeText } from '../language-model/normalize.js';
import type {
  RecognitionOptions,
  RecognitionResult,
  RecognitionStream,
  SpeechRecognizer,
} from '../types.js';
import type { MoonshineModel } from './moonshine-model.js';
import { toFloat } from './moonshine-recognizer.js';

export interface SecondOpinionOptions {
  /** The streaming recogniser whose words the call answers (pocketsphinx). */
  primary: SpeechRecognizer;
  /**
   * The second recogniser's model, loaded on first need and shared by every call. When it
   * cannot be loaded, utterances get no second opinion (the primary's result stands).
   */
  model: () => Promise<MoonshineModel>;
}

/** Whether the primary recogniser doubted its reading: its domain model was not sure. */
function doubted(result: RecognitionResult): boolean {
  return result.model === 'general';
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
      async finish(): Promise<RecognitionResult> {
        const audio = frames;
        frames = [];
        const result = await stream.finish();
        if (!doubted(result) || audio.length === 0) return result;
        let text: string;
        try {
          text = normalizeText((await (await model()).transcribe(toFloat(audio))).text);
        } catch {
          // No second opinion (the model is missing or failed): the primary's words stand,
          // and its own readings are still checked for an emergency.
          return result;
        }
        const readings = [result.text, ...(result.alternatives ?? [])];
        return text === '' || readings.includes(text)
          ? result
          : { ...result, secondOpinion: [text] };
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
