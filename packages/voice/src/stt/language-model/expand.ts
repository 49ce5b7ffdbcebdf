/**
 * Generates language-model training sentences from an assistant's vocabulary: the given
 * sentences, their sub-phrases, polite wrappers, the caller's likely answers to the
 * assistant's own questions, keywords alone and in carrier phrases, and the small talk
 * every call has (yes, no, thanks, greetings, goodbyes, asking to repeat, durations,
 * numbers). Each sentence carries a weight (a training count).
 */
import { Lexicon } from '../../language/lexicon.js';
import type { DomainVocabulary } from '../types.js';
import { normalizeText, numberToWords } from './normalize.js';
import { answerKinds, durationPhrases, kindAnswers, noneAnswers } from './answers.js';
import { emergencySentences, relatedVariants } from './related.js';

/** Normalised sentence → training count. */
export type TrainingCorpus = Map<string, number>;

const W_SENTENCE = 4;
const W_COMMON = 2;
const W_VARIANT = 1;
/** Longest sub-phrase taken from a sentence (keeps long answers from flooding the corpus). */
const MAX_SUB_PHRASE_WORDS = 8;

/** Phrases of every call, whatever the assistant. */
export const CONVERSATION_PHRASES: readonly string[] = [
  'yes',
  'yes please',
  'yes thank you',
  'yeah',
  'yep',
  'sure',
  'okay',
  'okay thank you',
  'ok',
  'right',
  'that is right',
  'correct',
  'exactly',
  'no',
  'no thank you',
  'no thanks',
  'nope',
  'not really',
  'no that is all',
  'no that is all thank you',
  'that is all',
  'that is all thank you',
  'that is it',
  'nothing else',
  'nothing else thank you',
  'thank you',
  'thank you very much',
  'thanks',
  'thanks a lot',
  'great thank you',
  'hello',
  'hi',
  'hi there',
  'hello there',
  'good morning',
  'good afternoon',
  'good evening',
  'goodbye',
  'bye',
  'bye bye',
  'have a nice day',
  'sorry',
  'pardon',
  'sorry what did you say',
  'can you repeat that',
  'could you repeat that please',
  'can you say that again',
  'say that again please',
  'i did not understand',
  'i did not hear you',
  'what was that',
  'i do not know',
  'i am not sure',
  'maybe',
  'i think so',
  'i do not think so',
  'wait a moment',
  'one moment please',
  'can i ask something else',
  'i have a question',
  'i have another question',
  'i would like to speak to a person',
  'can i talk to someone',
];

/** How callers answer the assistant's "Do you mean, A, or B?" (see `expandClarifying`). */
export const CHOICE_REPLIES: readonly string[] = [
  'the first one',
  'the first',
  'first one',
  'the first one please',
  'the second one',
  'the second',
  'second one',
  'the second one please',
  'the other one',
  'the last one',
  'both',
  'both of them',
  'neither',
  'neither of them',
  'none of them',
  'yes that one',
  'no not that',
];

const SENTENCE_PREFIXES = [
  'yes',
  'hello',
  'hi',
  'please',
  'okay',
  'so',
  'and',
  'also',
  'sorry',
  'excuse me',
];
const SENTENCE_SUFFIXES = ['please', 'thank you', 'thanks'];
const KEYWORD_CARRIERS = [
  'i said X',
  'X please',
  'about X',
  'it is X',
  'my X',
  'the X',
  'i need X',
  'i want X',
  'what about X',
  'X thank you',
  'yes X',
  'no X',
  'i have X',
  'i am taking X',
];

function add(corpus: TrainingCorpus, sentence: string, weight: number): void {
  const s = normalizeText(sentence);
  if (s === '') return;
  corpus.set(s, (corpus.get(s) ?? 0) + weight);
}

/** Pronouns seen from the caller's side: "your visit" → "my visit". */
function flipPerson(wordsIn: string[]): string[] {
  return wordsIn.map((w) =>
    w === 'your' ? 'my' : w === 'yours' ? 'mine' : w === 'you' ? 'me' : w,
  );
}

/**
 * The caller's likely answers to one of the assistant's questions:
 * "do you have any allergies" → "i have allergies", "no i do not have any allergies"…
 */
export function answersTo(question: string): string[] {
  const w = normalizeText(question).split(' ').filter(Boolean);
  const out: string[] = [];
  const rest = (from: number): string[] => flipPerson(w.slice(from));
  const withoutAny = (ws: string[]): string[] => ws.filter((x) => x !== 'any');
  if ((w[0] === 'do' || w[0] === 'did') && w[1] === 'you' && w.length > 2) {
    const r = rest(2);
    const past = w[0] === 'did';
    out.push(
      `i ${withoutAny(r).join(' ')}`,
      `yes i ${withoutAny(r).join(' ')}`,
      `${past ? 'i did not' : 'i do not'} ${r.join(' ')}`,
      `no ${past ? 'i did not' : 'i do not'} ${r.join(' ')}`,
      `yes i ${past ? 'did' : 'do'}`,
      `no i ${past ? 'did not' : 'do not'}`,
    );
    const obj = withoutAny(rest(3));
    if (obj.length > 0) out.push(`no ${obj.join(' ')}`, `i have no ${obj.join(' ')}`);
  } else if (w[0] === 'are' && w[1] === 'you' && w.length > 2) {
    const r = rest(2);
    out.push(
      `i am ${withoutAny(r).join(' ')}`,
      `yes i am ${withoutAny(r).join(' ')}`,
      `i am not ${r.join(' ')}`,
      `no i am not ${r.join(' ')}`,
      'yes i am',
      'no i am not',
    );
    if (w[2]?.endsWith('ing'))
      out.push(`i am not ${w[2]} anything`, `no i am not ${w[2]} anything`);
  } else if (w[0] === 'have' && w[1] === 'you' && w.length > 2) {
    const r = rest(2);
    out.push(
      `i have ${withoutAny(r).join(' ')}`,
      `i have not ${r.join(' ')}`,
      'yes i have',
      'no i have not',
    );
  } else if (w[0] === 'how' && w[1] === 'long') {
    const r = rest(2);
    // "how long have you had these symptoms" → "i have had these symptoms for three days"
    if (r[0] === 'have' && r[1] === 'me') out.push(`i have ${r.slice(2).join(' ')} for a few days`);
  } else if (w[0] === 'what' && (w[1] === 'is' || w[1] === 'are') && w.length > 2) {
    const r = rest(2);
    out.push(`${r.join(' ')} ${w[1]}`);
  }
  return out.map((s) => s.replace(/\s+/g, ' ').trim());
}

