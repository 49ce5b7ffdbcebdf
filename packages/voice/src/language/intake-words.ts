/**
 * What callers name when asked which medicines they take and what they are allergic to,
 * beyond WordNet's few medicine nouns (the lexicon's `medicine` class has aspirin and
 * penicillin but not paracetamol or a statin): the language models of those intake
 * questions are built from these too. Words the recogniser's dictionary lacks are sounded
 * out when the model is built (see `stt/language-model/sound-out.ts`).
 *
 * Chosen from public lists, not from any caller's lines: the most dispensed medicines in
 * England's and the United States' community prescribing (generic names), the medicines
 * people buy over the counter, the kinds of medicine callers name instead ("my blood
 * pressure tablets"), and the allergens food law makes every business declare (the UK and
 * EU fourteen, the US nine) with the commonest allergies that are not to food.
 */

/** Generic names of the most dispensed medicines, and what people buy at a pharmacy. */
export const COMMON_MEDICINES: readonly string[] = [
  // Pain and inflammation.
  'paracetamol',
  'acetaminophen',
  'ibuprofen',
  'aspirin',
  'naproxen',
  'diclofenac',
  'codeine',
  'co-codamol',
  'tramadol',
  'morphine',
  // Infections.
  'amoxicillin',
  'penicillin',
  'flucloxacillin',
  'doxycycline',
  'clarithromycin',
  'azithromycin',
  'trimethoprim',
  'nitrofurantoin',
  'cephalexin',
  'ciprofloxacin',
  'metronidazole',
  // Heart, blood pressure, cholesterol, blood thinners.
  'atorvastatin',
  'simvastatin',
  'rosuvastatin',
  'amlodipine',
  'ramipril',
  'lisinopril',
  'losartan',
  'candesartan',
  'bisoprolol',
  'metoprolol',
  'atenolol',
  'propranolol',
  'bendroflumethiazide',
  'hydrochlorothiazide',
  'indapamide',
  'furosemide',
  'doxazosin',
  'warfarin',
  'apixaban',
  'rivaroxaban',
  'clopidogrel',
  // Diabetes and thyroid.
  'metformin',
  'gliclazide',
  'sitagliptin',
  'insulin',
  'levothyroxine',
  // Stomach.
  'omeprazole',
  'lansoprazole',
  'pantoprazole',
  'esomeprazole',
  'gaviscon',
  // Breathing.
  'salbutamol',
  'albuterol',
  'beclometasone',
  'fluticasone',
  'budesonide',
  'montelukast',
  // Mood, sleep and nerve pain.
  'sertraline',
  'citalopram',
  'escitalopram',
  'fluoxetine',
  'mirtazapine',
  'amitriptyline',
  'venlafaxine',
  'duloxetine',
  'trazodone',
  'bupropion',
  'gabapentin',
  'pregabalin',
  'diazepam',
  'lorazepam',
  'zopiclone',
  // Steroids, allergy, and the rest of the most dispensed.
  'prednisolone',
  'prednisone',
  'hydrocortisone',
  'cetirizine',
  'loratadine',
  'fexofenadine',
  'chlorphenamine',
  'folic acid',
  'vitamin d',
  'iron tablets',
  'tamsulosin',
  'finasteride',
  'allopurinol',
  'methotrexate',
  // What callers say instead of a name.
  'an inhaler',
  'antibiotics',
  'painkillers',
  'blood thinners',
  'statins',
  'steroids',
  'antihistamines',
  'antidepressants',
  'sleeping pills',
  'blood pressure tablets',
  'blood pressure pills',
  'the pill',
  'a nasal spray',
  'eye drops',
  'a cream',
  'vitamins',
];

/** The medicines people most often say they are allergic to. */
export const MEDICINE_ALLERGIES: readonly string[] = [
  'penicillin',
  'amoxicillin',
  'antibiotics',
  'aspirin',
  'ibuprofen',
  'codeine',
  'morphine',
  'sulfa',
];

