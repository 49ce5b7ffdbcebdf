// Caller speech for benchmarks: the dev lines spoken by eSpeak NG at test time, resampled
// to the wire rate, over a quiet noise floor (real microphones are never silent).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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

/**
 * eSpeak lines already spoken, by voice, rate and text. One eSpeak instance keeps state
 * from one line to the next (its pitch flutter runs on), so the same line came out a few
 * samples longer or shorter each time it was spoken, and the recogniser heard it
 * differently: each line is now spoken by a fresh synthesizer, once per run. The en-us+f3
 * voice's breath noise is still random (seeded by the WASM build), so its lines differ
 * from run to run in their noise, not their timing.
 */
const espeakLines = new Map();

/**
 * Debian's festival voices (`apt-get install festival festvox-us-slt-hts festvox-kallpc16k`):
 * a female US HTS voice and a male US diphone voice, unlike eSpeak's formant synthesis.
 */
export const FESTIVAL_VOICES = [
  { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', label: 'festival slt (hts)' },
  { engine: 'festival', voice: 'kal_diphone', label: 'festival kal (diphone)' },
];

const run = promisify(execFile);

/** Whether festival's `text2wave` and the voice are installed; a reason when not. */
export async function festivalProblem(speaker) {
  try {
    await festivalSpeech('test', speaker.voice);
    return null;
  } catch (error) {
    return `festival voice ${speaker.voice} is not usable here (${error.message.split('\n')[0]}); install festival ${speaker.voice === 'kal_diphone' ? 'festvox-kallpc16k' : 'festvox-us-slt-hts'}`;
  }
}

async function festivalSpeech(text, voiceName) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-festival-'));
  try {
    const textFile = path.join(dir, 'line.txt');
    const wavFile = path.join(dir, 'line.wav');
    fs.writeFileSync(textFile, text);
    await run('text2wave', ['-eval', `(voice_${voiceName})`, textFile, '-o', wavFile]);
    return voice.decodeWav(fs.readFileSync(wavFile));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A speaker's name in tables: the voice and, for eSpeak, its rate. */
export function speakerLabel(speaker) {
  return speaker.label ?? `${speaker.voice} @ ${speaker.rate} wpm`;
}

/** `text` as a 16 kHz caller would send it, in an eSpeak voice or a festival one. */
export async function spoken(text, speaker = {}) {
  let speech;
  if (speaker.engine === 'festival') {
    speech = await festivalSpeech(text, speaker.voice);
  } else {
    speech = await espeakSpeech(text, speaker.voice ?? 'en-us', speaker.rate ?? 165);
  }
  const samples = await voice.resample(speech.samples, speech.sampleRate, voice.CALLER_SAMPLE_RATE);
  return voice.addNoiseFloor(samples, NOISE_DBFS, text.length);
}

/** `text` in an eSpeak voice, the same every time (see `espeakLines`). */
function espeakSpeech(text, voiceName, rate) {
  const key = `${voiceName}\u0000${rate}\u0000${text}`;
  let speech = espeakLines.get(key);
  if (speech === undefined) {
    speech = (async () => {
      const synthesizer = await voice.EspeakSynthesizer.create();
      try {
        return await voice.collectSpeech(synthesizer, text, { voice: voiceName, rate });
      } finally {
        synthesizer.dispose();
      }
    })();
    // A failure is not kept: the next call tries again.
    speech.catch(() => espeakLines.delete(key));
    espeakLines.set(key, speech);
  }
  return speech;
}

export async function disposeSpeech() {
  espeakLines.clear();
}

/** Word error rate over `{ said, heard }` pairs; null when nothing was said. */
export function wordErrorRate(pairs) {
  let errors = 0;
  let words = 0;
  for (const { said, heard } of pairs) {
    const result = voice.wordErrors(said, heard);
    errors += result.errors;
    words += result.words;
  }
  return words === 0 ? null : errors / words;
}

/** The opening words of the reply each dev line expects (a knowledge-base entry, the intake, goodbye). */
/**
 * How a caller asks in their own words (`bench/fixtures/understanding/dev-paraphrases.json`,
 * not the knowledge base's wording), with its urgent lines (`expect: 'emergency'`) and its
 * off-topic ones (`expect: 'off-topic'`: answered right when no fact is told).
 */
export function paraphraseLines() {
  const set = JSON.parse(
    fs.readFileSync(fromRoot('bench/fixtures/understanding/dev-paraphrases.json'), 'utf8'),
  );
  return [
    ...set.lines,
    ...set.urgent,
    ...set.offTopic.map((text) => ({ text, expect: 'off-topic' })),
  ];
}

/** Whether a reply answers what `expect` asks for (see `expectedReply`, `paraphraseLines`). */
export function answersAsExpected(expect, reply) {
  const said = reply.toLowerCase();
  if (expect !== 'off-topic') return said.includes(expectedReply(expect));
  return !demo.knowledgeBase.some((entry) => said.includes(opening(entry.answer)));
}

const opening = (text) => text.toLowerCase().split(' ').slice(0, 4).join(' ');

export function expectedReply(expect) {
  if (expect === 'intake') return opening(demo.intake.questions[0].ask);
  if (expect === 'end-call') return opening(demo.assistant.endCallMessage);
  return opening(demo.knowledgeBase.find((entry) => entry.id === expect).answer);
}

export { voice };
