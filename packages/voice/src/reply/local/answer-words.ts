/**
 * How much a reading sounds like an answer to one of the brief's questions: measured
 * against the answers the recogniser's model for that question is built from (durations,
 * medicines, allergies, symptoms and body parts; see `stt/language-model/answers.ts`). Of
 * two readings of a free answer, the one more like such answers is more likely what the
 * caller said.
 */
import type { Lexicon } from '../../language/lexicon.js';
import { answerKinds, kindAnswers } from '../../stt/language-model/answers.js';
import { editDistance } from './text.js';

/** The words and word pairs of a question's answers ("<s>"/"</s>" mark the ends). */
export interface AnswerForms {
  words: ReadonlySet<string>;
  pairs: ReadonlySet<string>;
}

const START = '<s>';
const END = '</s>';
/** Questions whose answer forms are kept, for the next turns and calls of the same assistants. */
const CACHE_SIZE = 64;
const cache = new Map<string, AnswerForms>();

/** The answer forms of this question (none for a question of no known kind). */
export function answerForms(question: string, lexicon: Lexicon): AnswerForms {
  const cached = cache.get(question);
  if (cached !== undefined) return cached;
  const words = new Set<string>();
  const pairs = new Set<string>();
  for (const answer of kindAnswers(answerKinds(question, lexicon), lexicon)) {
    const said = bounded(answer);
    for (const [i, w] of said.entries()) {
      if (w !== START && w !== END) words.add(w);
      const next = said[i + 1];
      if (next !== undefined) pairs.add(`${w} ${next}`);
    }
  }
  const forms = { words, pairs };
  cache.set(question, forms);
  while (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
  return forms;
}

/**
 * How like the answers the reading is (0–2): the share of its words that are answers'
 * words, plus the share of its word pairs (its start and end included) that answers have.
 */
export function likeAnswers(reading: string, forms: AnswerForms): number {
  const said = bounded(reading);
  const words = said.slice(1, -1);
  if (words.length === 0) return 0;
  let pairs = 0;
  for (let i = 0; i + 1 < said.length; i++) {
    if (forms.pairs.has(`${said[i]} ${said[i + 1]}`)) pairs += 1;
  }
  const known = words.filter((w) => forms.words.has(w)).length;
  return known / words.length + pairs / (said.length - 1);
}

function bounded(text: string): string[] {
  return [START, ...text.split(' ').filter((w) => w !== ''), END];
}

/**
 * How much the other readings of the same utterance agree with this one (0–1): one less
 * each one's word edit distance to it, over the longer's length, on average. Readings
 * that two recognisers (or several of one's beams) share are likelier what was said.
 */
export function agreement(reading: string, others: readonly string[]): number {
  if (others.length === 0) return 0;
  const words = reading.split(' ').filter((w) => w !== '');
  let sum = 0;
  for (const other of others) {
    const theirs = other.split(' ').filter((w) => w !== '');
    const longer = Math.max(words.length, theirs.length);
    if (longer > 0) sum += 1 - editDistance(words, theirs) / longer;
  }
  return sum / others.length;
}
