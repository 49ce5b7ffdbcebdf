import type { PcmAudio } from '../audio/format.js';
import { concatInt16 } from '../audio/pcm.js';

/** The parts of a synthesiser {@link collectSpeech} needs (any `SpeechSynthesizer` fits). */
export interface ChunkedSynthesizer<O> {
  readonly sampleRate: number;
  synthesize(text: string, options: O): AsyncIterable<Int16Array>;
}

/** Synthesises `text` completely and returns it as one block of audio at the synthesiser's rate. */
export async function collectSpeech<O>(
  synthesizer: ChunkedSynthesizer<O>,
  text: string,
  options: O,
): Promise<PcmAudio> {
  const chunks: Int16Array[] = [];
  for await (const chunk of synthesizer.synthesize(text, options)) chunks.push(chunk);
  return { samples: concatInt16(chunks), sampleRate: synthesizer.sampleRate };
}
