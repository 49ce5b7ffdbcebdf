import {
  addNoiseFloor,
  CALLER_SAMPLE_RATE,
  collectSpeech,
  EspeakSynthesizer,
  resample,
} from '@talkbooth/voice';

let synthesizer: Promise<EspeakSynthesizer> | null = null;

/** The noise floor under every synthesised test line: real microphones are never silent. */
export const NOISE_FLOOR_DBFS = -55;

/**
 * A line spoken by eSpeak NG as a caller's microphone would send it: 16 kHz mono with a
 * quiet noise floor, synthesised at test time (never a stored recording).
 */
export async function spokenLine(
  text: string,
  options: { voice?: string; rate?: number } = {},
): Promise<Int16Array> {
  synthesizer ??= EspeakSynthesizer.create();
  const speech = await collectSpeech(await synthesizer, text, {
    voice: options.voice ?? 'en-us',
    rate: options.rate ?? 165,
  });
  const samples = await resample(speech.samples, speech.sampleRate, CALLER_SAMPLE_RATE);
  return addNoiseFloor(samples, NOISE_FLOOR_DBFS, text.length);
}
