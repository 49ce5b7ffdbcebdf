/**
 * Contextual biasing for Moonshine's greedy decoder: the words an assistant's callers are
 * likely to use (its knowledge base's, and the emergency phrases every assistant must
 * hear) are favoured where the audio leaves the decoder hesitating, as a prefix tree of
 * their tokens. At each step a token that starts one of those words, or carries on the one
 * begun, has {@link BIAS_WEIGHT} added to its logit before the most likely token is taken;
 * everywhere else the model decides alone. A bonus, not a grammar: speech that is clearly
 * something else is still read as it is. Only the best reading is biased: the readings
 * read on from where the decoder hesitated stay the model's own (see `MoonshineModel`).
 *
 * Measured on our own callers' lines (`own-lines.json`: five businesses' 92 paraphrased
 * questions, 21 urgent and 64 off-topic lines; `bench/lib/offline-own-lines.mjs`, the
 * product's recogniser path and reply engine) in eSpeak en-us and en-gb, whose speech is
 * the same from run to run: 98 → 104 of 184 questions answered right (12 → 13 wrong),
 * 40 → 41 of 42 emergencies caught, off-topic lines told a fact 6 → 6 of 128, false alarms
 * 4 → 4; in festival slt and kal, which Moonshine already hears well, 114 → 113 right,
 * the rest unchanged. A weight of 1.5 (without the emergency phrases) gained 4 right answers but told
 * 3 more off-topic lines a fact ("how do i get to the airport" read as "… the nearer
 * part", the parking); heard by Moonshine alone, it cut the word errors on the questions
 * by 1–2 points, and 2.5 added some back.
 */
import llamaTokenizer from 'llama-tokenizer-js';
import { EMERGENCY_PHRASES, spokenPhrase } from '../../language/emergency-phrases.js';
import { STOP_WORDS } from '../../language/stop-words.js';
import { normalizeText } from '../language-model/normalize.js';
import type { DomainVocabulary } from '../types.js';

/** Added to a favoured token's logit (a factor of e, about 2.7, in its odds). */
export const BIAS_WEIGHT = 1;
/** Words shorter than this are left to the model: "of", "me" and the like are no topic. */
const MIN_LETTERS = 3;
/**
 * A word's first token is favoured only when it spells this many letters or more: many
 * words begin with a token of one letter ("▁v|acc|in|ations", "▁w|orm|ing"), and favouring
 * those made the decoder spell unknown words out letter by letter ("my cat needs to be
 * spayed" read as "… w s p a"). Such a word is favoured from its second token, once the
 * decoder has begun it by itself.
 */
const MIN_FIRST_LETTERS = 3;
/** Moonshine's token ids past Llama's vocabulary are special tokens, never text. */
const TEXT_TOKENS = llamaTokenizer.vocabById.length;
/** SentencePiece marks a token that begins a word with this (a space). */
const WORD_START = '\u2581';
/** Llama's unknown, start and end tokens. */
const FIRST_TEXT_TOKEN = 3;

/** A node of the prefix tree: the tokens that carry the word on. */
export type BiasNode = ReadonlyMap<number, BiasNode>;

export interface WordBias {
  /** The first tokens of the favoured words, and the tree of their other tokens. */
  readonly root: BiasNode;
  /** The first tokens that are favoured themselves (see {@link MIN_FIRST_LETTERS}). */
  readonly starts: ReadonlySet<number>;
  readonly weight: number;
}

/**
 * The bias for these texts' words (sentences or single words): each word of three letters
 * or more that is not a stop word, as the decoder would spell it after a space.
 */
export function wordBias(texts: readonly string[], weight: number = BIAS_WEIGHT): WordBias {
  const root = new Map<number, Map<number, BiasNode>>();
  const starts = new Set<number>();
  const words = new Set(
    texts
      .flatMap((t) => normalizeText(t).split(' '))
      .filter((w) => w.length >= MIN_LETTERS && !STOP_WORDS.has(w)),
  );
  for (const word of words) {
    let node = root;
    const tokens = llamaTokenizer
      .encode(` ${word}`, false, false)
      .filter((token) => token >= FIRST_TEXT_TOKEN);
    const first = tokens[0];
    if (first !== undefined && letters(first) >= MIN_FIRST_LETTERS) starts.add(first);
    for (const token of tokens) {
      let next = node.get(token);
      if (next === undefined) node.set(token, (next = new Map()));
      node = next as Map<number, Map<number, BiasNode>>;
    }
  }
  return { root, starts, weight };
}

/** How many letters a token spells. */
function letters(token: number): number {
  return (llamaTokenizer.vocabById[token] ?? '').replace(/[^\p{L}]/gu, '').length;
}

/**
 * What Moonshine favours for an assistant: its vocabulary's sentences and keywords, and the
 * built-in emergency phrases, which every assistant must hear.
 */
export function biasTexts(vocabulary: DomainVocabulary): string[] {
  return [...vocabulary.sentences, ...vocabulary.keywords, ...EMERGENCY_PHRASES.map(spokenPhrase)];
}

/** Whether the token begins a new word. */
export function startsWord(token: number): boolean {
  return token < TEXT_TOKENS && (llamaTokenizer.vocabById[token] ?? '').startsWith(WORD_START);
}

/**
 * Where the decoder is in the tree after taking `token` from `at` (the node of the word
 * begun, or undefined when the word so far is none of the favoured ones).
 */
export function advance(
  bias: WordBias,
  at: BiasNode | undefined,
  token: number,
): BiasNode | undefined {
  return startsWord(token) ? bias.root.get(token) : at?.get(token);
}

/**
 * The tokens favoured at this step: those that start a favoured word, and those that
 * carry on the one begun (not a new word's start: that is the root's to favour).
 */
export function* favoured(bias: WordBias, at: BiasNode | undefined): Iterable<number> {
  yield* bias.starts;
  if (at === undefined) return;
  for (const token of at.keys()) if (!startsWord(token)) yield token;
}
