/**
 * Moonshine's word bias: the prefix tree of an assistant's words, and what it does to
 * readings of real (synthesised) speech of our own callers' lines (never the benchmark's).
 */
import { readFileSync } from 'node:fs';
import llamaTokenizer from 'llama-tokenizer-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { spokenFramesAll, speechToolsAvailable, TEST_VOICES } from '../testing/speech.js';
import { normalizeText } from '../language-model/normalize.js';
import { wordErrors } from '../wer.js';
import { MoonshineModel } from './moonshine-model.js';
import { toFloat } from './moonshine-recognizer.js';
import { advance, biasTexts, favoured, startsWord, wordBias } from './word-bias.js';

const tokens = (word: string) =>
  llamaTokenizer.encode(` ${word}`, false, false).filter((t) => t > 2);

describe('the word bias', () => {
  it('favours the first token of each content word, and carries a begun word on', () => {
    const bias = wordBias(['Do you repair broken frames?']);
    const [frames, ...rest] = tokens('frames');
    expect(frames).toBeDefined();
    expect(startsWord(frames as number)).toBe(true);
    expect([...favoured(bias, undefined)]).toContain(frames);
    // Stop words and short words are left to the model.
    for (const word of ['you', 'do']) expect(bias.root.has(tokens(word)[0] as number)).toBe(false);
    // A word's later tokens are favoured only once it has begun.
    let at = advance(bias, undefined, frames as number);
    for (const token of rest) {
      expect([...favoured(bias, at)]).toContain(token);
      expect([...favoured(bias, undefined)]).not.toContain(token);
      at = advance(bias, at, token);
    }
  });

  it('does not favour a first token of one letter, but carries on a word the decoder began with one', () => {
    const [first, second] = tokens('vaccinations');
    // Llama's tokenizer splits it "▁v|acc|in|ations".
    expect(llamaTokenizer.vocabById[first as number]).toBe('\u2581v');
    const bias = wordBias(['Are vaccinations given here?']);
    expect([...favoured(bias, undefined)]).not.toContain(first);
    const begun = advance(bias, undefined, first as number);
    expect([...favoured(bias, begun)]).toContain(second);
  });

  it('starts over at every new word: a word that left the tree favours only word starts', () => {
    const bias = wordBias(['microchip']);
    const [micro, next] = tokens('microchip');
    const at = advance(bias, undefined, micro as number);
    const elsewhere = tokens('table')[0] as number;
    expect(advance(bias, at, elsewhere)).toBeUndefined();
    expect([...favoured(bias, advance(bias, at, elsewhere))]).not.toContain(next);
  });

  it('takes an assistant vocabulary’s sentences and keywords, and the emergency phrases', () => {
    const texts = biasTexts({ sentences: ['Where is the pharmacy?'], keywords: ['Medibrief'] });
    expect(texts.slice(0, 2)).toEqual(['Where is the pharmacy?', 'Medibrief']);
    expect(texts).toContain('chest pain');
    expect(texts).toContain('can not breathe');
    // As said: without the marks of words matched only as written.
    expect(texts.every((t) => !t.includes('='))).toBe(true);
  });
});

interface Business {
  knowledgeBase: KnowledgeEntry[];
  lines: { text: string }[];
}
const own = JSON.parse(
  readFileSync(new URL('../../reply/testing/own-lines.json', import.meta.url), 'utf8'),
) as { optician: Business; vet: Business };

/** Our own optician's and vet's callers' questions, most with a word of their knowledge base. */
const BUSINESSES = [own.optician, own.vet];

describe.skipIf(!speechToolsAvailable())('Moonshine with the word bias, on real speech', () => {
  let model: MoonshineModel;
  beforeAll(async () => {
    model = await MoonshineModel.load();
  });
  afterAll(async () => {
    await model.dispose();
  });

  it('hears more of the knowledge base’s words in our own callers’ questions, with no more word errors', async () => {
    const items = BUSINESSES.flatMap((business) =>
      TEST_VOICES.flatMap((voice) =>
        business.lines.map((line) => ({ text: line.text, voice, business })),
      ),
    );
    const spoken = await spokenFramesAll(items);
    const tally = { plain: { hits: 0, errors: 0 }, biased: { hits: 0, errors: 0 } };
    let kbWords = 0;
    for (const [i, item] of items.entries()) {
      const texts = item.business.knowledgeBase.flatMap((e) => [...e.questions, e.answer]);
      const known = new Set(
        texts.flatMap((t) => normalizeText(t).split(' ')).filter((w) => w.length >= 3),
      );
      const said = normalizeText(item.text).split(' ');
      const wanted = said.filter((w) => known.has(w));
      kbWords += wanted.length;
      const samples = toFloat(spoken[i] ?? []);
      for (const [key, options] of [
        ['plain', {}],
        ['biased', { bias: texts }],
      ] as const) {
        const heard = (await model.transcribe(samples, options)).text;
        const heardWords = normalizeText(heard).split(' ');
        tally[key].hits += wanted.filter((w) => heardWords.includes(w)).length;
        tally[key].errors += wordErrors(item.text, heard).errors;
      }
    }
    // When written (three eSpeak voices): of 270 knowledge-base words said, 189 heard
    // plainly and 196 with the bias; word errors 223 → 218.
    expect(kbWords).toBeGreaterThan(200);
    expect(tally.biased.hits).toBeGreaterThan(tally.plain.hits);
    expect(tally.biased.errors).toBeLessThanOrEqual(tally.plain.errors);
  }, 240_000);
});