/**
 * The allergens food law makes businesses declare (UK and EU: celery, cereals with gluten,
 * crustaceans, eggs, fish, lupin, milk, molluscs, mustard, tree nuts, peanuts, sesame, soya,
 * sulphites; US: those with wheat and shellfish), in callers' words, and the commonest
 * allergies that are not to food.
 */
export const COMMON_ALLERGENS: readonly string[] = [
  'celery',
  'gluten',
  'wheat',
  'shellfish',
  'crustaceans',
  'prawns',
  'eggs',
  'fish',
  'lupin',
  'milk',
  'dairy',
  'lactose',
  'molluscs',
  'mustard',
  'nuts',
  'tree nuts',
  'peanuts',
  'sesame',
  'soya',
  'soy',
  'sulphites',
  'pollen',
  'hay fever',
  'grass',
  'dust',
  'dust mites',
  'cats',
  'dogs',
  'animal hair',
  'latex',
  'bee stings',
  'wasp stings',
  'plasters',
  'nickel',
];

/**
 * Whom a caller speaks of when it is not themselves: the family members a caller brings
 * along or rings for, and the animals people keep (the commonest species of the UK's and
 * the United States' pet population surveys). A question about what is wrong is answered
 * "my son has a fever" or "our cat keeps being sick" as often as "I have a cough".
 */
export const WHO_CALLERS_SPEAK_OF: readonly string[] = [
  'son',
  'daughter',
  'husband',
  'wife',
  'partner',
  'mum',
  'mom',
  'dad',
  'mother',
  'father',
  'baby',
  'child',
  'little boy',
  'little girl',
  'dog',
  'cat',
  'puppy',
  'kitten',
  'rabbit',
  'guinea pig',
  'hamster',
  'horse',
  'bird',
  'parrot',
  'tortoise',
  'pet',
];

/**
 * How callers say what is wrong in everyday words, which WordNet's disease and injury
 * nouns (the lexicon's `symptom` class) miss: the states a body is in ("dizzy",
 * "swollen"), what it keeps doing ("coughing", "being sick"), and the plain names of
 * common complaints ("a lump", "a temperature"). Chosen from the general symptom lists of
 * public health and animal-care guidance (the NHS's common symptoms; the PDSA's signs that
 * a pet is unwell), not from any caller's lines.
 */
export const SYMPTOM_STATES: readonly string[] = [
  'sick',
  'ill',
  'unwell',
  'poorly',
  'dizzy',
  'faint',
  'tired',
  'weak',
  'sleepy',
  'itchy',
  'swollen',
  'stiff',
  'sore',
  'numb',
  'feverish',
  'hot',
  'breathless',
  'short of breath',
  'nauseous',
  'bloated',
  'constipated',
  'in pain',
  // "their" and "themselves" stand for the sufferer's own ("off his food", "not myself").
  'off their food',
  'not themselves',
  'not right',
];

/** What a body or an animal keeps doing when unwell, said after "keeps" or "is". */
export const SYMPTOM_DOINGS: readonly string[] = [
  'coughing',
  'sneezing',
  'wheezing',
  'vomiting',
  'being sick',
  'throwing up',
  'shaking',
  'shivering',
  'trembling',
  'sweating',
  'bleeding',
  'limping',
  'scratching',
  'itching',
  'licking',
  'drooling',
  'panting',
  'crying',
  'not eating',
  'not drinking',
  'not sleeping',
  'drinking a lot',
  'losing weight',
  'losing hair',
  'falling over',
];

/** Plain names of common complaints, beside the lexicon's `symptom` nouns. */
export const COMPLAINTS: readonly string[] = [
  'lump',
  'cut',
  'bite',
  'blister',
  'boil',
  'spot',
  'sore',
  'cold sore',
  'temperature',
  'high temperature',
  'infection',
  'chest infection',
  'ear infection',
  'water infection',
  'sore throat',
  'runny nose',
  'blocked nose',
  'upset stomach',
  'stomach bug',
  'food poisoning',
  'allergic reaction',
  'discharge',
  'diarrhoea',
];
