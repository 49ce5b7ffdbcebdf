/**
 * A denoise thread (see `denoise-threads.ts`): RNNoise cleans the caller frames of the calls
 * placed on it, off the event loop that paces every live call. It answers each batch in
 * the order it came, with the frames in the order they were given.
 */
import { parentPort } from 'node:worker_threads';
import { FRAME_SAMPLES } from '../../audio/format.js';
import { RnnoiseSuppressor } from '../rnnoise/rnnoise-suppressor.js';
import type { FromDenoiser, ToDenoiser } from './messages.js';

const port = parentPort;
if (port === null) throw new Error('denoise-worker: not started as a worker thread');
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

const suppressors = new Map<number, RnnoiseSuppressor>();

async function runBatch(message: Extract<ToDenoiser, { type: 'batch' }>): Promise<void> {
  const failures: string[] = [];
  for (const id of message.opens) {
    try {
      suppressors.set(id, await RnnoiseSuppressor.create());
    } catch (error) {
      failures.push(describe(error)); // its frames go back as they came
    }
  }
  const { ids, samples } = message.frames;
  for (let i = 0; i < ids.length; i++) {
    const suppressor = suppressors.get(ids[i]!);
    if (suppressor === undefined) continue; // no suppressor: the frame goes back as it came
    const frame = samples.subarray(i * FRAME_SAMPLES, (i + 1) * FRAME_SAMPLES);
    try {
      frame.set(suppressor.process(frame));
    } catch (error) {
      failures.push(describe(error));
    }
  }
  for (const id of message.closes) {
    suppressors.get(id)?.dispose();
    suppressors.delete(id);
  }
  const reply: FromDenoiser = { type: 'cleaned', frames: { ids, samples }, failures };
  port!.postMessage(reply, [ids.buffer, samples.buffer]);
}

// One batch at a time, in order (making a suppressor awaits its WASM, once per thread).
let queue: Promise<void> = Promise.resolve();
port.on('message', (message: ToDenoiser) => {
  if (message.type === 'close') {
    for (const suppressor of suppressors.values()) suppressor.dispose();
    suppressors.clear();
    port.close();
    return;
  }
  queue = queue.then(() => runBatch(message));
});

// Loads RNNoise and the resamplers before saying it is up.
(await RnnoiseSuppressor.create()).dispose();
port.postMessage({ type: 'ready' } satisfies FromDenoiser);
