// Caller speech for benchmarks: the dev lines spoken by eSpeak NG at test time, resampled
// to the wire rate, over a quiet noise floor (real microphones are never silent).
import fs from 'node:fs';
import { fromRoot, importBuilt } from './paths.mjs';

const voice = await importBuilt('packages/voice/dist/index.js');
export const NOISE_DBFS = -55;
export const devLines = JSON.parse(
  fs.readFileSync(fromRoot('bench/fixtures/dev-utterances.json'), 'utf8'),
);
export const demo = JSON.parse(
  fs.readFileSync(fromRoot('apps/server/src/db/seed/demo-clinic.json'), 'utf8'),
);

/** Voices the benchmarks speak with: eSpeak voice names and rates in words per minute. */
export const VOICES = [
  { voice: 'en-us', rate: 165 },
  { voice: 'en-gb', rate: 150 },
  { voice: 'en-us+f3', rate: 185 },
];

let synthesizer = null;

/** `text` as a 16 kHz caller would send it. */
export async function spoken(text, { voice: name = 'en-us', rate = 165 } = {}) {
  synthesizer ??= voice.EspeakSynthesizer.create();
  const speech = await voice.collectSpeech(await synthesizer, text, { voice: name, rate });
  const samples = await voice.resample(speech.samples, speech.sampleRate, voice.CALLER_SAMPLE_RATE);
  return voice.addNoiseFloor(samples, NOISE_DBFS, text.length);
}

export async function disposeSpeech() {
  if (synthesizer !== null) (await synthesizer).dispose();
  synthesizer = null;
}

/** The opening words of the reply each dev line expects (a knowledge-base entry, the intake, goodbye). */
export function expectedReply(expect) {
  const opening = (text) => text.toLowerCase().split(' ').slice(0, 4).join(' ');
  if (expect === 'intake') return opening(demo.intake.questions[0].ask);
  if (expect === 'end-call') return opening(demo.assistant.endCallMessage);
  return opening(demo.knowledgeBase.find((entry) => entry.id === expect).answer);
}

export { voice };
