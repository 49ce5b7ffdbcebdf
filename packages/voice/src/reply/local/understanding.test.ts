/**
 * The local engine on callers' own words. Every line here is our own; the spoken test lines
 * of bench/fixtures/understanding are kept for the understanding benchmark.
 */
import { readFileSync } from 'node:fs';
import type { AssistantDto, KnowledgeEntry } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { Call, demo, demoAnswer, demoAssistant } from '../testing/conversation.js';
import type { ReplyEvent } from '../types.js';
import { BUILT_IN_EMERGENCY } from './dialog.js';
import { EmergencyDetector } from './emergency.js';
import { LocalReplyEngine } from './engine.js';
import { KnowledgeBase } from './knowledge/knowledge-base.js';

const kb = new KnowledgeBase(demo.knowledgeBase);
const newCall = (assistant: AssistantDto = demoAssistant) =>
  new Call(new LocalReplyEngine({ assistant }));
const HONEST = /^I am sorry, I do not know the answer to that\./;

/** An assistant with nothing but a brief: its questions, and what starts it if given. */
const briefOnly = (
  questions: Array<{ id: string; ask: string }>,
  trigger?: string[],
): AssistantDto => ({
  model: {
    provider: 'local',
    model: 'knowledge-base',
    knowledge: [],
    intake: { ...(trigger ? { trigger } : {}), questions },
  },
});

describe('matching what the caller means', () => {
  it.each([
    ['do you have a drugstore', 'pharmacy'],
    ['i need a repeat prescription', 'refill'],
    ['i would like a flu vaccination', 'vaccines'],
    ['what is your location', 'address'],
    ['is the clinic easy to reach', 'address'],
  ])('answers "%s" from the %s entry', (line, id) => {
    const found = kb.retrieve(line);
    expect(found.kind).toBe('answer');
    expect(found.kind === 'answer' && found.match.entry.id).toBe(id);
  });

  it.each([
    'what is the capital of france',
    'sing me a song',
    'how tall is mount everest',
    'is the doctor nice',
    'do you have a dentist',
  ])('never answers "%s" with a clinic fact', (line) => {
    expect(kb.retrieve(line).kind).not.toBe('answer');
  });

  it('counts a word related in meaning for less than the word itself', () => {
    const own = kb.rank('where is the pharmacy')[0];
    const related = kb.rank('where is the drugstore')[0];
    expect(related?.entry.id).toBe('pharmacy');
    expect(related?.confidence ?? 1).toBeLessThan(own?.confidence ?? 0);
  });
});

describe('a dialogue that copes with doubt', () => {
  it('asks which of two close entries is meant, and acts on "the second one"', async () => {
    const call = newCall();
    const question = await call.reply('what about my appointment');
    expect(question).toMatch(/^Do you mean, .*book.*, or .*cancel.*\?$/);
    expect(await call.reply('the second one')).toBe(demoAnswer('cancel'));
  });

  it('takes a reply that names one of the two, and asks again on a bare yes', async () => {
    const call = newCall();
    await call.reply('what about my appointment');
    expect(await call.reply('yes')).toMatch(/^Sorry, which do you mean: .+, or .+\?$/);
    expect(await call.reply('i want to cancel it')).toBe(demoAnswer('cancel'));
    await call.reply('what about my appointment');
    expect(await call.reply('no')).toBe('Sorry about that. Could you ask it in other words?');
  });

  it('takes the reading that says which of the two, and asks again when none does', async () => {
    const call = newCall();
    await call.reply('what about my appointment');
    // Pocketsphinx's best reading, its next, then a second recogniser's.
    const readings = ['there is one', 'there is swelling', 'the first one'];
    expect(call.engine.choose?.(readings, call.history, 1, 2)).toBe(2);
    // Not a reading whose word only sounds like "second".
    expect(call.engine.choose?.(['the fan can one', 'the think and one'], call.history, 1, 2)).toBe(
      0,
    );
    expect(await call.reply('the fan can one')).toBe(
      'Sorry, which do you mean: booking, or cancel?',
    );
    expect(await call.reply('the sick and one')).toBe(demoAnswer('cancel'));
  });

  it('takes a second recogniser’s plain choice over the first’s slip, an emergency or another choice', async () => {
    const call = newCall();
    await call.reply('what about my appointment');
    // Pocketsphinx's best reading and its next, then the second recogniser's two.
    const choose = (readings: string[]) => call.engine.choose?.(readings, call.history, 1, 2);
    expect(choose(['there is swelling', 'there is one', 'the first one', 'on the first one'])).toBe(
      2,
    );
    expect(choose(['both and', 'both on', 'no thanks', 'no frank'])).toBe(2);
    // Not when the second recogniser heard an emergency too, a phone off included, nor
    // when its reading says more than a choice.
    expect(
      choose(['there is swelling', 'there is one', 'the first one', 'there is swelling']),
    ).toBe(0);
    expect(
      choose(['he took too many pills', 'he took two', 'the first one', 'he took too many bills']),
    ).toBe(0);
    expect(choose(['there is swelling', 'there is one', 'the first one and swelling'])).toBe(0);
    expect(await call.reply('the first one')).toBe(demoAnswer('booking'));
  });

  it('takes a second recogniser’s plain yes or no to "Do you mean, A?" over the first’s slip', async () => {
    const call = newCall();
    expect(await call.reply('is the doctor nice')).toMatch(/Do you mean, .*book/);
    const choose = (readings: string[]) => call.engine.choose?.(readings, call.history, 1, 2);
    expect(choose(['yes breathe', 'yes brief', 'yes please', 'yes leave'])).toBe(2);
    expect(choose(['no that is drown', 'no that is all', 'no that is wrong'])).toBe(2);
    // Not a yes with more words.
    expect(choose(['yes breathe', 'yes brief', 'yes i cannot breathe'])).toBe(0);
    expect(await call.reply('yes please')).toBe(demoAnswer('booking'));
  });

  it('takes "neither" for a no to both, and asks for other words', async () => {
    const call = newCall();
    await call.reply('what about my appointment');
    expect(await call.reply('neither of them')).toBe(
      'Sorry about that. Could you ask it in other words?',
    );
  });

  it('does not take "no, not that one" for a yes', async () => {
    const call = newCall();
    expect(await call.reply('is the doctor nice')).toMatch(
      /^Sorry, I am not sure I understood\. Do you mean/,
    );
    expect(await call.reply('no not that one')).toBe(
      'Sorry about that. Could you ask it in other words?',
    );
  });

  it('answers off-topic questions honestly, with what it can help with', async () => {
    const call = newCall();
    const reply = await call.reply('how tall is mount everest');
    expect(reply).toMatch(HONEST);
    expect(reply).toContain('I can answer questions about');
    for (const entry of demo.knowledgeBase) expect(reply).not.toContain(entry.answer);
  });
});

