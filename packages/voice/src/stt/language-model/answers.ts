/**
 * How callers answer an assistant's questions, as language-model training sentences: a
 * question's kind (how long, how bad on a scale, which medicines, which allergies, what
 * is wrong) is read from its own words, and each kind has its answer forms filled with
 * general English: numbers and durations, the lexicon's word classes (symptoms, body
 * parts, medicines from WordNet), and the medicines and allergies callers most often name
 * (language/intake-words.ts). An intake question then gets a language model of its own,
 * used for the caller's next utterance.
 */
import {
  COMMON_ALLERGENS,
  COMMON_MEDICINES,
  COMPLAINTS,
  MEDICINE_ALLERGIES,
  SYMPTOM_DOINGS,
  SYMPTOM_STATES,
  WHO_CALLERS_SPEAK_OF,
} from '../../language/intake-words.js';
import type { Lexicon } from '../../language/lexicon.js';
import { normalizeText, numberToWords } from './normalize.js';

export type AnswerKind = 'duration' | 'scale' | 'medicine' | 'allergy' | 'symptom';

/** "one" to "ten", then the vaguer counts. */
const DURATION_NUMBERS = [
  ...Array.from({ length: 10 }, (_, i) => numberToWords(i + 1)),
  'a few',
  'a couple of',
];
const DURATION_UNITS = ['hours', 'days', 'weeks', 'months', 'years'];
const DURATION_MODIFIERS = [
  '',
  'about',
  'for',
  'for about',
  'around',
  'almost',
  'nearly',
  'more than',
  'less than',
  'just',
  'only',
  'maybe',
];
const SINCE = [
  'yesterday',
  'today',
  'this morning',
  'last night',
  'last week',
  'last month',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'the weekend',
];
const WEEKDAYS = SINCE.filter((w) => w.endsWith('day') && !['today', 'yesterday'].includes(w));

function pluralUnit(n: string, unit: string): string {
  return n === 'one' ? unit.replace(/s$/, '') : unit;
}

/** "for about three days", "since last night", "two weeks ago"… */
export function durationPhrases(): string[] {
  const out: string[] = [];
  for (const n of DURATION_NUMBERS) {
    for (const unit of DURATION_UNITS) {
      const u = pluralUnit(n, unit);
      for (const m of DURATION_MODIFIERS) out.push(`${m} ${n} ${u}`);
      out.push(`${n} ${u} ago`, `it started ${n} ${u} ago`);
    }
  }
  for (const unit of ['an hour', 'a day', 'a week', 'a month', 'a year']) {
    for (const m of ['', 'about', 'for', 'for about', 'more than', 'less than', 'almost'])
      out.push(`${m} ${unit}`);
  }
  for (const when of SINCE) {
    out.push(
      `since ${when}`,
      `it started ${when === 'today' || when === 'yesterday' ? '' : 'on '}${when}`
        .replace('on last', 'last')
        .replace('on this', 'this'),
    );
  }
  for (const day of WEEKDAYS) out.push(`since last ${day}`, `last ${day}`);
  return out.map((s) => s.replace(/\s+/g, ' ').trim());
}

/** Parts of a day a caller puts after one ("since yesterday morning", "since sunday night"). */
const DAY_PARTS = ['morning', 'afternoon', 'evening', 'night'];
/** One of a unit, said with "or two" ("a day or two") or "or so". */
const SINGLE_UNITS = ['an hour', 'a day', 'a week', 'a month', 'a year'];
/** Vague lengths a caller says something has come and gone for ("on and off for ages"). */
const VAGUE_LENGTHS = ['years', 'months', 'weeks', 'ages', 'a while'];
/** Ranges run from "one or two" to "six or seven": above that callers round ("about ten"). */
const RANGE_STARTS = 6;

/**
 * How callers answer "how long" beyond a bare duration (see {@link durationPhrases}): a
 * range of two neighbouring numbers ("three or four days", "a day or two"), something that
 * comes and goes ("on and off for a month"), a duration that runs to now ("two weeks now",
 * "for the past few days"), and a start at a part of a day ("since yesterday morning").
 */
