/**
 * Words for asking that something be passed on to whoever will see the caller, and for
 * describing how one feels: the reply engine uses them to start the pre-visit brief in the
 * caller's own words, or to offer it. General English, written once for every assistant;
 * matched on lemmas (see `Lexicon.lemma`).
 */

/**
 * Verbs that mean nothing but telling ("tell", "pass", "note down", "inform"): one
 * followed by the caller's symptom asks for it to be passed on even when who it is for
 * was not heard.
 */
export const TELL_VERBS: readonly string[] = [
  'tell',
  'pass',
  'note',
  'write',
  'send',
  'inform',
  'forward',
  'mention',
  'explain',
  'describe',
  'report',
];

/**
 * Verbs of passing information on ("tell", "leave a note", "give the doctor a summary"):
 * the verbs of telling, and verbs with other senses too ("leave my car", "give me a cough
 * sweet") that pass something on only when said to whom or what.
 */
export const PASS_ON_VERBS: readonly string[] = [...TELL_VERBS, 'give', 'leave', 'record'];

/** Who a brief is for, and what it is. */
export const BRIEF_RECIPIENTS: readonly string[] = [
  'doctor',
  'dentist',
  'nurse',
  'physician',
  'clinician',
  'surgeon',
  'hygienist',
  'therapist',
  'practitioner',
  'vet',
  'specialist',
  'brief',
  'message',
  'note',
  'details',
  'summary',
  'symptom',
  'problem',
];

/** Words of someone describing how they feel (symptoms, pain, where it is). */
export const SYMPTOM_WORDS: readonly string[] = [
  'pain',
  'painful',
  'ache',
  'hurt',
  'sore',
  'fever',
  'temperature',
  'cough',
  'rash',
  'itch',
  'itchy',
  'dizzy',
  'nausea',
  'nauseous',
  'vomit',
  'sick',
  'headache',
  'migraine',
  'infection',
  'bruise',
  'sprain',
  'lump',
  'tired',
  'exhausted',
  'numb',
  'tingle',
  'cramp',
  'stiff',
  'throb',
  'sensitive',
  'bleed',
  'swell',
  'symptom',
  'unwell',
  'ill',
];
