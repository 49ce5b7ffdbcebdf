/**
 * Words for asking that something be passed on to whoever will see the caller, and for
 * describing how one feels: the reply engine uses them to start the pre-visit brief in the
 * caller's own words, or to offer it. General English, written once for every assistant;
 * matched on lemmas (see `Lexicon.lemma`).
 */

/** Verbs of passing information on ("tell", "pass", "note down", "let … know"). */
export const PASS_ON_VERBS: readonly string[] = [
  'tell',
  'pass',
  'note',
  'write',
  'give',
  'leave',
  'send',
  'inform',
  'forward',
  'mention',
  'explain',
  'describe',
  'record',
  'report',
];

/**
 * The pass-on verbs that mean nothing but telling, so that one followed by the caller's
 * symptom asks for it to be passed on even when who it is for was not heard: not "leave"
 * ("leave my car") nor "give" ("give me a cough sweet").
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
