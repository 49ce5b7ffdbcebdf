import { readFileSync } from 'node:fs';
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { joinCompounds, KnowledgeBase } from './knowledge-base.js';
import { topicOf } from './topics.js';
import { DEFAULT_THRESHOLDS } from './tuning.js';

const entries = (
  JSON.parse(
    readFileSync(
      new URL('../../../../../../apps/server/src/db/seed/demo-clinic.json', import.meta.url),
      'utf8',
    ),
  ) as { knowledgeBase: KnowledgeEntry[] }
).knowledgeBase;
const kb = new KnowledgeBase(entries);

/** The dev phrasings of the demo's entries. */
const DEV: [string, string][] = [
  ['what are your opening hours', 'hours'],
  ['when are you open', 'hours'],
  ['where are you located', 'address'],
  ['is there parking near the clinic', 'parking'],
  ['do you accept my insurance', 'insurance'],
  ['how much does a consultation cost', 'cost'],
  ['where is the pharmacy', 'pharmacy'],
  ['i would like to book an appointment', 'booking'],
  ['i need to cancel my appointment', 'cancel'],
  ['how do i get my test results', 'results'],
  ['do you offer flu shots', 'vaccines'],
  ['i need a prescription refill', 'refill'],
  ['i have chest pain', 'emergency'],
];

/** The same as a recogniser may hear them: wrong words, dropped words, contractions. */
const MISHEARD: [string, string][] = [
  ["what are you're opening hours", 'hours'],
  ['what are opening hours', 'hours'],
  ['were are you located', 'address'],
  ['is there parking near clinic', 'parking'],
  ['do you except my insurance', 'insurance'],
  ['how much does consultation cost', 'cost'],
  ['how much is a consultation', 'cost'],
  ['where is pharmacy', 'pharmacy'],
  ['i like to book a appointment', 'booking'],
  ['i need cancel my appointment', 'cancel'],
  ['how do i get my test result', 'results'],
  ['do you offer flu shot', 'vaccines'],
  ['i need a prescription re fill', 'refill'],
  ['i have chess pain', 'emergency'],
  ['i can not breathe', 'emergency'],
  ["i can't breath", 'emergency'],
  ['are you open on the weekend', 'hours'],
  ['what is the address', 'address'],
  ['where can i park', 'parking'],
  ['can i get a vaccination', 'vaccines'],
  ['are my lab results ready', 'results'],
  ['this is an emergency', 'emergency'],
  ['what time do you open', 'hours'],
  ['what are your opening times', 'hours'],
  ['how much is a visit', 'cost'],
  ['can i see a doctor on friday', 'booking'],
];

/** Nothing in the knowledge base answers these (intake answers among them). */
const OFF_TOPIC = [
  'what is the weather like today',
  'do you have a dentist',
  'can i bring my dog',
  'who won the football',
  'tell me a joke',
  'i have a bad cough and a sore throat',
  'no i am not taking anything',
  'i am allergic to penicillin',
  'where can i buy a car',
  'what is your name',
  'do you sell shoes',
  'i have a headache',
];

