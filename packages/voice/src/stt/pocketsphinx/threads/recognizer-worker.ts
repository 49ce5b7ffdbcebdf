/**
 * A recognition thread (see `recognition-threads.ts`): pocketsphinx decodes here, off the
 * event loop that paces every live call's audio. It holds the recognisers (one per
 * assistant vocabulary, each with its own decoder pool) and the streams the event loop
 * opened on it, and answers what it is asked.
 *
 * Frames are held when they come and decoded by the thread's schedule
 * (`decoding-schedule.ts`), which puts the turns callers wait for first.
 */
import { parentPort } from 'node:worker_threads';
import type { RecognitionStream } from '../../types.js';
import { PocketsphinxRecognizer, type PocketsphinxRecognitionStream } from '../recognizer.js';
import { DecodingSchedule } from './decoding-schedule.js';
import type { FromThread, FromThreadMessage, ToThread, ToThreadMessage } from './messages.js';

if (parentPort === null) throw new Error('recognizer-worker: not started as a worker thread');
const port = parentPort;

/** What this turn of the thread's loop has to say, sent in one message after it. */
let outgoing: FromThreadMessage[] = [];
const flush = (): void => {
  const messages = outgoing;
  outgoing = [];
  if (messages.length === 0) return;
  const message: FromThread =
    messages.length === 1 ? (messages[0] as FromThreadMessage) : { type: 'batch', messages };
  port.postMessage(message);
};
const send = (message: FromThreadMessage): void => {
  if (outgoing.length === 0) setImmediate(flush);
  outgoing.push(message);
};
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Frames decoded between two unasked `state` messages (100 ms: the session's caption rate). */
const STATE_EVERY_FRAMES = 5;

interface OpenStream {
  /** Null while its recogniser is still being made; `queued` holds what came meanwhile. */
  stream: PocketsphinxRecognitionStream | null;
  queued: ToThreadMessage[];
  /** Why it cannot go on (its recogniser could not be made, or decoding failed). */
  failed: string | null;
  pushed: number;
  /** Frames it had decoded when the thread last told its words unasked. */
  toldAt: number;
}

const recognizers = new Map<string, Promise<PocketsphinxRecognizer>>();
const streams = new Map<number, OpenStream>();
const schedule = new DecodingSchedule({
  decoded(id) {
    const entry = streams.get(id);
    if (entry === undefined || entry.stream === null) return;
    const stream = entry.stream;
    if (stream.heldFrames > 0) return;
    // Caught up: its words so far, with the domain model's confidence in them.
    const decoded = entry.pushed - stream.pendingFrames;
    if (decoded - entry.toldAt < STATE_EVERY_FRAMES) return;
    entry.toldAt = decoded;
    state(id, stream);
  },
  failed(id, error) {
    const entry = streams.get(id);
    if (entry !== undefined) decodingFailed(entry, error);
  },
});
const reservations = new Map<number, () => void>();

/** Decoding threw: the stream can go on no further, and its finish answers why. */
function decodingFailed(entry: OpenStream, error: unknown): void {
  entry.failed = `pocketsphinx failed: ${describe(error)}`;
  entry.stream?.cancel();
}

function state(id: number, stream: RecognitionStream, request?: number): void {
  send({
    type: 'state',
    stream: id,
    partial: stream.partial(),
    confidence: stream.confidenceSoFar?.(),
    ...(request === undefined ? {} : { request }),
  });
}

/** Runs one message for a stream whose recogniser is ready. */
function onStream(id: number, entry: OpenStream, message: ToThreadMessage): void {
  const stream = entry.stream;
  if (message.type === 'cancel') {
    stream?.cancel();
    streams.delete(id);
    schedule.forget(id);
    return;
  }
  if (message.type === 'finish') {
    streams.delete(id);
    schedule.forget(id);
    if (entry.failed !== null || stream === null) {
      stream?.cancel();
      send({ type: 'result', stream: id, ok: false, message: entry.failed ?? 'no stream' });
      return;
    }
    // Waits (off this thread's loop) for a general decoder if the turn needs one and none is
    // idle: the other utterances on this thread go on meanwhile.
    const started = performance.now();
    const finished = stream.finishAsync();
    schedule.finishing(stream, finished);
    finished.then(
      (result) =>
        send({
          type: 'result',
          stream: id,
          ok: true,
          result: { ...result, waits: { decodingMs: performance.now() - started } },
        }),
      (error: unknown) => send({ type: 'result', stream: id, ok: false, message: describe(error) }),
    );
    return;
  }
  if (entry.failed !== null || stream === null) {
    if (message.type === 'sync')
      send({
        type: 'state',
        stream: id,
        partial: '',
        confidence: undefined,
        request: message.request,
      });
    return;
  }
  try {
    if (message.type === 'push') {
      stream.hold(message.frame);
      entry.pushed += 1;
      if (stream.heldFrames > 0) schedule.held(id, stream);
    } else if (message.type === 'sync') {
      // At the caller's pause: the words up to it, held frames and all, are wanted now.
      if (stream.heldFrames === 0) state(id, stream, message.request);
      else {
        const request = message.request;
        stream.catchUp().then(
          () => state(id, stream, request),
          (error: unknown) => {
            decodingFailed(entry, error);
            state(id, stream, request);
          },
        );
      }
    }
  } catch (error) {
    decodingFailed(entry, error);
  }
}

function open(message: Extract<ToThread, { type: 'open' }>): void {
  const entry: OpenStream = { stream: null, queued: [], failed: null, pushed: 0, toldAt: 0 };
  streams.set(message.stream, entry);
  const made = recognizers.get(message.key);
  const start = (recognizer: PocketsphinxRecognizer | null, why?: string) => {
    if (streams.get(message.stream) !== entry) return; // cancelled meanwhile
    if (recognizer === null) entry.failed = why ?? 'no recogniser';
    else {
      try {
        entry.stream = recognizer.open(message.options);
      } catch (error) {
        entry.failed = describe(error);
      }
    }
    const queued = entry.queued;
    entry.queued = [];
    for (const m of queued) onStream(message.stream, entry, m);
  };
  if (made === undefined) {
    start(null, `no recogniser ${message.key} on this thread`);
    return;
  }
  made.then(
    (recognizer) => start(recognizer),
    (error: unknown) => start(null, describe(error)),
  );
}

port.on('message', (message: ToThread) => {
  if (message.type === 'batch') for (const m of message.messages) receive(m);
  else receive(message);
});

function receive(message: ToThreadMessage): void {
  switch (message.type) {
    case 'recognizer': {
      if (recognizers.has(message.key)) return;
      const made = PocketsphinxRecognizer.create(message.options);
      recognizers.set(message.key, made);
      made.then(
        (r) =>
          send({
            type: 'made',
            key: message.key,
            ok: true,
            decoderInitMs: r.decoderInitMs,
            hasDomain: r.domainModel !== undefined,
          }),
        (error: unknown) => {
          recognizers.delete(message.key);
          send({ type: 'made', key: message.key, ok: false, message: describe(error) });
        },
      );
      return;
    }
    case 'drop-recognizer': {
      const made = recognizers.get(message.key);
      recognizers.delete(message.key);
      void made?.then(
        (r) => r.dispose(),
        () => undefined,
      );
      return;
    }
    case 'reserve': {
      void recognizers.get(message.key)?.then(
        (r) => {
          // Released before the recogniser was ready: nothing to hold.
          if (reservations.delete(message.reservation)) return;
          reservations.set(message.reservation, r.reserve());
        },
        () => undefined,
      );
      return;
    }
    case 'release': {
      const release = reservations.get(message.reservation);
      reservations.delete(message.reservation);
      if (release !== undefined) release();
      else reservations.set(message.reservation, () => undefined); // released before made
      return;
    }
    case 'open':
      open(message);
      return;
    case 'push':
    case 'sync':
    case 'finish':
    case 'cancel': {
      const entry = streams.get(message.stream);
      if (entry === undefined) {
        if (message.type === 'finish')
          send({ type: 'result', stream: message.stream, ok: false, message: 'unknown stream' });
        return;
      }
      if (entry.stream === null && entry.failed === null) entry.queued.push(message);
      else onStream(message.stream, entry, message);
      return;
    }
    case 'count': {
      void Promise.allSettled(recognizers.values()).then((all) => {
        let decoders = 0;
        // The recognisers share the thread's general decoders: each pool counted once.
        const generals = new Set<{ readonly count: number }>();
        for (const r of all) {
          if (r.status !== 'fulfilled') continue;
          decoders += r.value.domainDecoderCount;
          generals.add(r.value.generalDecoders);
        }
        for (const pool of generals) decoders += pool.count;
        send({ type: 'count', request: message.request, decoders });
      });
      return;
    }
    case 'close': {
      for (const entry of streams.values()) entry.stream?.cancel();
      streams.clear();
      void Promise.allSettled(recognizers.values()).then((all) => {
        for (const r of all) if (r.status === 'fulfilled') r.value.dispose();
        flush();
        port.close();
      });
      return;
    }
  }
}

send({ type: 'ready' });