export function durationAnswers(): string[] {
  const out = durationPhrases();
  const counts = DURATION_NUMBERS.filter((n) => !n.startsWith('a '));
  for (const unit of DURATION_UNITS) {
    for (const [i, n] of counts.slice(0, RANGE_STARTS).entries()) {
      const range = `${n} or ${counts[i + 1] ?? ''} ${unit}`;
      out.push(range, `for ${range}`, `about ${range}`);
    }
    for (const n of DURATION_NUMBERS) {
      const length = `${n} ${pluralUnit(n, unit)}`;
      // "for the past few days", not "for the past a few days".
      const bare = length.replace(/^a /, '');
      out.push(
        `${length} now`,
        `for ${length} now`,
        `on and off for ${length}`,
        `for the past ${bare}`,
        `for the last ${bare}`,
      );
    }
  }
  for (const unit of SINGLE_UNITS) {
    out.push(
      `${unit} or two`,
      `for ${unit} or two`,
      `${unit} or so`,
      `about ${unit} now`,
      `on and off for ${unit}`,
      `on and off for about ${unit}`,
    );
  }
  for (const length of VAGUE_LENGTHS) out.push(`on and off for ${length}`, `for ${length} now`);
  for (const day of ['yesterday', ...WEEKDAYS]) {
    for (const part of DAY_PARTS) {
      if (day === 'yesterday' && part === 'night') continue; // "last night" (above)
      out.push(`since ${day} ${part}`, `just since ${day} ${part}`, `${day} ${part}`);
    }
  }
  return out.map((s) => s.replace(/\s+/g, ' ').trim());
}

/** The words a question is made of, in dictionary form where the lexicon knows them. */
function lemmasOf(question: string, lexicon: Lexicon | null): Set<string> {
  const words = normalizeText(question).split(' ').filter(Boolean);
  return new Set(words.flatMap((w) => [w, lexicon?.lemma(w) ?? w]));
}

const MEDICINE_WORDS = ['medicine', 'medication', 'drug', 'pill', 'tablet', 'prescription'];
const ALLERGY_WORDS = ['allergy', 'allergic', 'allergies'];
const SYMPTOM_WORDS = [
  'symptom',
  'problem',
  'reason',
  'wrong',
  'matter',
  'bother',
  'bothering',
  'hurt',
  'pain',
  'complaint',
  'trouble',
  'feel',
  'happen',
  'happened',
];

/** What kinds of answer a question asks for, read from its words. */
export function answerKinds(question: string, lexicon: Lexicon | null): Set<AnswerKind> {
  const text = normalizeText(question);
  const lemmas = lemmasOf(question, lexicon);
  const has = (list: readonly string[]) => list.some((w) => lemmas.has(w));
  const kinds = new Set<AnswerKind>();
  if (/\bhow long\b|\bsince when\b|^since\b|\bwhen did\b|\bhow many (days|weeks)\b/.test(text))
    kinds.add('duration');
  if (/\bscale\b|\bout of ten\b|\brate\b|\bhow (bad|severe|strong|painful)\b/.test(text))
    kinds.add('scale');
  if (has(MEDICINE_WORDS) || /\btaking (any|anything)\b/.test(text)) kinds.add('medicine');
  if (has(ALLERGY_WORDS)) kinds.add('allergy');
  // "How long have you had these symptoms?" asks how long, not which symptoms.
  if (has(SYMPTOM_WORDS) && !kinds.has('duration') && !kinds.has('scale')) kinds.add('symptom');
  return kinds;
}

/** Each of `items` beside another further down the list: "a cough and a fever". */
function pairs(items: readonly string[]): [string, string][] {
  const n = items.length;
  return items.map((a, i) => [a, items[(i * 7 + 3) % n] as string]);
}

/** Forms of a class's words ("tooth" → tooth, teeth). */
function formsOf(words: readonly string[], lexicon: Lexicon): string[] {
  return [...new Set(words.flatMap((w) => (w.includes(' ') ? [w] : [...lexicon.forms(w)])))];
}

/** Endings of a verb's forms, which a word shares with a noun of the same spelling. */
const VERB_ENDINGS = /(ed|ing|er)$/;

/**
 * Forms of a class of nouns: each and its plural ("tooth" → tooth, teeth; "eye" → eye,
 * eyes), not the forms of a verb spelled the same ("eyed", "handing"): "a lump on his
 * eyed" was heard once the model had them. (Symptoms keep theirs: "sprained", "bruised".)
 */
function nounFormsOf(words: readonly string[], lexicon: Lexicon): string[] {
  const own = new Set(words);
  return formsOf(words, lexicon).filter((form) => own.has(form) || !VERB_ENDINGS.test(form));
}