describe('KnowledgeBase on the demo clinic', () => {
  it.each([...DEV, ...MISHEARD])('answers "%s" with %s', (line, id) => {
    const urgent = kb.urgent(line);
    const found = urgent ? { kind: 'answer', match: urgent } : kb.retrieve(line);
    expect(found.kind).toBe('answer');
    expect(found.kind === 'answer' && found.match.entry.id).toBe(id);
  });

  it('is sure of every dev phrasing', () => {
    for (const [line] of DEV) {
      expect(kb.rank(line)[0]?.confidence ?? 0).toBeGreaterThanOrEqual(0.7);
    }
  });

  it.each(OFF_TOPIC)('does not answer "%s"', (line) => {
    expect(kb.retrieve(line).kind).not.toBe('answer');
    expect(kb.urgent(line)).toBeUndefined();
  });

  it('asks back when only part of a question matches', () => {
    const found = kb.retrieve('is the doctor nice');
    expect(found.kind).toBe('clarify');
    expect(found.kind === 'clarify' && found.match.entry.id).toBe('booking');
  });

  it('never answers from the answer text alone', () => {
    // "library" is only in the address answer.
    const found = kb.retrieve('is the library open');
    expect(found.kind === 'answer' && found.match.entry.id === 'address').toBe(false);
    const best = kb.rank('the central library')[0];
    expect(best?.entry.id).toBe('address');
    expect(best?.inQuestions).toBe(false);
    expect(kb.retrieve('the central library').kind).toBe('clarify');
  });

  it('asks back, never answers, when a match rests on a question word alone', () => {
    // "when" is in the hours questions, but says nothing about what is asked.
    const when = kb.retrieve('when would that be');
    expect(when.kind).toBe('clarify');
    expect(when.kind === 'clarify' && when.match.entry.id).toBe('hours');
    expect(kb.rank('when would that be')[0]?.questionWords).toBe(0);
    // With a word of the topic, the same question word answers.
    expect(kb.retrieve('when do you open').kind).toBe('answer');
  });

  it('asks back, never answers, on one word of an entry and a question word amid unknown ones', () => {
    // "near" is the parking question's; "where" asks, but names no topic to support it.
    const stamps = 'where near here can i buy stamps';
    const found = kb.retrieve(stamps);
    expect(found.kind).toBe('clarify');
    expect(found.kind === 'clarify' && found.match.entry.id).toBe('parking');
    expect(kb.rank(stamps)[0]?.supportWords).toBe(1);
    // Two words of the topic are support enough, whatever else is said.
    expect(kb.retrieve('where near here can i park my van')).toMatchObject({ kind: 'answer' });
  });

  it('answers on a word only one entry asks about, with nothing but light words beside it', () => {
    // "results" is in the results entry's questions and nowhere else; "back", "again",
    // "still", "got", "here" are light words or words no entry uses, which say nothing of
    // a topic.
    const line = 'are the results back again';
    const best = kb.rank(line)[0];
    expect(best?.entry.id).toBe('results');
    expect(best?.distinctWords).toBe(1);
    expect(best?.supportWords).toBe(1);
    expect(best?.confidence ?? 1).toBeLessThan(DEFAULT_THRESHOLDS.answer);
    for (const said of [line, 'my results still have not got here']) {
      const found = kb.retrieve(said);
      expect(found.kind === 'answer' && found.match.entry.id, said).toBe('results');
    }
  });

  it('does not answer on one topic word beside a word that points to another entry', () => {
    // "hospital" means something close to "clinic", a word of the address and parking
    // questions: the caller may be asking about something else.
    const line = 'did you get my results from the hospital';
    const best = kb.rank(line)[0];
    expect(best?.entry.id).toBe('results');
    expect(best?.distinctWords).toBe(1);
    expect(best?.otherTopicWords).toBe(1);
    expect(kb.retrieve(line).kind).not.toBe('answer');
    // Nor beside a word nobody wrote about ("nice"), which may be what is asked.
    expect(kb.rank('is the doctor nice')[0]?.unknownContentWords).toBe(1);
  });

  it('analyses a sentence once, as a knowledge base new to it would', () => {
    const mine = new KnowledgeBase(entries);
    const said = 'is there a car park near the clinic';
    const first = mine.analyse(said);
    // A call's dialog replays every earlier turn at each new one: the same analysis.
    expect(mine.analyse(said)).toBe(first);
    expect(first).toEqual(new KnowledgeBase(entries).analyse(said));
    expect(mine.analyse('where do i park my car')).not.toBe(first);
  });

  it('asks, not tells, when the caller names a thing the knowledge base never mentions', () => {
    // The opening hours of somewhere else: "open" is the hours entry's word, but the question
    // is about a pool, a thing no entry names.
    expect(kb.analyse('when does the swimming pool open').namedThings).toEqual([
      'swimming',
      'pool',
    ]);
    const pool = kb.retrieve('when does the swimming pool open');
    expect(pool.kind).toBe('clarify');
    expect(pool.kind === 'clarify' && pool.match.entry.id).toBe('hours');
    const taxi = kb.retrieve('how much does a taxi to the station cost');
    expect(taxi.kind === 'clarify' && taxi.match.entry.id).toBe('cost');
    // The same questions about the clinic itself are answered.
    expect(kb.retrieve('when do you open').kind).toBe('answer');
    expect(kb.retrieve('how much does a consultation cost').kind).toBe('answer');
    // A thing before one of the entries' own things says which one is meant ("car park");
    // a thing the caller owns is not a thing asked about ("my car").
    expect(kb.analyse('is there a car park').namedThings).toEqual([]);
    expect(kb.analyse('where do i park my car').namedThings).toEqual([]);
    // Times and people are not things: "a week", "a doctor".
    expect(kb.analyse('can i see a doctor in a week').namedThings).toEqual([]);
  });

  it('asks, not tells, when the thing named is only a kind of one the entries name', () => {
    const hall = new KnowledgeBase([
      {
        id: 'hours',
        questions: ['When is the building open?'],
        answer: 'The building is open from eight to six.',
      },
      { id: 'address', questions: ['Where are you?'], answer: 'On Mill Lane.' },
    ]);
    // A hotel is a kind of building, but not this one.
    expect(hall.analyse('when does the hotel open').namedThings).toEqual(['hotel']);
    const hotel = hall.retrieve('when does the hotel open');
    expect(hotel.kind === 'clarify' && hotel.match.entry.id).toBe('hours');
    // The entries' own thing, or another word for it, is answered.
    expect(hall.analyse('when does the edifice open').namedThings).toEqual([]);
    expect(hall.retrieve('when is the building open').kind).toBe('answer');
  });

  it('asks, not tells, when the thing named is only loosely related to a word of an answer', () => {
    // The demo clinic's address answer says "Riverside": a bank is related to a riverside,
    // but a caller asking when the bank opens asks about a bank.
    expect(kb.analyse('what time does the bank open').namedThings).toEqual(['bank']);
    const bank = kb.retrieve('what time does the bank open');
    expect(bank.kind === 'clarify' && bank.match.entry.id).toBe('hours');
    expect(kb.retrieve('what time do you open').kind).toBe('answer');
    const classes = new KnowledgeBase([
      {
        id: 'classes',
        questions: ['How do I book a class?'],
        answer: 'Book a place in the app, and check ups are free for children.',
      },
      { id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' },
    ]);
    // Another word for the answer's own ("a spot" for "a place"), or the answer's word
    // written together ("a checkup" for "check ups"), is the same thing.
    expect(classes.analyse('how do i get a spot in a class').namedThings).toEqual([]);
    expect(classes.analyse('is a checkup free').namedThings).toEqual([]);
  });

  it('answers an urgent entry whatever else the caller names', () => {
    const vet = new KnowledgeBase([
      {
        id: 'poison',
        questions: ['My dog ate something poisonous.'],
        answer: 'Bring your dog in now.',
        urgent: true,
      },
      { id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' },
    ]);
    expect(vet.analyse('my dog ate something poisonous from the garage').namedThings).toEqual([
      'garage',
    ]);
    const found = vet.retrieve('my dog ate something poisonous from the garage');
    expect(found.kind === 'answer' && found.match.entry.id).toBe('poison');
  });

  it('counts a word of the answer as support only when the caller said it', () => {
    const custom = new KnowledgeBase([
      {
        id: 'cleaning',
        questions: ['how long does a cleaning take'],
        answer: 'A cleaning takes forty minutes, best booked in the morning.',
      },
      { id: 'hours', questions: ['when are you open'], answer: 'Nine to five, Monday to Friday.' },
    ]);
    // "dawn" only means something like "morning", a word of the answer: it matches the
    // entry but does not support it (below the sure threshold, one supporting word asks).
    const related = custom.rank('a cleaning at dawn')[0];
    expect(related?.entry.id).toBe('cleaning');
    expect(related?.matchedWords).toBe(2);
    expect(related?.supportWords).toBe(1);
    // "morning" is the caller's own word in the answer: it does.
    expect(custom.rank('a cleaning in the morning')[0]?.supportWords).toBe(2);
  });

  it('matches urgent entries at a lower threshold', () => {
    expect(DEFAULT_THRESHOLDS.urgent).toBeLessThan(DEFAULT_THRESHOLDS.answer);
    const hurt = kb.urgent('my chest is sore');
    expect(hurt?.entry.id).toBe('emergency');
    expect(hurt?.confidence ?? 1).toBeLessThan(DEFAULT_THRESHOLDS.answer);
    expect(kb.urgent('where is the pharmacy')).toBeUndefined();
  });

  it('raises no alarm for words an ordinary entry fits as well as the urgent one', () => {
    const optician = new KnowledgeBase([
      { id: 'test', questions: ['Can I have my eyes tested?'], answer: 'Book at the desk.' },
      { id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' },
      {
        id: 'urgent',
        questions: ['I got chemicals in my eye.'],
        answer: 'Rinse it with water and call the emergency number.',
        urgent: true,
      },
    ]);
    // "eyes" is as much the eye test's word as the urgent entry's.
    expect(optician.urgent('i would like my eyes tested')).toBeUndefined();
    expect(optician.urgent('my eyes')).toBeUndefined();
    // A word only the urgent entry uses raises it.
    expect(optician.urgent('i got chemicals in my eye')?.entry.id).toBe('urgent');
    expect(optician.urgent('chemicals in my eyes')?.entry.id).toBe('urgent');
  });

  it('raises no alarm when an ordinary entry shares the word and is only a little behind', () => {
    const dentist = new KnowledgeBase([
      {
        id: 'toothache',
        questions: ['I have a toothache.', 'My tooth hurts.'],
        answer: 'We keep same-day slots every morning for that.',
      },
      { id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' },
      {
        id: 'urgent',
        questions: ['My face is swelling.', 'I knocked out a tooth.'],
        answer: 'For a knocked-out tooth, keep it in milk and come straight in.',
        urgent: true,
      },
    ]);
    // The urgent entry's answer says "tooth" too, so it scores the word a little higher
    // than the toothache entry does: still the same word, and no emergency.
    const [first, second] = dentist.rank('about my tooth');
    expect(first?.entry.id).toBe('urgent');
    expect(second?.entry.id).toBe('toothache');
    expect(first?.confidence).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS.urgent);
    expect(dentist.urgent('about my tooth')).toBeUndefined();
    expect(dentist.urgent('i knocked out my tooth')?.entry.id).toBe('urgent');
  });

  it('says which words the entries use as written, in questions or answers', () => {
    expect(kb.usesWord('pharmacy')).toBe(true);
    expect(kb.usesWord('parking')).toBe(true);
    // An answer's word too: the address is next to the library.
    expect(kb.usesWord('library')).toBe(true);
    // Another form of an entry's word, or a word near one in spelling, is not one of theirs.
    expect(kb.usesWord('pharmacies')).toBe(false);
    expect(kb.usesWord('copen')).toBe(false);
    expect(kb.usesWord('taxi')).toBe(false);
  });

  it('maps near-miss and split words onto known terms', () => {
    expect([...kb.analyse('where is the pharmecy').terms.keys()]).toContain('pharmacy');
    expect(kb.analyse('where is the pharmecy').terms.get('pharmacy')).toBeLessThan(1);
    expect(joinCompounds(['a', 're', 'fill'], (t) => t === 'refill')).toEqual(['a', 'refill']);
    expect(joinCompounds(['flu', 'shot'], (t) => t === 'flu' || t === 'shot')).toEqual([
      'flu',
      'shot',
    ]);
    expect(kb.analyse('tell me a joke').unknown).toEqual(['joke']);
    // A light word is what the caller said, never a slip for a word a letter off it.
    expect([...kb.analyse('are you around').terms.keys()]).not.toContain('ground');
  });

  it('takes another form of an entry’s word for the word itself, by the lexicon’s lemmas', () => {
    const dental = new KnowledgeBase([
      { id: 'pain', questions: ['My tooth hurts.'], answer: 'Come in today.' },
      { id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' },
    ]);
    // "teeth" is no spelling slip of "tooth" and shares no stem with it: its lemma is.
    const teeth = dental.analyse('my teeth');
    expect(teeth.firm).toContain('tooth');
    expect(teeth.terms.get('tooth')).toBe(1);
    const found = dental.retrieve('my teeth');
    expect(found.kind === 'answer' && found.match.entry.id).toBe('pain');
    // A word merely related in meaning (a molar is a kind of tooth) counts, but not as the
    // entry's own word.
    const molar = dental.analyse('my molar');
    expect(molar.terms.get('tooth')).toBeGreaterThan(0);
    expect(molar.terms.get('tooth')).toBeLessThan(1);
    expect(molar.firm.has('tooth')).toBe(false);
  });

  it('takes a word the entries use as a noun for no form of a verb it is only spelt like', () => {
    const practice = new KnowledgeBase([
      {
        id: 'toilets',
        questions: ['Where are the toilets?'],
        answer: 'The toilets are on the left, past the lift.',
      },
      { id: 'bikes', questions: ['Can I park my bike?'], answer: 'Yes, by the door.' },
    ]);
    // "Left" after "the" is a side, not what "leave" became: leaving a bike is no toilet.
    expect(practice.analyse('can i leave my bike here').terms.has('left')).toBe(false);
    const found = practice.retrieve('can i leave my bike here');
    expect(found.kind !== 'answer' || found.match.entry.id !== 'toilets').toBe(true);
    // Where the entries use it as a verb, it is still the caller's word in another form.
    const shop = new KnowledgeBase([
      { id: 'lost', questions: ['I left my umbrella behind.'], answer: 'Ask at the desk.' },
    ]);
    expect(shop.analyse('i leave things behind').terms.get('left')).toBe(1);
  });

  it('names an entry by its topic or its first question turned round', () => {
    const hours = entries.find((e) => e.id === 'hours');
    if (!hours) throw new Error('no hours');
    expect(topicOf(hours)).toBe('what are our opening hours');
    expect(topicOf({ ...hours, topic: 'our opening hours' })).toBe('our opening hours');
  });

  it('works on an empty knowledge base', () => {
    const empty = new KnowledgeBase([]);
    expect(empty.retrieve('hello').kind).toBe('none');
    expect(empty.urgent('chest pain')).toBeUndefined();
  });
});

describe('KnowledgeBase on other ways to ask where and when', () => {
  it('reads "whereabouts", "how do I get to" and "what town … in" as asking where', () => {
    for (const text of ['whereabouts are you', 'how do i get to you', 'what town are you in']) {
      const { terms, unknownWords } = kb.analyse(text);
      expect([...terms.keys()], text).toEqual(['wher']);
      expect(unknownWords, text).toEqual([]);
    }
    // An entry's own idiom still answers it: "How do I find you?" is the address's question.
    const own = kb.retrieve('how do i find you');
    expect(own.kind === 'answer' && own.match.entry.id).toBe('address');
  });

  it('reads "how late" and "what time" as asking when, keeping the words that say which', () => {
    const found = kb.retrieve('how late are you open on saturday');
    expect(found.kind === 'answer' && found.match.entry.id).toBe('hours');
    expect([...kb.analyse('what time do you open').terms.keys()]).toContain('when');
  });

  it('reads how late a caller can come as how late the place is open', () => {
    const physio = new KnowledgeBase([
      {
        id: 'hours',
        questions: ['What are your opening hours?', 'Are you open in the evenings?'],
        answer: 'Monday to Thursday from eight until eight.',
      },
      {
        id: 'sports',
        questions: ['Do you treat sports injuries?'],
        answer: 'Yes, our sports physio sees running injuries every weekday.',
      },
    ]);
    // Neither "open" nor "hours" said: the hours are offered, not "I do not know".
    const late = physio.retrieve('how late can i come in on a weekday');
    expect(late.kind !== 'none' && late.kind !== 'choose' && late.match.entry.id).toBe('hours');
    // "late" names no topic the entries lack: it costs the hours no confidence (though,
    // said by the caller, it is still a word the entries do not know).
    const analysed = physio.analyse('how late can i come in on a weekday');
    expect(analysed.unknown).toEqual([]);
    expect(analysed.unknownWords).toEqual(['late']);
  });

  it('costs nothing for a question word the entries never use, unless it is the caller’s', () => {
    const custom = new KnowledgeBase([
      { id: 'hours', questions: ['What are your opening hours?'], answer: 'Eight to six.' },
      { id: 'fees', questions: ['How much is a session?'], answer: 'Fifty dollars.' },
    ]);
    const plain = custom.rank('do you close on fridays')[0];
    expect(plain?.entry.id).toBe('hours');
    const asked = custom.rank('when do you close on fridays')[0];
    expect(asked?.confidence).toBeCloseTo(plain?.confidence ?? 0, 6);
    // Said, "when" is still a word the knowledge base does not know (for the rules that
    // want every word known); read into "what time", it was never said.
    expect(custom.analyse('when do you close').unknownWords).toEqual(['when']);
    expect(custom.analyse('what time do you close').unknownWords).toEqual([]);
  });
});

describe('KnowledgeBase on phrasal verbs', () => {
  it('takes "call off" for "cancel", not for a call about the booking', () => {
    for (const text of [
      'can we call off the appointment on friday',
      'i need to call off my appointment',
    ]) {
      const found = kb.retrieve(text);
      expect(found.kind === 'answer' && found.match.entry.id, text).toBe('cancel');
    }
  });

  it('keeps the verb apart when the questions use it themselves', () => {
    // "book" is a word of the booking entry's questions: "book in" stays "book" + "in".
    const found = kb.retrieve('i would like to book in an appointment');
    expect(found.kind === 'answer' && found.match.entry.id).toBe('booking');
    const custom = new KnowledgeBase([
      { id: 'calls', questions: ['Can you call me back?'], answer: 'We call back within a day.' },
      { id: 'cancel', questions: ['How do I cancel?'], answer: 'Cancel a day ahead.' },
    ]);
    const back = custom.retrieve('can you call me back');
    expect(back.kind === 'answer' && back.match.entry.id).toBe('calls');
    expect(custom.analyse('please call off my visit').words[0]?.has('call')).toBe(true);
  });
});

describe('KnowledgeBase on compound words', () => {
  const pets = new KnowledgeBase([
    {
      id: 'microchip',
      questions: ['Can you microchip my pet?'],
      answer: 'A nurse can do it in a short appointment; the chip database keeps your details.',
    },
    { id: 'teeth', questions: ['My dog has toothache.'], answer: 'Book a dental check.' },
    { id: 'worship', questions: ['Is there a place of worship nearby?'], answer: 'A chapel.' },
  ]);

  it('takes a word for the compound of the questions it ends ("chip" for "microchip")', () => {
    const chip = pets.analyse('can you put a chip in my cat');
    expect(chip.firm).toContain('microchip');
    expect(chip.terms.get('microchip')).toBeLessThan(1);
    expect(pets.retrieve('how much to chip my cat')).toMatchObject({
      kind: 'answer',
      match: { entry: { id: 'microchip' } },
    });
    // Through its lemma: "aches" is a form of the "ache" in "toothache".
    expect([...pets.analyse('her tooth aches').terms.keys()]).toContain('toothach');
  });

  it('takes no short word for a compound, nor a word that only begins one', () => {
    expect([...pets.analyse('i hurt my hip').terms.keys()]).not.toContain('worship');
    // "micro" may be near "microchip" in meaning, but it is not taken for the word itself.
    expect(pets.analyse('a micro question').firm).not.toContain('microchip');
  });
});

describe('KnowledgeBase on words that sound like a question word', () => {
  const shop = new KnowledgeBase([
    { id: 'parking', questions: ['Is there parking?'], answer: 'Behind the shop.' },
    { id: 'fees', questions: ['What are your fees?'], answer: 'Ten pounds.' },
    { id: 'marking', questions: ['Do you do marking of essays?'], answer: 'Yes.' },
    { id: 'hours', questions: ['When are you open?'], answer: 'From nine.' },
  ]);
  const garage = new KnowledgeBase([
    { id: 'parking', questions: ['Is there parking?'], answer: 'Behind the shop.' },
    { id: 'hours', questions: ['When are you open?'], answer: 'From nine.' },
  ]);

  it('takes a word one phone off a single question word for it, a slip of the recogniser', () => {
    expect(garage.soundsLike('barking')).toBe('park');
    const heard = garage.analyse('is there barking');
    expect(heard.firm).toContain('park');
    expect(heard.terms.get('park')).toBeLessThan(1);
    expect(garage.retrieve('is there barking')).toMatchObject({
      kind: 'answer',
      match: { entry: { id: 'parking' } },
    });
  });

  it('takes no sound-alike that fits two entries, nor a short word', () => {
    // "barking" is a phone off both "parking" and "marking": no clue which was meant.
    expect(shop.soundsLike('barking')).toBeUndefined();
    // Three phones: "keys" and "fees" are different words, not a slip.
    expect(shop.soundsLike('keys')).toBeUndefined();
  });
});
