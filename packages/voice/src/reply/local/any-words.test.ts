/**
 * The local engine on words no one wrote for it: a recogniser can write down any word of
 * its dictionary in any order, and a fault in weighing one (a word every object inherits,
 * "constructor", once threw) cost the turn. Seeded random conversations of lexicon words,
 * with names JavaScript objects carry and odd tokens among them, on the demo clinic: every
 * turn is weighed, answered and rechecked, and every answer is words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEXICON_DIR } from '../../language/lexicon.js';
import { demoAssistant } from '../testing/conversation.js';
import type { ChatMessage } from '../types.js';
import { LocalReplyEngine } from './engine.js';

/** Names every object or array carries, and tokens a recogniser or a browser may send. */
const AWKWARD = [
  'constructor',
  '__proto__',
  'prototype',
  'tostring',
  'valueof',
  'hasownproperty',
  'then',
  'length',
  '0',
  "don't",
  'naïve',
  '',
];
/** What callers say to the brief and to "Do you mean …?", among the random words. */
const REPLIES = ['yes', 'no', 'the first one', 'stop', 'change the second one'];

const CONVERSATIONS = 150;
const TURNS = 5;

/** A seeded generator (Park–Miller), so a failure names the words that caused it. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

describe('LocalReplyEngine on any words a recogniser may write', () => {
  it('weighs, answers and rechecks every turn, and answers in words', async () => {
    // The words the built lexicon knows: the recogniser's dictionary's most frequent.
    const { words } = JSON.parse(readFileSync(`${LEXICON_DIR}/lexicon.json`, 'utf8')) as {
      words: string[];
    };
    const next = random(20261207);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const sentence = () =>
      Array.from({ length: 1 + Math.floor(next() * 8) }, () =>
        next() < 0.1 ? pick(AWKWARD) : pick(words),
      ).join(' ');
    for (let c = 0; c < CONVERSATIONS; c++) {
      const engine = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
      const history: ChatMessage[] = [{ role: 'assistant', content: engine.greeting() ?? '' }];
      for (let t = 0; t < TURNS; t++) {
        const first =
          t === 0 && c % 3 === 0
            ? 'can you pass a message to the doctor'
            : next() < 0.3
              ? pick(REPLIES)
              : sentence();
        const readings = [first, sentence(), sentence(), sentence()];
        const context = `conversation ${c}, turn ${t}: ${JSON.stringify(readings)}`;
        const chosen = engine.choose(readings, history, 2, 3);
        expect(chosen, context).toBeGreaterThanOrEqual(0);
        expect(chosen, context).toBeLessThan(readings.length);
        engine.isComplete(readings[0] ?? '');
        history.push({ role: 'user', content: readings[chosen] ?? '' });
        let reply = '';
        for await (const event of engine.reply(history, new AbortController().signal)) {
          if (event.type === 'text') reply += event.text;
        }
        expect(reply, context).toMatch(/^[A-Z]/);
        // What a value, not a word, looks like written out; "undefined" or "nan" only
        // where the caller said it (a brief reads the caller's words back).
        expect(reply, context).not.toMatch(/\[object |\{\{|\}\}|native code|=>/);
        const said = history.filter((m) => m.role === 'user').map((m) => m.content);
        for (const value of ['undefined', 'NaN']) {
          if (!said.some((s) => s.toLowerCase().includes(value.toLowerCase()))) {
            expect(reply, context).not.toContain(value);
          }
        }
        engine.missedEmergency(readings[chosen] ?? '', [sentence()], history);
        history.push({ role: 'assistant', content: reply });
      }
    }
  }, 60_000);
});
