// Turns through the booth in Debian Chromium: the fake microphone plays a WAV synthesised
// here (lines separated by long pauses), and the page notes when the microphone opened and
// every moment the playback worklet output sound. The end of each line in page time is
// the microphone's start plus the line's known offset in the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, microphoneArgs } from './chromium.mjs';
import { NOISE_DBFS, spoken, voice } from './speech.mjs';

const RATE = voice.CALLER_SAMPLE_RATE;
/** Chromium restarts the fake-microphone file at each getUserMedia: lead with silence. */
const LEAD_SECONDS = 0.5;

/** The WAV and, for each line, the second (from the file's start) its speech ends. */
async function microphoneFile(lines, { greetingSeconds, pauseSeconds, speaker }) {
  const parts = [new Int16Array(Math.round((LEAD_SECONDS + greetingSeconds) * RATE))];
  const ends = [];
  let length = parts[0].length;
  for (const text of lines) {
    const samples = await spoken(text, speaker);
    ends.push((length + lastSpeechSample(samples)) / RATE);
    parts.push(samples, new Int16Array(Math.round(pauseSeconds * RATE)));
    length += samples.length + parts[parts.length - 1].length;
  }
  const all = voice.addNoiseFloor(voice.concatInt16(parts), NOISE_DBFS, 11);
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-bench-mic-')),
    'microphone.wav',
  );
  fs.writeFileSync(file, voice.encodeWav({ samples: all, sampleRate: RATE }));
  return { file, ends, seconds: all.length / RATE };
}

function lastSpeechSample(samples) {
  const frame = voice.FRAME_SAMPLES;
  let last = 0;
  for (let i = 0; i * frame < samples.length; i += 1) {
    if (voice.rmsDbfs(samples.subarray(i * frame, (i + 1) * frame)) > NOISE_DBFS + 20)
      last = (i + 1) * frame;
  }
  return last;
}

/** Runs in the page before the app: records getUserMedia's start and the playback levels. */
function instrumentPage() {
  const state = { microphoneAt: null, sound: [] };
  Object.defineProperty(window, '__talkboothBench', { value: state });
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await getUserMedia(constraints);
    state.microphoneAt = performance.now();
    return stream;
  };
  const Original = window.AudioWorkletNode;
  window.AudioWorkletNode = class extends Original {
    constructor(context, name, options) {
      super(context, name, options);
      if (name !== 'talkbooth-playback') return;
      this.port.addEventListener('message', (event) => {
        const message = event.data;
        if (message?.type !== 'level' || message.frames === 0) return;
        // A 50 ms window whose RMS is above speech level: sound was played.
        if (Math.sqrt(message.sumSquares / message.frames) > 0.01)
          state.sound.push(performance.now());
      });
    }
  };
}

/**
 * Speaks `lines` through the booth; answers, per line, the time from the end of its speech
 * to the first sound the page played after it (null when none came within `pauseSeconds`).
 */
export async function boothTurns(
  server,
  lines,
  { greetingSeconds = 4, pauseSeconds = 13, speaker = { voice: 'en-us', rate: 165 } } = {},
) {
  const mic = await microphoneFile(lines, { greetingSeconds, pauseSeconds, speaker });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...microphoneArgs(mic.file)],
  });
  try {
    const context = await browser.newContext();
    await context.grantPermissions(['microphone'], { origin: server.baseUrl });
    const page = await context.newPage();
    await page.addInitScript(instrumentPage);
    await page.goto(`${server.baseUrl}/?unicode=${server.demoCode}`);
    await page.getByRole('button', { name: 'Start Call' }).click();
    await page.getByRole('button', { name: 'End Call' }).waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => window.__talkboothBench.microphoneAt !== null);
    const { microphoneAt } = await page.evaluate(() => window.__talkboothBench);
    // Let the whole file play, and the last answer with it.
    const playedUntil = microphoneAt + mic.seconds * 1000 + 2000;
    await page.waitForFunction((until) => performance.now() > until, playedUntil, {
      timeout: (mic.seconds + 30) * 1000,
      polling: 500,
    });
    const { sound } = await page.evaluate(() => window.__talkboothBench);
    await page.getByRole('button', { name: 'End Call' }).click();
    return lines.map((text, i) => {
      const speechEnd = microphoneAt + mic.ends[i] * 1000;
      const first = sound.find((t) => t > speechEnd && t < speechEnd + pauseSeconds * 1000);
      return {
        said: text,
        voiceToVoiceMs: first === undefined ? null : Number((first - speechEnd).toFixed(1)),
      };
    });
  } finally {
    await browser.close();
  }
}