/** Scale answers: "maybe a six", "six out of ten". */
function scaleAnswers(): string[] {
  const out = ['it is bad', 'it is really bad', 'not too bad', 'quite bad', 'it hurts a lot'];
  for (let n = 0; n <= 10; n++) {
    const w = numberToWords(n);
    const a = n === 8 ? 'an' : 'a';
    out.push(
      w,
      `${a} ${w}`,
      `maybe ${a} ${w}`,
      `around ${w}`,
      `i would say ${a} ${w}`,
      `i would say ${w}`,
      `it is ${a} ${w}`,
      `${w} out of ten`,
      `about ${w} out of ten`,
    );
  }
  return out;
}

/** "None" to a question about medicines. */
const NO_MEDICINES = [
  'no',
  'nothing',
  'none',
  'no i am not taking anything',
  'i am not taking anything',
  'no medicine',
  'no medication',
  'nothing at the moment',
];

/** "None" to a question about allergies. */
const NO_ALLERGIES = [
  'no',
  'none',
  'no allergies',
  'no i do not have any allergies',
  'i am not allergic to anything',
  'not that i know of',
  'none that i know of',
];

/**
 * The answers that name nothing, to a question about medicines or allergies: the most
 * common answer, so a language model weighs them above any one name. (A lone "none" is
 * still often misheard, in two of six voices as "pollen": the brief's read-back is where
 * the caller corrects it.)
 */
export function noneAnswers(kinds: ReadonlySet<AnswerKind>): string[] {
  return [
    ...new Set([
      ...(kinds.has('medicine') ? NO_MEDICINES : []),
      ...(kinds.has('allergy') ? NO_ALLERGIES : []),
    ]),
  ];
}

function medicineAnswers(lexicon: Lexicon): string[] {
  const out = [...NO_MEDICINES];
  const medicines = [...new Set([...lexicon.wordsOf('medicine'), ...COMMON_MEDICINES])];
  for (const m of formsOf(medicines, lexicon)) {
    out.push(m, `i am taking ${m}`, `i take ${m}`, `just ${m}`, `only ${m}`, `some ${m}`);
  }
  for (const [a, b] of pairs(medicines)) out.push(`${a} and ${b}`);
  return out;
}

function allergyAnswers(lexicon: Lexicon): string[] {
  const out = [...NO_ALLERGIES];
  const allergens = [
    ...new Set([...lexicon.wordsOf('medicine'), ...MEDICINE_ALLERGIES, ...COMMON_ALLERGENS]),
  ];
  for (const m of formsOf(allergens, lexicon)) {
    out.push(m, `i am allergic to ${m}`, `an allergy to ${m}`, `yes to ${m}`);
  }
  for (const [a, b] of pairs(allergens)) out.push(`${a} and ${b}`);
  return out;
}

/** Someone a sentence is about, with the forms its verbs and possessive take. */
interface Sufferer {
  who: string;
  self: string;
  have: string;
  be: string;
  keep: string;
  feel: string;
  their: string;
}

const FIRST_PERSON: Sufferer = {
  who: 'i',
  self: 'myself',
  have: 'have',
  be: 'am',
  keep: 'keep',
  feel: 'feel',
  their: 'my',
};
const HE: Sufferer = {
  who: 'he',
  self: 'himself',
  have: 'has',
  be: 'is',
  keep: 'keeps',
  feel: 'feels',
  their: 'his',
};
const SHE: Sufferer = { ...HE, who: 'she', self: 'herself', their: 'her' };
/** The caller and the pronouns of whom they speak of. */
const PRONOUNS: readonly Sufferer[] = [FIRST_PERSON, HE, SHE];
/** A state said of someone: "off their food" → "off his food", "not themselves" → "not myself". */
const stateOf = (state: string, p: Sufferer): string =>
  state.replace(/\btheir\b/, p.their).replace(/\bthemselves\b/, p.self);

/** He or she, taking turns down a list (so each word is said of someone else once). */
const otherPerson = (i: number): Sufferer => (i % 2 === 0 ? HE : SHE);

/**
 * How callers say what is wrong: with the lexicon's symptoms and body parts, and
 * everyday complaints, states and doings (language/intake-words.ts), of themselves ("i
 * have a cough", "my knee is swollen") or of whom they speak of ("he keeps being sick",
 * "my son has a temperature", "a lump on her back"). Words of one list are paired with
 * another's in turn rather than all with all: the trigram model joins them.
 */
