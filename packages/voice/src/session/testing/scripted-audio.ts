/**
 * Stand-ins for the session tests: a caller's frames, a voice that speaks a quiet tone,
 * and a wait for what the session reports.
 */
import { FRAME_SAMPLES } from '../../audio/format.js';
import type { SpeechSynthesizer } from '../../tts/types.js';

/** `count` frames of a square wave at `amplitude`: above 1000 the tests' detector hears speech. */
export function frames(count: number, amplitude: number): Int16Array[] {
  return Array.from({ length: count }, () =>
    Int16Array.from({ length: FRAME_SAMPLES }, (_, i) => (i % 2 === 0 ? amplitude : -amplitude)),
  );
}

/** Speaks every sentence as `chunks` × 100 ms of a quiet tone. */
export function toneVoice(chunks: number): SpeechSynthesizer {
  return {
    provider: 'tone',
    sampleRate: 16000,
    async *synthesize() {
      for (let i = 0; i < chunks; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield Int16Array.from({ length: 1600 }, (_, j) => (j % 2 === 0 ? 300 : -300));
      }
    },
    dispose: () => undefined,
  };
}

/** Speaks every sentence as 600 ms of a quiet tone. */
export const toneSynthesizer: SpeechSynthesizer = toneVoice(6);

/** Resolves once `condition` holds, checking every 10 ms; throws after `timeoutMs`. */
export async function until(
  condition: () => boolean,
  what = 'the condition',
  timeoutMs = 10_000,
): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
