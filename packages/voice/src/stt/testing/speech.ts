/**
 * Test and benchmark support: real speech from the `espeak-ng` CLI, resampled to 16 kHz
 * with the `sox` CLI, with a quiet noise floor (pure digital silence is not what a
 * microphone gives and makes the recogniser much worse), cut into 20 ms frames.
 * Not used by the product at run time.
 */
import { execFile, execFileSync } from 'node:child_process';
import { CALLER_SAMPLE_RATE, FRAME_SAMPLES } from '../../audio/format.js';

export interface Voice {
  /** espeak-ng voice (`en-us`, `en-gb`, `en-us+f3`…). */
  voice: string;
  /** Words per minute. */
  rate: number;
}

export const TEST_VOICES: readonly Voice[] = [
  { voice: 'en-us', rate: 160 },
  { voice: 'en-gb', rate: 140 },
  { voice: 'en-us+f3', rate: 170 },
];

/**
 * sox's arguments from eSpeak's WAV to the caller's raw 16 kHz samples. `-R` (repeatable)
 * seeds the dither sox adds when it resamples: without it the dither is seeded from the
 * clock, the same line differs in its last bit from run to run, and a recognition result
 * near a threshold came out one way alone and the other way in the full suite.
 */
const SOX_TO_CALLER_RATE = [
  '-R',
  '-t',
  'wav',
  '-',
  '-t',
  'raw',
  '-r',
  String(CALLER_SAMPLE_RATE),
  '-e',
  'signed-integer',
  '-b',
  '16',
  '-c',
  '1',
  '-',
];

/** Whether the `espeak-ng` and `sox` commands run. */
export function speechToolsAvailable(): boolean {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'pipe' });
    execFileSync('sox', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Speaks `text` and answers 16 kHz mono 16-bit samples. */
export function synthesize(text: string, voice: Voice): Int16Array {
  const wav = execFileSync(
    'espeak-ng',
    ['-v', voice.voice, '-s', String(voice.rate), '--stdout', text],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const raw = execFileSync('sox', SOX_TO_CALLER_RATE, {
    input: wav,
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const copy = new Uint8Array(raw.length);
  copy.set(raw);
  return new Int16Array(copy.buffer, 0, Math.floor(copy.length / 2));
}

/** A small deterministic PRNG (mulberry32), so test audio is the same every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Pads the speech with silence (`leadMs` before, `trailMs` after) and mixes in white
 * Gaussian noise at `noiseDbfs` RMS (default -55 dBFS).
 */
export function withNoiseFloor(
  speech: Int16Array,
  options: { leadMs?: number; trailMs?: number; noiseDbfs?: number; seed?: number } = {},
): Int16Array {
  const lead = Math.round(((options.leadMs ?? 300) * CALLER_SAMPLE_RATE) / 1000);
  const trail = Math.round(((options.trailMs ?? 300) * CALLER_SAMPLE_RATE) / 1000);
  const out = new Int16Array(lead + speech.length + trail);
  out.set(speech, lead);
  const sigma = 32768 * 10 ** ((options.noiseDbfs ?? -55) / 20);
  const rnd = random(options.seed ?? 1);
  for (let i = 0; i < out.length; i++) {
    // Box-Muller.
    const g = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
    out[i] = Math.max(-32768, Math.min(32767, Math.round((out[i] as number) + g * sigma)));
  }
  return out;
}

/** Cuts samples into 20 ms frames (the last one zero-padded). */
export function toFrames(samples: Int16Array): Int16Array[] {
  const frames: Int16Array[] = [];
  for (let i = 0; i < samples.length; i += FRAME_SAMPLES) {
    const f = new Int16Array(FRAME_SAMPLES);
    f.set(samples.subarray(i, Math.min(i + FRAME_SAMPLES, samples.length)));
    frames.push(f);
  }
  return frames;
}

/** The utterance as a caller would send it: spoken, padded, noise floor, 20 ms frames. */
export function spokenFrames(text: string, voice: Voice, seed = 1): Int16Array[] {
  return toFrames(withNoiseFloor(synthesize(text, voice), { seed }));
}

function run(cmd: string, args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
    if (input) child.stdin?.end(input);
    else child.stdin?.end();
  });
}

/** `synthesize` without blocking: many lines can be spoken at once. */
export async function synthesizeAsync(text: string, voice: Voice): Promise<Int16Array> {
  const wav = await run('espeak-ng', [
    '-v',
    voice.voice,
    '-s',
    String(voice.rate),
    '--stdout',
    text,
  ]);
  const raw = await run('sox', SOX_TO_CALLER_RATE, wav);
  const copy = new Uint8Array(raw.length);
  copy.set(raw);
  return new Int16Array(copy.buffer, 0, Math.floor(copy.length / 2));
}

/** Speaks every (line, voice) pair, a few at a time; answers frames in the same order. */
export async function spokenFramesAll(
  items: readonly { text: string; voice: Voice }[],
  concurrency = 4,
): Promise<Int16Array[][]> {
  const out: Int16Array[][] = new Array<Int16Array[]>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const item = items[i] as { text: string; voice: Voice };
      out[i] = toFrames(
        withNoiseFloor(await synthesizeAsync(item.text, item.voice), { seed: i + 1 }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