function symptomAnswers(lexicon: Lexicon): string[] {
  const out: string[] = [];
  const symptoms = [...new Set([...lexicon.wordsOf('symptom'), ...COMPLAINTS])];
  const symptomForms = formsOf(symptoms, lexicon);
  for (const [i, s] of symptomForms.entries()) {
    const other = otherPerson(i);
    out.push(
      s,
      `a ${s}`,
      `i have a ${s}`,
      `i have ${s}`,
      `a bad ${s}`,
      `i have a bad ${s}`,
      `i think i have ${s}`,
      `i have had a ${s}`,
      `${other.who} ${other.have} a ${s}`,
      `${other.who} ${other.have} ${s}`,
      `${other.who} has had a ${s}`,
    );
  }
  for (const [a, b] of pairs(symptoms)) out.push(`a ${a} and a ${b}`, `${a} and ${b}`);
  for (const state of SYMPTOM_STATES) {
    for (const p of PRONOUNS) {
      out.push(
        `${p.who} ${p.be} ${stateOf(state, p)}`,
        `${p.who} ${p.feel} ${stateOf(state, p)}`,
        `${p.who} ${p.have} been ${stateOf(state, p)}`,
      );
    }
  }
  for (const doing of SYMPTOM_DOINGS) {
    const stopped = doing.startsWith('not ') ? doing.slice('not '.length) : undefined;
    for (const p of PRONOUNS) {
      out.push(
        `${p.who} ${p.keep} ${doing}`,
        `${p.who} ${p.be} ${doing}`,
        `${p.who} ${p.have} been ${doing}`,
      );
      if (stopped !== undefined) out.push(`${p.who} ${p.have} stopped ${stopped}`);
    }
  }
  const parts = lexicon.wordsOf('bodyPart');
  const partForms = nounFormsOf(parts, lexicon);
  for (const [i, b] of partForms.entries()) {
    const other = otherPerson(i);
    const complaint = COMPLAINTS[i % COMPLAINTS.length] as string;
    out.push(
      `my ${b}`,
      `my ${b} hurts`,
      `my ${b} is sore`,
      `a sore ${b}`,
      `pain in my ${b}`,
      `${b} pain`,
      `my ${b} is swollen`,
      `a swollen ${b}`,
      `i hurt my ${b}`,
      `i broke my ${b}`,
      `a broken ${b}`,
      `i cut my ${b}`,
      `something wrong with my ${b}`,
      `a ${complaint} on my ${b}`,
      `${other.their} ${b} hurts`,
      `${other.their} ${b} is swollen`,
      `${other.who} hurt ${other.their} ${b}`,
      `there is a ${complaint} on ${other.their} ${b}`,
    );
  }
  for (const [a, b] of pairs(parts)) out.push(`my ${a} and my ${b}`);
  // Whom the caller speaks of, each with a few of the words above, in turn.
  for (const [i, who] of WHO_CALLERS_SPEAK_OF.entries()) {
    const at = <T>(list: readonly T[], k: number): T => list[(i * 5 + k) % list.length] as T;
    for (const whose of ['my', 'our']) {
      const someone = `${whose} ${who}`;
      out.push(
        `${someone} has a ${at(symptomForms, 0)}`,
        `${someone} is ${stateOf(at(SYMPTOM_STATES, 1), otherPerson(i))}`,
        `${someone} keeps ${at(SYMPTOM_DOINGS, 2)}`,
        `${someone} has been ${at(SYMPTOM_DOINGS, 3)}`,
        `${someone} hurt ${otherPerson(i).their} ${at(partForms, 4)}`,
        `there is something wrong with ${someone}`,
        `it is ${someone}`,
      );
    }
  }
  return out;
}

/** Answers of the given kinds, normalised. */
export function kindAnswers(kinds: ReadonlySet<AnswerKind>, lexicon: Lexicon | null): string[] {
  const out: string[] = [];
  if (kinds.has('duration')) out.push(...durationAnswers());
  if (kinds.has('scale')) out.push(...scaleAnswers());
  if (lexicon) {
    if (kinds.has('medicine')) out.push(...medicineAnswers(lexicon));
    if (kinds.has('allergy')) out.push(...allergyAnswers(lexicon));
    if (kinds.has('symptom')) out.push(...symptomAnswers(lexicon));
  }
  return [...new Set(out.map(normalizeText).filter((s) => s !== ''))];
}
