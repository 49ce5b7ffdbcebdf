/**
 * Phrases that mean someone needs urgent help, whatever the business: the usual "call an
 * ambulance" signs of first-aid guidance, written once for every assistant (not any
 * business's lines). The urgent path matches them on lemmas, so "bleeding" also catches
 * "bled" and "bleeds"; the domain language model learns them so they are heard. A word
 * ending in {@link AS_WRITTEN} is matched only as written.
 */
export const EMERGENCY_PHRASES: readonly string[] = [
  // Heart and circulation.
  'chest pain',
  'chest hurts',
  'chest tight',
  'heart attack',
  'cardiac arrest',
  'heart stopped',
  'stroke',
  // Breathing.
  'can not breathe',
  'not breathing',
  'stopped breathing',
  'struggling to breathe',
  'trouble breathing',
  'difficulty breathing',
  'hard to breathe',
  'short of breath',
  'choking',
  'turning blue',
  // Water: "drowning" and "drowned" by their lemma, "went under" as "gone under". (A
  // pupil who "struggles in the water" is taken for one in trouble too: better asked
  // about than a swimmer in distress missed.)
  'drown',
  'pulled out of the water',
  'gone under the water',
  'face down in the water',
  'struggling in the water',
  // "… in the deep end", "… in deep water": a pool's or the sea's, by the words between.
  'struggling in deep',
  // Bleeding and injury.
  'bleeding',
  'losing blood',
  'lot of blood',
  'broken bone',
  'broken arm',
  'broken leg',
  'broken hip',
  'broken wrist',
  'broken ankle',
  'fracture',
  'knocked out',
  'head injury',
  'hit my head',
  'severe burn',
  'burned badly',
  'electric shock',
  'electrocuted',
  // Road accidents ("run over" alone is also a meeting that ran over).
  'hit by a car',
  'been run over',
  'got run over',
  'car run over',
  'car accident',
  'car crash',
  // Consciousness.
  'collapsed',
  'unconscious',
  'unresponsive',
  'passed out',
  'fainted',
  'will not wake up',
  'can not wake',
  'seizure',
  'convulsion',
  // As written: the lemma of "fitting" is "fit".
  'having a fit=',
  'having fits=',
  // Stroke signs and the nerves: sudden numbness or weakness, a face that droops,
  // slurred speech, a bladder or bowel no longer under control.
  'face drooping',
  'slurred speech',
  'can not feel my leg',
  'can not feel my arm',
  'can not feel my face',
  'can not move my leg',
  'can not move my arm',
  // The recogniser's dictionary spells it the American way.
  'paralyzed',
  'lost control of my bladder',
  'can not control my bladder',
  'lost control of my bowel',
  // Eyes: sight lost suddenly, or something corrosive in them.
  'lost my sight',
  'lost my vision',
  'gone blind',
  'can not see anything',
  'chemical in my eye',
  'bleach in my eye',
  'acid in my eye',
  // Swelling and allergy.
  'swelling',
  'swollen',
  'can not swallow',
  'allergic reaction',
  'anaphylaxis',
  // Poisoning and harm.
  'overdose',
  'took too many pills',
  'took too many tablets',
  'poison',
  'suicidal',
  'suicide',
  'kill myself',
  'end my life',
  'harm myself',
  'hurt myself',
  // Said outright.
  'emergency',
  'ambulance',
];

/** Marks a phrase word matched only as written, never by its lemma ("fit="). */
export const AS_WRITTEN = '=';

/** A phrase as said: its words without the {@link AS_WRITTEN} marks. */
export function spokenPhrase(phrase: string): string {
  return phrase.replaceAll(AS_WRITTEN, '');
}
