/**
 * The general decoders' pool on the real engine: one read of the general language model
 * shared by the pool's decoders, and the limits on how many exist at once.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { spokenFrames, speechToolsAvailable, TEST_VOICES, type Voice } from '../testing/speech.js';
import { GeneralDecoders, type GeneralDecoder, type GeneralModel } from './general-decoders.js';
import { checkModel, pocketsphinx, pocketsphinxAvailable, type Pointer } from './native.js';

const ready = pocketsphinxAvailable() && speechToolsAvailable();

// Sentences of our own, outside any assistant's domain: the general model's work.
const LINES = ['the train leaves at seven in the morning', 'my brother plays the piano'];

describe.skipIf(!ready)('GeneralDecoders (real engine)', () => {
  const api = ready ? pocketsphinx() : (undefined as never);
  const files = ready ? checkModel() : (undefined as never);
  // The recogniser's general flags, and the n-best search that needs the lattice.
  const flags = ['-fwdflat', 'no', '-bestpath', 'yes', '-maxhmmpf', '3000', '-maxwpf', '10'];
  const model: GeneralModel = {
    args: ['-hmm', files?.acousticModel, '-dict', files?.dictionary, ...flags],
    lm: files?.generalLm,
  };
  let speech: Int16Array[][] = [];
  const pools: GeneralDecoders[] = [];
  const pool = (options: ConstructorParameters<typeof GeneralDecoders>[2]) => {
    const made = new GeneralDecoders(api, model, options);
    pools.push(made);
    return made;
  };

  beforeAll(() => {
    const voice = TEST_VOICES[0] as Voice;
    speech = LINES.map((line) => spokenFrames(line, voice));
  });
  afterEach(() => {
    for (const p of pools.splice(0)) p.dispose();
  });

  /** Decodes utterances on decoders at once, a frame of each in turn. */
  function interleaved(decoders: { ps: Pointer }[], utterances: Int16Array[][]): string[] {
    for (const d of decoders) expect(api.startUtt(d.ps)).toBeGreaterThanOrEqual(0);
    const longest = Math.max(...utterances.map((u) => u.length));
    for (let k = 0; k < longest; k++) {
      decoders.forEach((d, i) => {
        const frame = utterances[i]?.[k];
        if (frame) api.processRaw(d.ps, frame, false);
      });
    }
    return decoders.map((d) => {
      api.endUtt(d.ps);
      return api.getHyp(d.ps)?.text ?? '';
    });
  }

  it('hears with the one model its decoders share as decoders that read their own do', async () => {
    // Each with its own copy of the model, one utterance at a time: the reference.
    const own = [0, 1].map(() => {
      const config = api.parseConfig([...model.args, '-lm', model.lm]) as Pointer;
      return { ps: api.init(config) as Pointer, config };
    });
    const alone = [interleaved([own[0] as GeneralDecoder], [speech[0] as Int16Array[]])[0]];
    alone.push(interleaved([own[1] as GeneralDecoder], [speech[1] as Int16Array[]])[0]);
    for (const d of own) {
      api.free(d.ps);
      api.freeConfig(d.config);
    }
    // Real words to compare (what they are is the model's business, not this test's).
    for (const text of alone) expect(text?.split(' ').length).toBeGreaterThanOrEqual(3);

    // Two made off the event loop (the model read once, searches built on a worker
    // thread) hear the same words, two at once; so does a third made on the spot.
    const shared = pool({ spares: 2, idleTrimMs: 60_000 });
    await shared.ready();
    expect(shared.count).toBe(2);
    const a = shared.take() as GeneralDecoder;
    const b = shared.take() as GeneralDecoder;
    expect([a, b]).not.toContain(null);
    const c = shared.takeNow();
    expect(interleaved([a, b], speech)).toEqual(alone);
    // (Each fresh: a decoder's cepstral mean carries over from what it heard before.)
    expect(interleaved([c], [speech[0] as Int16Array[]])).toEqual([alone[0]]);
    for (const d of [a, b, c]) shared.give(d);
  });

  it('makes no decoder past its limit: a turn that needs one gets the one given back', async () => {
    const limited = pool({ spares: 1, idleTrimMs: 60_000, limit: 1, overflowAfterMs: 60_000 });
    await limited.ready();
    const lent = limited.take() as GeneralDecoder;
    expect(lent).not.toBeNull();
    // None idle and none may be made: asked first or again, the answer is to wait.
    expect(limited.take('first')).toBeNull();
    expect(limited.take('again')).toBeNull();
    let idle = false;
    const waiting = limited.whenIdle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(idle).toBe(false);
    expect(limited.count).toBe(1);
    limited.give(lent);
    await waiting;
    expect(limited.hasIdle).toBe(true);
    expect(limited.count).toBe(1);
    // The one given back hears the next utterance.
    const again = limited.take() as GeneralDecoder;
    expect(interleaved([again], [speech[1] as Int16Array[]])[0]).not.toBe('');
    limited.give(again);
  });

  it('makes one more for a turn that has waited past overflowAfterMs at the limit', async () => {
    const limited = pool({ spares: 1, idleTrimMs: 60_000, limit: 1, overflowAfterMs: 300 });
    await limited.ready();
    const lent = limited.take() as GeneralDecoder;
    const started = performance.now();
    await limited.whenIdle();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(limited.hasIdle).toBe(true);
    expect(limited.count).toBe(2);
    limited.give(lent);
  });

  it('makes no more than `overflow` past the limit: a turn past those waits for one given back', async () => {
    const capped = pool({
      spares: 1,
      idleTrimMs: 60_000,
      limit: 1,
      overflowAfterMs: 200,
      overflow: 1,
    });
    await capped.ready();
    const first = capped.take() as GeneralDecoder;
    // The first turn to wait gets one made past the limit.
    expect(await capped.whenIdle()).toBe(true);
    const second = capped.take('again') as GeneralDecoder;
    expect(second).not.toBeNull();
    expect(capped.count).toBe(2);
    // The next waits on, well past overflowAfterMs: none more is made.
    let idle: boolean | undefined;
    const waiting = capped.whenIdle().then((answer) => (idle = answer));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(idle).toBeUndefined();
    expect(capped.count).toBe(2);
    // One given back is its.
    capped.give(first);
    await waiting;
    expect(idle).toBe(true);
    expect(capped.count).toBe(2);
    const third = capped.take('again') as GeneralDecoder;
    expect(interleaved([third], [speech[0] as Int16Array[]])[0]).not.toBe('');
    capped.give(third);
    capped.give(second);
  });

  it('makes one ahead per call it expects, within its limit, keeps them while the calls are live, then shrinks to its spares', async () => {
    const expecting = pool({ spares: 1, idleTrimMs: 200, limit: 3 });
    await expecting.ready();
    expect(expecting.count).toBe(1);
    // Four calls start: one decoder each is made ahead, but no more than the limit.
    const calls = [0, 1, 2, 3].map(() => expecting.expect());
    await vi.waitFor(() => expect(expecting.count).toBe(3), { timeout: 15_000, interval: 50 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(expecting.count).toBe(3);
    // All three lent at once (the calls' first lines), none made past the limit.
    const lent = [0, 1, 2].map(() => expecting.take());
    expect(lent).not.toContain(null);
    expect(expecting.take('first')).toBeNull();
    for (const decoder of lent) expecting.give(decoder as GeneralDecoder);
    // Idle past idleTrimMs while the calls are live: nothing is freed.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(expecting.count).toBe(3);
    // Two calls end (one twice: counted once): two calls are left, and their two decoders.
    calls[0]!();
    calls[0]!();
    calls[1]!();
    await vi.waitFor(() => expect(expecting.count).toBe(2), { timeout: 5_000, interval: 50 });
    calls[2]!();
    calls[3]!();
    await vi.waitFor(() => expect(expecting.count).toBe(1), { timeout: 5_000, interval: 50 });
    // The spare still hears.
    const spare = expecting.take() as GeneralDecoder;
    expect(interleaved([spare], [speech[0] as Int16Array[]])[0]).not.toBe('');
    expecting.give(spare);
  });

  it("makes ahead the live calls' shares summed and rounded up: calls unlikely to need one get none", async () => {
    const sharing = pool({ spares: 0, idleTrimMs: 200, limit: 4 });
    // Three calls whose callers need one a third of the time: one decoder between them.
    const thirds = [0, 1, 2].map(() => sharing.expect(1 / 3));
    await vi.waitFor(() => expect(sharing.count).toBe(1), { timeout: 15_000, interval: 50 });
    // Calls whose callers never needed one add none, however many.
    const sure = [0, 1, 2, 3].map(() => sharing.expect(0));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(sharing.count).toBe(1);
    // A fourth such third is one more expected decoder (4/3 rounds up to 2).
    const fourth = sharing.expect(1 / 3);
    await vi.waitFor(() => expect(sharing.count).toBe(2), { timeout: 15_000, interval: 50 });
    // Ending, the calls give their shares back: 2/3 left wants one, then none.
    fourth();
    thirds[0]!();
    await vi.waitFor(() => expect(sharing.count).toBe(1), { timeout: 5_000, interval: 50 });
    for (const end of [...thirds, ...sure]) end();
    await vi.waitFor(() => expect(sharing.count).toBe(0), { timeout: 5_000, interval: 50 });
  });

  it('frees what it is still making when disposed, and refuses to lend afterwards', async () => {
    const disposed = pool({ spares: 2, idleTrimMs: 60_000 });
    const making = disposed.ready();
    disposed.dispose();
    await making;
    expect(disposed.count).toBe(0);
    expect(() => disposed.take()).toThrow(/after dispose/);
  });
});