/**
 * Builds the weighted training corpus for a vocabulary. With a lexicon (the default), each
 * short sentence also comes in variants with related words, and the built-in emergency
 * phrases are added (see related.ts).
 */
export function expandVocabulary(
  vocabulary: DomainVocabulary,
  options: { lexicon?: Lexicon | null } = {},
): TrainingCorpus {
  const lexicon = options.lexicon === undefined ? Lexicon.default() : options.lexicon;
  const corpus: TrainingCorpus = new Map();
  // Paragraphs (knowledge-base answers) are split into sentences first.
  const sentences = [
    ...new Set(
      vocabulary.sentences
        .flatMap((t) => t.split(/[.!?;:]+(?:\s+|$)|\n+/))
        .map(normalizeText)
        .filter((s) => s !== ''),
    ),
  ];

  for (const s of sentences) {
    add(corpus, s, W_SENTENCE);
    const w = s.split(' ');
    // Sub-phrases (prefixes, suffixes and middles) of two words or more: callers trail off
    // or start mid-sentence, and the recogniser may only hear part of it.
    for (let i = 0; i < w.length; i++) {
      for (let j = i + 2; j <= Math.min(w.length, i + MAX_SUB_PHRASE_WORDS); j++) {
        if (i === 0 && j === w.length) continue;
        add(corpus, w.slice(i, j).join(' '), W_VARIANT);
      }
    }
    for (const p of SENTENCE_PREFIXES) add(corpus, `${p} ${s}`, W_VARIANT);
    for (const p of SENTENCE_SUFFIXES) add(corpus, `${s} ${p}`, W_VARIANT);
    if (lexicon) for (const v of relatedVariants(s, lexicon)) add(corpus, v, W_VARIANT);
  }
  if (lexicon) for (const e of emergencySentences()) add(corpus, e, W_VARIANT);

  for (const q of vocabulary.assistantQuestions ?? []) {
    for (const a of answersTo(q)) {
      add(corpus, a, W_COMMON);
      const w = a.split(' ');
      for (let i = 1; i < w.length - 1; i++) add(corpus, w.slice(i).join(' '), W_VARIANT);
    }
  }

  for (const k of vocabulary.keywords.map(normalizeText).filter((x) => x !== '')) {
    add(corpus, k, W_COMMON);
    for (const c of KEYWORD_CARRIERS) add(corpus, c.replace('X', k), W_VARIANT);
  }

  for (const p of CONVERSATION_PHRASES) add(corpus, p, W_COMMON);

  for (const p of numberPhrases()) add(corpus, p, W_VARIANT);

  return corpus;
}

/** Durations and numbers to a hundred. */
function numberPhrases(): string[] {
  const out = [...durationPhrases()];
  for (let n = 0; n <= 100; n++) out.push(numberToWords(n));
  return out.map(normalizeText);
}

/**
 * The training corpus of one of the assistant's questions, for the caller's answer to it:
 * the answers its wording suggests (`answersTo`), the answers of its kinds (durations,
 * a scale, medicines, allergies, symptoms and body parts; see answers.ts) and the phrases
 * of every call. Null when the question's kind is not recognised: the assistant's domain
 * model then hears the answer.
 */
export function expandQuestion(
  question: string,
  options: { lexicon?: Lexicon | null } = {},
): TrainingCorpus | null {
  const lexicon = options.lexicon === undefined ? Lexicon.default() : options.lexicon;
  const kinds = answerKinds(question, lexicon);
  if (kinds.size === 0) return null;
  const corpus: TrainingCorpus = new Map();
  for (const a of kindAnswers(kinds, lexicon)) add(corpus, a, W_VARIANT);
  // "None" weighs as much as the answers the question's own words suggest.
  for (const a of noneAnswers(kinds)) add(corpus, a, W_SENTENCE - W_VARIANT);
  for (const a of answersTo(question)) add(corpus, a, W_SENTENCE);
  for (const p of CONVERSATION_PHRASES) add(corpus, p, W_COMMON);
  return corpus;
}

/**
 * The training corpus for the caller's reply to a clarifying question ("Do you mean, A, or
 * B?"): the assistant's whole domain corpus, since a caller may answer by asking again in
 * other words, with the replies that pick one of the two ({@link CHOICE_REPLIES}) as likely
 * as the knowledge base's own questions, and no numbers: with them "the first one" was heard
 * as "the thirty one".
 */
export function expandClarifying(domain: TrainingCorpus): TrainingCorpus {
  const corpus: TrainingCorpus = new Map(domain);
  // Not numbers: a reply to "A, or B?" names no count.
  for (const p of numberPhrases()) corpus.delete(p);
  for (const r of CHOICE_REPLIES) add(corpus, r, W_SENTENCE);
  return corpus;
}
