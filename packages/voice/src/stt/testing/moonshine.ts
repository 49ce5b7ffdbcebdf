/**
 * What the Moonshine thread tests share: the compiled worker (`npm run build` makes it) and
 * a question of our own spoken by eSpeak.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toFloat } from '../moonshine/moonshine-recognizer.js';
import { spokenFramesAll, TEST_VOICES } from './speech.js';

export const MOONSHINE_WORKER = fileURLToPath(
  new URL('../../../dist/stt/moonshine/moonshine-worker.js', import.meta.url),
);

/** Whether the compiled worker is there; says the tests are skipped when it is not. */
export function moonshineWorkerBuilt(): boolean {
  const built = existsSync(MOONSHINE_WORKER);
  if (!built)
    console.warn(
      `Skipped: the compiled Moonshine worker is missing (${MOONSHINE_WORKER}); run npm run build.`,
    );
  return built;
}

/** "could someone call me back about my appointment", in the first test voice. */
export async function appointmentQuestion(): Promise<Float32Array> {
  const voice = TEST_VOICES[0] ?? { voice: 'en-us', rate: 160 };
  const [frames = []] = await spokenFramesAll([
    { text: 'could someone call me back about my appointment', voice },
  ]);
  return toFloat(frames);
}
