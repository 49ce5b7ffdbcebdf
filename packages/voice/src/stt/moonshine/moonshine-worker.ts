/**
 * The Moonshine model on a worker thread (see `MoonshineThread`): onnxruntime-node computes
 * on the thread that calls it, so here it holds this thread, not the event loop that paces
 * live calls' audio.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MoonshineModel } from './moonshine-model.js';
import type { ThreadClose, ThreadReply, ThreadRequest } from './moonshine-thread.js';

const port = parentPort;
if (port === null) throw new Error('moonshine-worker: not started as a worker thread');
const send = (reply: ThreadReply) => port.postMessage(reply);
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

try {
  const { modelDir } = workerData as { modelDir?: string };
  const model = await MoonshineModel.load(modelDir);
  /** Readings under way: the thread stops only once they are done (see `ThreadClose`). */
  let reading = 0;
  let closing = false;
  const stopWhenDone = async () => {
    if (!closing || reading > 0) return;
    await model.dispose().catch(() => undefined);
    // Nothing else keeps this thread alive: it ends.
    port.close();
  };
  port.on('message', (request: ThreadRequest | ThreadClose) => {
    if ('close' in request) {
      closing = true;
      void stopWhenDone();
      return;
    }
    reading += 1;
    model
      .transcribe(request.samples, { alternatives: request.alternatives })
      .then(
        (transcript) => send({ id: request.id, ok: true, transcript }),
        (error: unknown) => send({ id: request.id, ok: false, message: describe(error) }),
      )
      .finally(() => {
        reading -= 1;
        void stopWhenDone();
      });
  });
  send({ id: 0, ok: true });
} catch (error) {
  send({ id: 0, ok: false, message: describe(error) });
  // The thread ends by itself: stopped from outside, a load still under way could abort
  // the process.
  port.close();
}