describe('emergencies in the caller’s own words', () => {
  const detector = new EmergencyDetector();

  it.each([
    'he has stopped breathing',
    'she fainted in the kitchen',
    'there is a lot of blood',
    'my husband passed out',
    'i think it is a stroke',
    'my chest really hurts',
  ])('hears "%s" as an emergency', (line) => {
    expect(detector.detect(line)).toBeDefined();
  });

  it('does not raise an alarm on the demo clinic’s ordinary questions', () => {
    const ordinary = demo.knowledgeBase
      .filter((e) => e.urgent !== true)
      .flatMap((e) => e.questions);
    for (const question of ordinary) {
      expect(
        detector.detect(question.toLowerCase().replace(/[?.]/g, '')),
        question,
      ).toBeUndefined();
    }
    expect(detector.detect('do you take blood tests')).toBeUndefined();
  });

  it('raises no alarm on a word only related to the urgent entry’s', () => {
    // The dental practice's urgent entry is about a knocked-out tooth; "bone" is a hypernym.
    const dental = JSON.parse(
      readFileSync(
        new URL(
          '../../../../../bench/fixtures/understanding/dental-practice.json',
          import.meta.url,
        ),
        'utf8',
      ),
    ) as { knowledgeBase: KnowledgeEntry[] };
    const dentalKb = new KnowledgeBase(dental.knowledgeBase);
    expect(dentalKb.urgent('is my bone ok')).toBeUndefined();
    expect(dentalKb.urgent('i think i knocked my tooth out')?.entry.id).toBe('emergency');
  });

  it('answers an emergency said with a goodbye, and keeps the call', async () => {
    const call = newCall();
    const turn = call.engine.reply(
      [{ role: 'user', content: 'he has collapsed please help bye' }],
      new AbortController().signal,
    );
    const events: ReplyEvent[] = [];
    for await (const e of turn) events.push(e);
    expect(events).toContainEqual({ type: 'text', text: demoAnswer('emergency') });
    expect(events.some((e) => e.type === 'end-call')).toBe(false);
  });

  it('answers with the urgent entry, and flags the call', async () => {
    const call = newCall();
    expect(await call.reply('my wife has collapsed')).toBe(demoAnswer('emergency'));
    expect(call.engine.conclude(call.history).structuredData?.['urgent']).toBe(true);
  });

  it("hears an emergency deep in the recogniser's N-best list only when two readings carry it", () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const best = ['she has a doctor left', 'she has doctor lot'];
    // Hypotheses (from index 2 on) are never answered from, whatever they match.
    expect(engine.choose([...best, 'where can i park my car'], [], 2)).toBe(0);
    // One hypothesis with an emergency phrase is as likely a slip of the model…
    expect(engine.choose([...best, 'she has doctor lab', 'she has dock collapsed'], [], 2)).toBe(0);
    // …two are an emergency, and the first of them is the reading answered.
    expect(
      engine.choose(
        [...best, 'she has does collapsed', 'the doc collapsed', 'she has doc lab'],
        [],
        2,
      ),
    ).toBe(2);
    // Without a count of answerable readings, every reading is one (the old contract).
    expect(engine.choose(['she has doctor lot', 'she has collapsed'], [])).toBe(1);
  });

  it('takes an emergency a second recogniser heard, and a question it heard outright', () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const best = ['she has a doctor left', 'she has doctor lot'];
    const deeper = ['she has doctor lab', 'she has dock collapsed'];
    // One N-best hypothesis with an emergency phrase is not enough (above); one reading of
    // the second recogniser is, a one-letter slip in a phrase of two words included.
    expect(engine.choose([...best, ...deeper, 'my sister collapsed'], [], 2, 4)).toBe(4);
    expect(engine.choose([...best, 'my brother has chast pain'], [], 2, 2)).toBe(2);
    // A question it heard outright is answered when the first recogniser's best reading
    // answers nothing outright: on the topic that reading leans to ("how much" asks which
    // cost is meant), or on another (the first heard the words wrong)…
    expect(engine.choose(['how much', 'how much does a consultation cost'], [], 1, 1)).toBe(1);
    expect(engine.choose(['where are you', 'where are you located'], [], 1, 1)).toBe(1);
    expect(engine.choose(['how much', 'where can i park my car'], [], 1, 1)).toBe(1);
    expect(engine.choose([...best, 'where can i park my car'], [], 2, 2)).toBe(2);
    // …never over the same question the first answers outright, and never a reading that
    // is not a question answered outright.
    expect(engine.choose(['what are your opening hours', 'when are you open'], [], 1, 1)).toBe(0);
    expect(engine.choose(['how much', 'is the weather nice today'], [], 1, 1)).toBe(0);
    // Where both hear it, the second recogniser's reading is the one answered (not the
    // N-best list's)…
    expect(engine.choose([...best, ...deeper, 'she has dock collapsed'], [], 2, 4)).toBe(4);
    // …and where it does not, it lends no vote to the N-best list's lone alarm.
    expect(
      engine.choose([...best, 'she has dock collapsed', 'she has a doctor lot'], [], 2, 3),
    ).toBe(0);
  });

  it('hears an emergency in a later reading of a turn answered as something else, and answers it so', async () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const call = new Call(engine);
    const before = [...call.history];
    // Answered from the reading at the caller's pause; the whole turn read again after.
    const answered = 'my brother has chest fame';
    expect(
      engine.missedEmergency(answered, ['my brother is fine', 'my brother has a question'], before),
    ).toBe(-1);
    // A word a phone off the phrase's counts, as in `choose`, and the reply hears it so.
    expect(
      engine.missedEmergency(answered, ['my brother is fine', 'my brother has chast pain'], before),
    ).toBe(1);
    expect(await call.reply('my brother has chast pain')).toBe(demoAnswer('emergency'));
    // Words that were answered as an emergency already miss none.
    expect(engine.missedEmergency('my sister collapsed', ['my sister has collapsed'], before)).toBe(
      -1,
    );
  });

  it("holds back an emergency only the first recogniser's other readings heard, when the second heard a question", () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    // The domain model's reading heard poison in a request for music.
    const heard = ['can new plays music', 'can you poison years ago'];
    expect(engine.choose(heard, [], 2)).toBe(1);
    expect(engine.choose([...heard, 'can you play some music'], [], 2, 2)).toBe(0);
    // A second reading that tells something does not hold it back ("a car ran over my cat"
    // was read as "i can't remember my character")…
    const cat = ['colorado where my cat', 'a car run over my cat'];
    expect(engine.choose([...cat, 'i can not remember my character'], [], 2, 2)).toBe(1);
    // …nor does any question when the first recogniser's best reading has the emergency,
    // and one asking for help carries its words into the second's reading.
    const best = ['my husband collapsed', 'my husband called us'];
    expect(engine.choose([...best, 'can you call my husband'], [], 2, 2)).toBe(0);
    const help = ['can you sent and balance', 'can you send an ambulance'];
    expect(engine.choose([...help, 'can you send an ambulance please'], [], 2, 2)).toBe(2);
  });

  it("lets a second recogniser's reading vote for the N-best emergency it sounds most like", () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    // How the demo's own "i have chest pain" was heard offline: pocketsphinx's general
    // reading, its domain reading, and N-best (one hypothesis holds the emergency, which
    // alone is not enough); then Moonshine's reading, spelled otherwise but sounding like
    // that hypothesis.
    const best = ["i can't use it to you", 'i have just do you'];
    const deeper = ['i have test do you', 'i have chest pain', 'i have chest to you'];
    expect(engine.choose([...best, ...deeper], [], 2)).toBe(0);
    expect(engine.choose([...best, ...deeper, 'i am cast vain'], [], 2, 5)).toBe(3);
    // A second reading that sounds most like an ordinary reading votes for no alarm (this
    // one is then answered as the question it is: "test" names the test results)…
    expect(engine.choose([...best, ...deeper, 'i have test to you'], [], 2, 5)).toBe(5);
    // …nor one as close to an ordinary reading as to the emergency.
    const heard = ['where can i pay', 'my son is choking', 'my son is joking'];
    expect(engine.choose([...heard, 'my son is poking'], [], 1, 3)).toBe(0);
    expect(engine.choose([...heard, 'my son is chalking'], [], 1, 3)).toBe(1);
    // A second reading that is a question heard no emergency, whatever reading of the first
    // recogniser it is nearest: answered outright, or not (callers in trouble say what
    // happened); one that tells something votes.
    const saturday = ['um what', 'when are you collapsed on saturday'];
    expect(engine.choose([...saturday, 'when are you open on saturday'], [], 1, 2)).toBe(0);
    expect(engine.choose([...saturday, 'when are you kohl lapsed on saturday'], [], 1, 2)).toBe(0);
    const told = ['um what', 'she has collapsed on saturday'];
    expect(engine.choose([...told, 'she has kohl lapsed on saturday'], [], 1, 2)).toBe(1);
    // And not against a question heard clearly (as for the N-best list's own alarms).
    expect(
      engine.choose(
        [
          'when are you open on saturday',
          'when are you collapsed on saturday',
          'when are you collapse on saturday',
        ],
        [],
        1,
        3,
      ),
    ).toBe(0);
  });

  it("holds back the N-best list's alarm for a question a second recogniser heard", () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const best = 'can i look an appointment for my son';
    const deeper = ['can i book a bleeding for my son', 'can i look a bleeding for my son'];
    // Two hypotheses with an emergency phrase raise the alarm on their own…
    expect(engine.choose([best, ...deeper], [], 1)).toBe(1);
    // …not when the second recogniser heard a question the assistant answers outright (its
    // reading is then the one answered)…
    const question = 'can i book an appointment for my son';
    expect(engine.choose([best, ...deeper, question], [], 1, 3)).toBe(3);
    // …nor when it heard any other question: emergencies are told, not asked about, and
    // one asked about ("can you send an ambulance") has its words in the second's reading…
    const asked = 'can i look at a visit for my son';
    expect(engine.choose([best, ...deeper, asked], [], 1, 3)).toBe(0);
    // …but still when it heard anything else, however much it sounds like the best reading:
    // it may have misheard the emergency too ("my father can have it"). The reading taken is
    // one with the emergency.
    const withAlarm = [1, 2];
    const misheard = 'i look at a visit for my son';
    expect(withAlarm).toContain(engine.choose([best, ...deeper, misheard], [], 1, 3));
    const told = 'my father can have it';
    expect(withAlarm).toContain(engine.choose([best, ...deeper, told], [], 1, 3));
  });

  it("takes a second recogniser's word a phone off an emergency phrase's, and answers it as urgent", async () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const heard = ['my son look to many of my field', 'my son took too many of my bill'];
    // "bill" sounds a phone off "pill", and the phrase's other words are heard as they are.
    expect(engine.choose(heard, [], 1, 1)).toBe(1);
    expect(await new Call(engine).reply(heard[1] as string)).toBe(demoAnswer('emergency'));
    // The first recogniser's own readings get no such slack: its domain model puts the
    // phrases' words into ordinary speech already.
    const other = new LocalReplyEngine({ assistant: demoAssistant });
    expect(other.choose(heard, [], 2, 2)).toBe(0);
    expect(await new Call(other).reply(heard[1] as string)).not.toBe(demoAnswer('emergency'));
  });

  it('does not let N-best emergency phrases overrule a question heard clearly', () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const deeper = ['when are you collapsed on saturday', 'when you collapsed saturday'];
    // The best reading is a question the clinic answers: the phrases deeper down are the
    // domain model hearing its emergency words in ordinary speech.
    expect(engine.choose(['when are you open on saturday', ...deeper], [], 1)).toBe(0);
    // The same deeper readings under a first reading nobody can answer raise the alarm.
    expect(engine.choose(['when are you call us on a', ...deeper], [], 1)).toBe(1);
    // An emergency phrase in the best reading itself always does.
    expect(engine.choose(['my husband collapsed on saturday', ...deeper], [], 1)).toBe(0);
  });

  it("asks about a later reading's topic when the recogniser's first reading points elsewhere", async () => {
    // The general model heard a question about a painting; the domain model, which hears the
    // entries' words in any speech, heard a parking question in the same sounds.
    const call = newCall();
    const readings = ['who painted the mona lisa', 'where can i park my car'];
    expect(call.engine.choose?.(readings, call.history)).toBe(1);
    const asked = await call.reply('where can i park my car');
    expect(asked).toMatch(/^Sorry, I am not sure I understood\. Do you mean, .*park/i);
    expect(asked).not.toContain(demoAnswer('parking'));
    // Asked again on every replay, and "yes" gets the answer.
    expect(await call.reply('yes')).toBe(demoAnswer('parking'));
  });

  it('answers a later reading outright when the first reading points at the same entry', async () => {
    const call = newCall();
    const readings = ['is there a space for my car', 'where can i park my car'];
    expect(call.engine.choose?.(readings, call.history)).toBe(1);
    expect(await call.reply('where can i park my car')).toBe(demoAnswer('parking'));
    // A doubt is per turn: the next turn read from its first reading is answered as usual.
    expect(call.engine.choose?.(['where can i park my car'], call.history)).toBe(0);
    expect(await call.reply('where can i park my car')).toBe(demoAnswer('parking'));
  });

  it("answers a second recogniser's question that only its meaning settles, once the readings are prepared", async () => {
    const readings = [
      'my priest recaptured about the roll out',
      'my prescription is about to run out',
    ];
    // By its words alone the second reading would only be asked about (and it is taken
    // for that, the first pointing nowhere)…
    expect(kb.retrieve(readings[1] as string).kind).toBe('clarify');
    const unprepared = new LocalReplyEngine({ assistant: demoAssistant });
    expect(unprepared.choose(readings, [], 1, 1)).toBe(1);
    // …its meaning agreeing settles it, as it does for a reading answered directly.
    const call = newCall();
    await call.engine.prepareReadings?.(readings, 1, 1);
    expect(call.engine.choose?.(readings, call.history, 1, 1)).toBe(1);
    expect(await call.reply(readings[1] as string)).toBe(demoAnswer('refill'));
  });

  it('answers a question the second recogniser read on to from words it hesitated over', async () => {
    const first = 'my priest reduction is about to run out';
    const hesitant = 'my prescript showing about to run out';
    const choose = async (readings: string[]) => {
      const engine = new LocalReplyEngine({ assistant: demoAssistant });
      await engine.prepareReadings(readings, 1, 1);
      return engine.choose(readings, [], 1, 1);
    };
    // Neither best reading answers anything; Moonshine's next reading is the question.
    const readings = [first, hesitant, 'my prescription is about to run out'];
    expect(await choose(readings)).toBe(2);
    const call = newCall();
    await call.engine.prepareReadings?.(readings, 1, 1);
    expect(call.engine.choose?.(readings, call.history, 1, 1)).toBe(2);
    expect(await call.reply(readings[2] as string)).toBe(demoAnswer('refill'));
    // Not a reading with a word no dictionary has (a guess at sounds), nor one with a word
    // the clinic never uses, nor when its readings answer different questions.
    expect(await choose([first, hesitant, 'my prescriptione is about to run out'])).toBe(0);
    expect(await choose([first, hesitant, 'my prescription in paris is about to run out'])).toBe(0);
    expect(await choose([...readings, 'where do i park'])).toBe(0);
    // Nor when the best reading named a thing the clinic never mentions.
    const pool = 'my prescript from the swimming pool about to run out';
    expect(await choose([first, pool, 'my prescription is about to run out'])).toBe(0);
    // Nor when the second's best reading is the first's, give or take a phone: both
    // recognisers heard those words, and a reading read on from them is no better heard.
    expect(await choose([first, first, 'my prescription is about to run out'])).toBe(0);
    expect(
      await choose([first, 'my priest reduction is about to ran out', ...readings.slice(2)]),
    ).toBe(0);
  });

  it("asks about a first recogniser's later reading only when the second recogniser's points the same way", async () => {
    // The domain model heard a parking question in a question about a painting. A second
    // recogniser that heard the painting too leaves nothing to answer or ask about…
    const heard = ['who painted the mona lisa', 'where can i park my car'];
    const painting = [...heard, 'who painted the mona lisa then'];
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    await engine.prepareReadings(painting, 2, 2);
    expect(engine.choose(painting, [], 2, 2)).toBe(0);
    // …one that heard something about the car makes it worth asking, never telling.
    const car = [...heard, 'where do i put the car'];
    const call = newCall();
    await call.engine.prepareReadings?.(car, 2, 2);
    expect(call.engine.choose?.(car, call.history, 2, 2)).toBe(1);
    const asked = await call.reply('where can i park my car');
    expect(asked).toMatch(/^Sorry, I am not sure I understood\. Do you mean, .*park/i);
    expect(await call.reply('yes')).toBe(demoAnswer('parking'));
  });

  it('raises no alarm from a later reading when both recognisers heard the same ordinary words', async () => {
    const first = 'i cannot make it on tuesday';
    const domain = 'my can not wake it on tuesday';
    const choose = async (readings: string[]) => {
      const engine = new LocalReplyEngine({ assistant: demoAssistant });
      await engine.prepareReadings(readings, 2, 2);
      return engine.choose(readings, [], 2, 2);
    };
    expect(await choose([first, domain, 'i can not make it on tuesday'])).toBe(0);
    // The very same words, too (the recogniser passes on a reading both gave).
    expect(await choose([first, domain, first])).toBe(0);
    // A second recogniser that heard other words leaves the alarm to the domain reading.
    expect(await choose([first, domain, 'i cannot bake a ton of tuesday'])).toBe(1);
  });

  it('asks, never tells, when a later reading lost the thing the first reading named', async () => {
    // The general model heard a train station, which the clinic never mentions; the domain
    // model's reading turned it into one of the entries' own questions.
    const readings = ['where is the nearest train station', 'where is the nearest pharmacy'];
    const call = newCall();
    await call.engine.prepareReadings?.(readings, 2, 2);
    expect(call.engine.choose?.(readings, call.history, 2, 2)).toBe(1);
    expect(await call.reply(readings[1] as string)).toMatch(
      /^Sorry, I am not sure I understood\. Do you mean/,
    );
  });

  it("takes a second recogniser's question over another the first's reading answers", async () => {
    // The first recogniser doubted the turn (the second reads only those) and heard "fees"
    // as "keys", which it took for the address; the second heard the caller's own words.
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    const fees = ['what are your keys', 'what are your fees'];
    await engine.prepareReadings(fees, 1, 1);
    expect(engine.choose(fees, [], 1, 1)).toBe(1);
    const call = newCall();
    await call.engine.prepareReadings?.(fees, 1, 1);
    expect(call.engine.choose?.(fees, call.history, 1, 1)).toBe(1);
    expect(await call.reply(fees[1] as string)).toBe(demoAnswer('cost'));
  });

  it("does not answer a second recogniser's question when both heard a thing the clinic never mentions", async () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    // Both heard a taxi and an airport; the second's slip makes its reading a question about
    // the clinic's cost, which the caller did not ask.
    const taxi = ['how much is a taxi to the airport', 'how much is it taxi to the airport cost'];
    await engine.prepareReadings(taxi, 1, 1);
    expect(engine.choose(taxi, [], 1, 1)).toBe(0);
    // So too when the second heard it only in a reading it nearly took, its best being a
    // garble that asks about the cost (our own line, as one recogniser read it).
    const nearly = [
      'how much does a taxi to innovation cloth',
      'how much non attack seatomostation cost',
      'how much no taxi to the station cost',
    ];
    await engine.prepareReadings(nearly, 1, 1);
    expect(engine.choose(nearly, [], 1, 1)).toBe(0);
    // A thing only the first heard is no such agreement: the second's question is answered.
    const ticket = ['how much is the ticket', 'how much does a consultation cost'];
    await engine.prepareReadings(ticket, 1, 1);
    expect(engine.choose(ticket, [], 1, 1)).toBe(1);
  });

  it('does not tell a clinic fact when only the second recogniser heard the thing asked about', async () => {
    // The first recogniser's reading is a clinic question; the second heard the caller name
    // a swimming pool, which the clinic never mentions: its reading is the one taken, and
    // the caller is asked, not told the opening hours.
    const pool = ['is it open on sunday', 'is the swimming pool open on sunday'];
    const call = newCall();
    await call.engine.prepareReadings?.(pool, 1, 1);
    expect(call.engine.choose?.(pool, call.history, 1, 1)).toBe(1);
    const reply = await call.reply(pool[1] as string);
    expect(reply).not.toContain(demoAnswer('hours'));
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    // So too when the first heard the thing's word, but not as a thing named.
    const that = ['is that swimming pool open on sunday', pool[1] as string];
    await engine.prepareReadings(that, 1, 1);
    expect(engine.choose(that, [], 1, 1)).toBe(1);
    // Naming the clinic, or nothing, leaves the first reading's question as it was.
    for (const second of ['is the clinic open on sunday', 'are you open on sunday then']) {
      const readings = ['is it open on sunday', second];
      await engine.prepareReadings(readings, 1, 1);
      expect(engine.choose(readings, [], 1, 1)).toBe(0);
    }
    // The thing is the second's slip when another of its readings is the first's, a phone
    // off: both heard the question, and it is answered.
    const slip = ['how much does a consultation cost', 'how much does a consultation cost a giant'];
    await engine.prepareReadings(slip, 1, 1);
    expect(engine.choose(slip, [], 1, 1)).toBe(1);
    const agreed = [...slip, 'how much does a consultation cast'];
    await engine.prepareReadings(agreed, 1, 1);
    expect(engine.choose(agreed, [], 1, 1)).toBe(0);
  });

  it("asks about the entry a second recogniser's reading points to when the first's points nowhere", async () => {
    // The first reading (as pocketsphinx read one of our own lines) is nothing the clinic
    // can answer; the second would have the caller asked about the opening hours.
    const late = ['walked onto gaza on company', 'can i pop in late on a weekday'];
    const call = newCall();
    await call.engine.prepareReadings?.(late, 1, 1);
    expect(call.engine.choose?.(late, call.history, 1, 1)).toBe(1);
    expect(await call.reply(late[1] as string)).toMatch(
      /^Sorry, I am not sure I understood\. Do you mean, .*opening hours\?/,
    );
    expect(await call.reply('yes')).toBe(demoAnswer('hours'));
    // Not when the second names a thing the clinic never mentions: the caller could only
    // say no, and the first reading's honest answer stands.
    const bank = ['walked onto gaza on company', 'what time does the bank open'];
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    await engine.prepareReadings(bank, 1, 1);
    expect(engine.choose(bank, [], 1, 1)).toBe(0);
  });

  it("asks about, never answers, a second recogniser's question that holds a word no dictionary has", async () => {
    // Our own line "what time does the bank open", as the two recognisers read it: the
    // second could not place "bank open", and its spelling found the opening hours.
    const bank = ['walked onto gaza on company', 'what time does the man copen'];
    const call = newCall();
    await call.engine.prepareReadings?.(bank, 1, 1);
    expect(call.engine.choose?.(bank, call.history, 1, 1)).toBe(1);
    expect(await call.reply(bank[1] as string)).toMatch(
      /^Sorry, I am not sure I understood\. Do you mean, .*opening hours\?/,
    );
    // Dictionary words, or the knowledge base's own, are answered outright.
    for (const second of ['what time do you open', 'what time does the clinic open']) {
      const readings = [bank[0] as string, second];
      const plain = newCall();
      await plain.engine.prepareReadings?.(readings, 1, 1);
      expect(plain.engine.choose?.(readings, plain.history, 1, 1)).toBe(1);
      expect(await plain.reply(second)).toBe(demoAnswer('hours'));
    }
  });

  it("takes a second recogniser's request for the brief that the first's best reading missed", async () => {
    const readings = [
      'can you right down my sim terms for the doctor',
      'can you write down my symptoms for the doctor',
    ];
    const call = newCall();
    await call.engine.prepareReadings?.(readings, 1, 1);
    expect(call.engine.choose?.(readings, call.history, 1, 1)).toBe(1);
    expect(await call.reply(readings[1] as string)).toMatch(
      /What is the main reason for your visit\?$/,
    );
    // Even over a question the first reading answers (a request for the brief is rarely
    // heard in an ordinary question); not when the first asks for it too.
    const engine = new LocalReplyEngine({ assistant: demoAssistant });
    for (const [first, chosen] of [
      ['could you let the doctor now', 1],
      ['could you let the doctor know', 0],
    ] as const) {
      const heard = [first, 'please tell the doctor about my back pain'];
      await engine.prepareReadings(heard, 1, 1);
      expect(engine.choose(heard, [], 1, 1)).toBe(chosen);
    }
  });

  it("takes a second recogniser's request for the brief over an emergency phrase only the first's slip made", async () => {
    const slip = 'could you passed out a note to the doctor about my rash';
    const urgentAnswer = demoAnswer('emergency');
    for (const [second, expected] of [
      // The second heard a request for the brief, and no emergency: the brief starts.
      [
        'could you pass a note to the doctor about my rash',
        /What is the main reason for your visit\?$/,
      ],
      // The second heard the emergency as well: the alarm stands.
      ['could you tell the doctor that i passed out', urgentAnswer],
      // The second heard no request for the brief: the alarm stands.
      ['could you park a car near the doctor', urgentAnswer],
    ] as const) {
      const call = newCall();
      const heard = [slip, second];
      await call.engine.prepareReadings?.(heard, 1, 1);
      const chosen = heard[call.engine.choose?.(heard, call.history, 1, 1) ?? 0] as string;
      const reply = await call.reply(chosen);
      if (typeof expected === 'string') expect(reply).toBe(expected);
      else expect(reply).toMatch(expected);
    }
  });

  it('has its own emergency answer for an assistant without an urgent entry', async () => {
    const knowledge: KnowledgeEntry[] = demo.knowledgeBase.filter((e) => e.urgent !== true);
    const call = newCall({ ...demoAssistant, model: { ...demoAssistant.model!, knowledge } });
    expect(await call.reply('he is not breathing')).toBe(BUILT_IN_EMERGENCY.answer);
  });
});

