/**
 * The recognition thread's decoding schedule, with streams that count what they decode
 * (the real worker runs it in recognition-threads.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { DecodingSchedule, type ScheduledStream } from './decoding-schedule.js';

/**
 * A stream with `held` frames and a general decoder `lag` frames behind; records the order
 * its frames are decoded in (`name`) and fed to its general decoder (`name:general`),
 * across streams.
 */
function stream(name: string, held: number, order: string[], fail = false, lag = 0) {
  const s = {
    heldFrames: held,
    waitingForDecoder: false as boolean,
    generalLag: lag,
    decodeHeld(count: number) {
      if (fail) throw new Error(`${name} failed`);
      const n = Math.min(count, s.heldFrames);
      for (let i = 0; i < n; i++) order.push(name);
      s.heldFrames -= n;
    },
    feedGeneral(count: number) {
      const n = Math.min(count, s.generalLag);
      for (let i = 0; i < n; i++) order.push(`${name}:general`);
      s.generalLag -= n;
    },
  } satisfies ScheduledStream;
  return s;
}

const turnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve));

async function settled(
  schedule: DecodingSchedule,
  streams: { heldFrames: number; generalLag: number }[],
) {
  const busy = () => streams.some((s) => s.heldFrames > 0 || s.generalLag > 0);
  for (let i = 0; i < 1000 && busy(); i++) await turnOfTheLoop();
  // One more turn: the schedule says what it decoded after each stream's turn.
  await turnOfTheLoop();
  return schedule;
}

/** Two frames a turn; `told` lists, in order, the streams it said it decoded frames of. */
function tellingSchedule() {
  const told: number[] = [];
  const schedule = new DecodingSchedule({
    decoded: (id) => told.push(id),
    failed: () => undefined,
    framesPerTurn: 2,
  });
  return { schedule, told };
}

describe('DecodingSchedule', () => {
  it('decodes every held stream in turn, a few frames each, until none is held', async () => {
    const order: string[] = [];
    const { schedule, told } = tellingSchedule();
    const a = stream('a', 5, order);
    const b = stream('b', 3, order);
    schedule.held(1, a);
    schedule.held(2, b);
    expect(order).toEqual([]); // not while the thread reads its messages
    await settled(schedule, [a, b]);
    expect(order).toEqual(['a', 'a', 'b', 'b', 'a', 'a', 'b', 'a']);
    expect(told).toEqual([1, 2, 1, 2, 1]);
  });

  it('feeds the general decoders still behind once no frame is held, and tells only of frames decoded', async () => {
    const order: string[] = [];
    const { schedule, told } = tellingSchedule();
    const a = stream('a', 2, order, false, 7);
    const b = stream('b', 2, order);
    schedule.held(1, a);
    schedule.held(2, b);
    await settled(schedule, [a, b]);
    // Five frames a turn for the general decoder, after every held frame.
    expect(order).toEqual([
      'a',
      'a',
      'b',
      'b',
      ...Array<string>(5).fill('a:general'),
      ...Array<string>(2).fill('a:general'),
    ]);
    expect(told).toEqual([1, 2]);
  });

  it('holds every frame while a caller waits for a finish, and decodes them once it settles', async () => {
    const order: string[] = [];
    const schedule = new DecodingSchedule({ decoded: () => undefined, failed: () => undefined });
    const finishing = stream('finishing', 0, order);
    let settle: () => void = () => undefined;
    schedule.finishing(
      finishing,
      new Promise<void>((resolve) => {
        settle = resolve;
      }),
    );
    expect(schedule.callerWaiting).toBe(true);
    const speaking = stream('speaking', 4, order);
    schedule.held(1, speaking);
    for (let i = 0; i < 20; i++) await turnOfTheLoop();
    expect(order).toEqual([]);
    settle();
    await settled(schedule, [speaking]);
    expect(order).toEqual(['speaking', 'speaking', 'speaking', 'speaking']);
    expect(schedule.callerWaiting).toBe(false);
  });

  it('goes on decoding while the only finish waits for a general decoder, and counts a failed finish as settled', async () => {
    const order: string[] = [];
    const schedule = new DecodingSchedule({ decoded: () => undefined, failed: () => undefined });
    const waiting = stream('waiting', 0, order);
    waiting.waitingForDecoder = true;
    let fail: (error: Error) => void = () => undefined;
    const finished = new Promise<void>((_, reject) => {
      fail = reject;
    });
    finished.catch(() => undefined);
    schedule.finishing(waiting, finished);
    expect(schedule.callerWaiting).toBe(false);
    const speaking = stream('speaking', 3, order);
    schedule.held(1, speaking);
    await settled(schedule, [speaking]);
    expect(order).toHaveLength(3);
    // It got its decoder and is decoding: a caller waits again.
    waiting.waitingForDecoder = false;
    expect(schedule.callerWaiting).toBe(true);
    fail(new Error('pocketsphinx: ps_end_utt failed'));
    await turnOfTheLoop();
    expect(schedule.callerWaiting).toBe(false);
  });

  it('reports a stream whose decoding failed and drops it, and the others go on', async () => {
    const order: string[] = [];
    const failed: [number, string][] = [];
    const schedule = new DecodingSchedule({
      decoded: () => undefined,
      failed: (id, error) => failed.push([id, (error as Error).message]),
    });
    const broken = stream('broken', 3, order, true);
    const fine = stream('fine', 3, order);
    schedule.held(1, broken);
    schedule.held(2, fine);
    await settled(schedule, [fine]);
    expect(failed).toEqual([[1, 'broken failed']]);
    expect(order).toEqual(['fine', 'fine', 'fine']);
  });

  it('lets the thread read its messages between slices, and forgets a stream that finished', async () => {
    const order: string[] = [];
    // Each slice one stream's turn: a message that comes meanwhile is read after it.
    const schedule = new DecodingSchedule({
      decoded: () => undefined,
      failed: () => undefined,
      sliceMs: 0,
      framesPerTurn: 1,
    });
    const a = stream('a', 10, order);
    const b = stream('b', 10, order);
    schedule.held(1, a);
    schedule.held(2, b);
    await turnOfTheLoop();
    await turnOfTheLoop();
    // A message: stream 2's caller hung up.
    schedule.forget(2);
    await settled(schedule, [a]);
    expect(order.filter((s) => s === 'a')).toHaveLength(10);
    expect(order.filter((s) => s === 'b').length).toBeLessThan(10);
  });
});
