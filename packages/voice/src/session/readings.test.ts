/**
 * Which reading a turn answers: the reply engine readies the readings (their meaning, for
 * the local engine) before it chooses, and a failure to ready them costs no turn.
 */
import { describe, expect, it } from 'vitest';
import type { ReplyEngine } from '../reply/types.js';
import type { RecognitionResult } from '../stt/types.js';
import { chosenReading } from './readings.js';

const result: RecognitionResult = {
  text: 'what time do you clothes',
  model: 'general',
  alternatives: ['what time do you close'],
  hypotheses: ['what time you close', ''],
  secondOpinion: ['what time do you close today'],
};

type Chooser = Pick<ReplyEngine, 'choose' | 'prepareReadings'>;

describe('chosenReading', () => {
  it('readies the readings, then lets the engine choose among the same ones', async () => {
    const calls: string[] = [];
    let readied: unknown[] = [];
    const engine: Chooser = {
      async prepareReadings(readings, answerable, independentFrom) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        readied = [readings, answerable, independentFrom];
        calls.push('prepare');
      },
      choose(readings, _history, answerable, independentFrom) {
        calls.push('choose');
        // Empty readings are dropped; the recogniser's two, its one hypothesis, the second's.
        expect([readings, answerable, independentFrom]).toEqual(readied);
        expect(readings).toEqual([
          'what time do you clothes',
          'what time do you close',
          'what time you close',
          'what time do you close today',
        ]);
        return 3;
      },
    };
    expect(await chosenReading(result, engine, [])).toBe('what time do you close today');
    expect(calls).toEqual(['prepare', 'choose']);
    expect(readied.slice(1)).toEqual([2, 3]);
  });

  it('still chooses when readying the readings fails', async () => {
    const engine: Chooser = {
      prepareReadings: () => Promise.reject(new Error('the sentence encoder is gone')),
      choose: () => 1,
    };
    expect(await chosenReading(result, engine, [])).toBe('what time do you close');
  });

  it('answers the best reading, and says why, when choosing fails', async () => {
    const failures: unknown[] = [];
    const engine: Chooser = {
      choose: () => {
        throw new TypeError('text[word]?.split is not a function');
      },
    };
    expect(await chosenReading(result, engine, [], (error) => failures.push(error))).toBe(
      'what time do you clothes',
    );
    expect(failures).toEqual([new TypeError('text[word]?.split is not a function')]);
  });

  it('answers the only reading without asking the engine', async () => {
    let asked = false;
    const engine: Chooser = {
      prepareReadings: async () => {
        asked = true;
      },
      choose: () => {
        asked = true;
        return 0;
      },
    };
    expect(await chosenReading({ text: ' open today ', model: 'domain' }, engine, [])).toBe(
      'open today',
    );
    expect(asked).toBe(false);
  });
});