describe('the brief, in the caller’s words', () => {
  const ask = (i: number) => demo.intake.questions[i]?.ask ?? '';

  it('starts when asked to pass something on, takes a correction, reads back and confirms', async () => {
    const call = newCall();
    expect(await call.reply('could you let the doctor know about my cough')).toBe(
      `Sure, I have a few short questions. ${ask(0)}`,
    );
    expect(await call.reply('a dry cough at night')).toBe(`Okay. ${ask(1)}`);
    expect(await call.reply('about a week')).toBe(`Okay. ${ask(2)}`);
    // The medicines question is a yes-or-no one: "no …" answers it.
    expect(await call.reply('no nothing')).toBe(`Okay. ${ask(3)}`);
    const readBack = await call.reply('pollen');
    expect(readBack).toContain('reason, a dry cough at night; duration, about a week');
    expect(await call.reply('yes')).toBe(demo.intake.closing);
    expect(call.engine.conclude(call.history).structuredData).toMatchObject({
      brief: {
        reason: 'a dry cough at night',
        duration: 'about a week',
        medications: 'no nothing',
        allergies: 'pollen',
      },
      confirmed: true,
    });
  });

  it('takes the brief back when the caller says no to its first question', async () => {
    const call = newCall();
    expect(await call.reply('could you let the doctor know about my cough')).toBe(
      `Sure, I have a few short questions. ${ask(0)}`,
    );
    expect(await call.reply('no thanks')).toBe('Sorry, I misunderstood. How else can I help?');
    // Nothing of it stays in the record, and a question after that is a question.
    expect(call.engine.conclude(call.history).structuredData?.['brief']).toMatchObject({
      reason: null,
    });
    expect(await call.reply('where can i park')).toBe(demoAnswer('parking'));
    // "No, I asked …": the rest is heard as the question it is.
    const other = newCall();
    await other.reply('could you let the doctor know about my cough');
    expect(await other.reply('no i wanted to know where i can park')).toBe(
      `Sorry, I misunderstood. ${demoAnswer('parking')}`,
    );
    // Once answered, "no" is an answer: a correction, or the reply to a yes-or-no question.
    const started = newCall();
    await started.reply('could you let the doctor know about my cough');
    await started.reply('a dry cough at night');
    expect(await started.reply('no')).toBe(`Okay. ${ask(2)}`);
  });

  it('takes "no" as the answer when the brief starts with a yes-or-no question', async () => {
    const clinic = briefOnly(
      [
        { id: 'new', ask: 'Are you a new patient?' },
        { id: 'reason', ask: 'What is the reason for your visit?' },
      ],
      ['take a brief'],
    );
    const call = newCall(clinic);
    expect(await call.reply('please take a brief')).toMatch(/Are you a new patient\?$/);
    expect(await call.reply('no')).toBe('Okay. What is the reason for your visit?');
  });

  it('offers the brief when symptoms are described, keeping them as its first answer', async () => {
    const call = newCall();
    expect(await call.reply('my shoulder has been aching for days')).toMatch(/brief.*Shall I\?$/);
    expect(await call.reply('yes please')).toBe(`Sure, I noted that. ${ask(1)}`);
    expect(call.engine.conclude(call.history).structuredData?.['brief']).toMatchObject({
      reason: 'my shoulder has been aching for days',
    });
  });

  it('takes the reading of an answer that is more like the answers to its question', async () => {
    const call = newCall();
    await call.reply('could you let the doctor know about my cough');
    expect(await call.reply('a dry cough at night')).toBe(`Okay. ${ask(1)}`);
    const choose = (readings: string[]) => call.engine.choose?.(readings, call.history, 1, 1);
    // How long: the second recogniser heard a duration, the first other words.
    const heard = ['just to see at a very morning', 'just since yesterday morning'];
    expect(choose(heard)).toBe(1);
    // Outside the brief, answers to its questions count for nothing.
    expect(newCall().engine.choose?.(heard, [], 1, 1)).toBe(0);
    expect(await call.reply('about a week')).toBe(`Okay. ${ask(2)}`);
    // Medicines: the first heard an answer's own words, and its reading stands.
    expect(choose(['no i am not taking anything', 'no i all taking anything'])).toBe(0);
    // Neither is like an answer: the first's.
    expect(choose(['the weather is nice', 'whether it is nice'])).toBe(0);
  });

  it('takes the reading of an answer that is like an answer and that the others share', async () => {
    const call = newCall();
    await call.reply('could you let the doctor know about my cough');
    const choose = (readings: string[], independentFrom: number) =>
      call.engine.choose?.(readings, call.history, 1, independentFrom);
    // The question model pulled the first's best toward its own words; the second
    // recogniser's readings share the caller's, and its best is as like an answer.
    const heard = [
      'my cola muscle and my thigh',
      'i pulled a muscle in my thigh',
      'i pulled the muscle in my thigh',
      'i pull the muscle in my thigh',
    ];
    expect(choose(heard, 1)).toBe(1);
    // The first recogniser's N-best hypotheses (here 1 and 2) are no candidates.
    expect(choose(['my cola muscle and my thigh', 'my cola muscle in my thigh', 'x', 'y'], 3)).toBe(
      0,
    );
  });

  it('takes a reading with a number as the answer to a question asking how bad, from one to ten', async () => {
    const physio = briefOnly(
      [
        { id: 'injury', ask: 'Where does it hurt?' },
        { id: 'pain', ask: 'How strong is the pain, out of ten?' },
      ],
      ['take a brief'],
    );
    const call = newCall(physio);
    await call.reply('please take a brief');
    const choose = (readings: string[], independentFrom: number) =>
      call.engine.choose?.(readings, call.history, 1, independentFrom);
    // Before the scale's question, the likeliest reading as ever: here the second
    // recogniser's, which its own other readings share.
    const injury = ['my nick is stiff', 'my nick is stuff', 'my neck is stiff', 'my neck is stiff'];
    expect(choose(injury, 2)).toBe(2);
    expect(await call.reply('my neck is stiff')).toMatch(/How strong is the pain, out of ten\?$/);
    // Every candidate's number was heard as a word sounding like one; the first
    // recogniser's N-best list holds the number: the likeliest reading with one is taken.
    const heard = [
      'but oddly great',
      'sorry day eight',
      'a sorry great',
      'a startly mate',
      'a startling mate',
    ];
    expect(choose(heard, 3)).toBe(1);
    // Digits are numbers too.
    expect(choose(['but oddly great', 'a sorry great', 'a solid 8', 'a solid mate'], 2)).toBe(2);
    // A candidate that holds a number is taken as before.
    expect(choose(['maybe a six', 'maybe an six', 'maybe a sex'], 2)).toBe(0);
    // No reading has a number: the likeliest as before (the caller said it in words).
    expect(choose(['it is really bad', 'it is really bad', 'it is rarely bad'], 2)).toBe(0);
  });

  it('takes "no, since …" as a correction of a duration just given', async () => {
    const dental = briefOnly([
      { id: 'problem', ask: 'What is bothering you?' },
      { id: 'since', ask: 'Since when?' },
      { id: 'pain', ask: 'On a scale from one to ten, how bad is the pain?' },
    ]);
    const call = newCall(dental);
    await call.reply('please note down my problem for the dentist');
    await call.reply('a loose crown');
    await call.reply('since friday');
    expect(await call.reply('no since thursday')).toMatch(
      /^Sorry about that, I changed it to since thursday\./,
    );
    expect(call.engine.conclude(call.history).structuredData?.['brief']).toMatchObject({
      since: 'since thursday',
    });
  });
});
