import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, microphoneArgs } from './chromium.js';
import {
  addNoiseFloor,
  CALLER_SAMPLE_RATE,
  collectSpeech,
  concatInt16,
  EspeakSynthesizer,
  encodeWav,
  resample,
} from '@talkbooth/voice';

const NOISE_DBFS = -55;

/** What the fake microphone says: pauses (seconds of room noise) and lines (eSpeak speech). */
export type MicrophoneScript = (
  { pause: number } | { say: string; voice?: string; rate?: number }
)[];

let synthesizer: Promise<EspeakSynthesizer> | null = null;

/**
 * Synthesises a microphone recording at test time: 0.5 s of leading silence (Chromium
 * restarts the file at every getUserMedia), then the script, all over a quiet noise floor
 * (real microphones are never digitally silent). Answers the WAV file's path.
 */
export async function microphoneWav(script: MicrophoneScript): Promise<string> {
  synthesizer ??= EspeakSynthesizer.create();
  const parts: Int16Array[] = [new Int16Array(CALLER_SAMPLE_RATE / 2)];
  for (const step of script) {
    if ('pause' in step) {
      parts.push(new Int16Array(Math.round(step.pause * CALLER_SAMPLE_RATE)));
    } else {
      const speech = await collectSpeech(await synthesizer, step.say, {
        voice: step.voice ?? 'en-us',
        rate: step.rate ?? 160,
      });
      parts.push(await resample(speech.samples, speech.sampleRate, CALLER_SAMPLE_RATE));
    }
  }
  const samples = addNoiseFloor(concatInt16(parts), NOISE_DBFS, 7);
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-mic-')),
    'microphone.wav',
  );
  fs.writeFileSync(file, encodeWav({ samples, sampleRate: CALLER_SAMPLE_RATE }));
  return file;
}

/** Debian's Chromium with its fake microphone playing `wavFile` once (DESIGN.md's flags). */
export function launchWithMicrophone(wavFile: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...microphoneArgs(wavFile)],
  });
}

/** Stops the shared synthesiser (for a clean worker exit). */
export async function disposeSynthesizer(): Promise<void> {
  if (synthesizer !== null) (await synthesizer).dispose();
  synthesizer = null;
}
