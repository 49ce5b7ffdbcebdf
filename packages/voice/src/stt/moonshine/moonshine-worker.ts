/**
 * The Moonshine model on a worker thread (see `MoonshineThread`): onnxruntime-node computes
 * on the thread that calls it, so here it holds this thread, not the event loop that paces
 * live calls' audio.
 *
 * One reading at a time: interleaved (each one's decoder steps between the others'), every
 * reading finished as late as the last of them. The readings an answer waits for go first,
 * in the order they came; a reading dropped by its caller is skipped, or stopped between
 * two decoder steps if under way.
 */
import { parentPort, workerData } from 'node:worker_threads';
import PQueue from 'p-queue';
import { MoonshineModel } from './moonshine-model.js';
import type { ThreadCancel, ThreadClose, ThreadReply, ThreadRequest } from './moonshine-thread.js';

const port = parentPort;
if (port === null) throw new Error('moonshine-worker: not started as a worker thread');
const send = (reply: ThreadReply) => port.postMessage(reply);
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

try {
  const { modelDir } = workerData as { modelDir?: string };
  const model = await MoonshineModel.load(modelDir);
  const queue = new PQueue({ concurrency: 1 });
  /** Readings asked for and not yet answered, by id: aborted when their caller drops them. */
  const asked = new Map<number, AbortController>();
  let closing = false;
  const stopWhenDone = async () => {
    if (!closing || asked.size > 0) return;
    await model.dispose().catch(() => undefined);
    // Nothing else keeps this thread alive: it ends.
    port.close();
  };
  port.on('message', (request: ThreadRequest | ThreadCancel | ThreadClose) => {
    if ('close' in request) {
      closing = true;
      void stopWhenDone();
      return;
    }
    if ('cancel' in request) {
      asked.get(request.cancel)?.abort();
      return;
    }
    const dropped = new AbortController();
    asked.set(request.id, dropped);
    const { signal } = dropped;
    queue
      .add(
        () =>
          model.transcribe(request.samples, {
            alternatives: request.alternatives,
            signal,
            ...(request.bias === undefined ? {} : { bias: request.bias }),
          }),
        { signal, priority: request.urgency === 'later' ? 0 : 1 },
      )
      .then(
        (transcript) => send({ id: request.id, ok: true, transcript }),
        (error: unknown) => {
          // Its caller stopped waiting for it.
          if (!signal.aborted) send({ id: request.id, ok: false, message: describe(error) });
        },
      )
      .finally(() => {
        asked.delete(request.id);
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
