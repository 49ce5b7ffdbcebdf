import { describe, expect, it } from 'vitest';
import {
  Call,
  demo,
  demoAnswer as answerOf,
  demoAssistant as assistant,
} from '../testing/conversation.js';
import type { ChatMessage } from '../types.js';
import { LocalReplyEngine } from './engine.js';

const ask = (i: number): string => demo.intake.questions[i]?.ask ?? '';

const newCall = (variableValues?: Record<string, unknown>) =>
  new Call(new LocalReplyEngine({ assistant, variableValues }));

describe('LocalReplyEngine (demo clinic)', () => {
  it('greets with the variables filled, and never speaks braces', () => {
    expect(new LocalReplyEngine({ assistant, variableValues: { name: 'Alex' } }).greeting()).toBe(
      'Hello Alex, this is the Riverside Clinic assistant. I can answer questions about the clinic, or take a short brief for the doctor before your visit. How can I help?',
    );
    const anonymous = new LocalReplyEngine({ assistant }).greeting() ?? '';
    expect(anonymous.startsWith('Hello, this is the Riverside Clinic assistant.')).toBe(true);
    expect(anonymous).not.toContain('{{');
    expect(
      new LocalReplyEngine({ assistant: { ...assistant, firstMessage: undefined } }).greeting(),
    ).toBeNull();
  });

  const devLines: [string, string][] = [
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
  it.each(devLines)('answers "%s" from the %s entry', async (line, id) => {
    const call = newCall();
    expect(await call.reply(line)).toBe(answerOf(id));
    const data = call.engine.conclude(call.history).structuredData;
    expect(data?.['topics']).toEqual([id]);
    expect(data?.['urgent']).toBe(id === 'emergency');
  });

  const misheard: [string, string][] = [
    ["what are you're opening hours", 'hours'],
    ['what are opening hours', 'hours'],
    ['were are you located', 'address'],
    ['is there parking near clinic', 'parking'],
    ['do you except my insurance', 'insurance'],
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
    ['my chest hurts', 'emergency'],
    ['um are you open on the weekend', 'hours'],
    ['can i get a vaccination', 'vaccines'],
  ];
  it.each(misheard)('still answers the misheard "%s" from %s', async (line, id) => {
    expect(await newCall().reply(line)).toBe(answerOf(id));
  });

  it('says honestly what it does not know, and what it can do', async () => {
    const reply = await newCall().reply('what is the weather like today');
    expect(reply).toBe(
      'I am sorry, I do not know the answer to that. I can answer questions about hours, address, parking, insurance and more, or take a short brief before your visit.',
    );
    expect(await newCall().reply('do you sell shoes')).toMatch(/^I am sorry, I do not know/);
  });

  // Words that are also the names of what every plain object inherits: a recogniser writes
  // them down like any other word, and the engine had thrown on them.
  it.each(['i need a constructor', 'is the constructor open', 'my constructor collapsed'])(
    'answers "%s" like any other words',
    async (line) => {
      const call = newCall();
      const reply = await call.reply(line);
      expect(reply).not.toBe('');
      expect(reply).not.toMatch(/function|native code/);
    },
  );

  it('hears an emergency beside a word every object inherits', async () => {
    expect(await newCall().reply('the constructor has chest pain')).toBe(answerOf('emergency'));
  });

  it('takes no request for a brief when the assistant has no brief questions', async () => {
    const noBrief = {
      ...assistant,
      model: {
        provider: 'local' as const,
        model: 'knowledge-base',
        knowledge: demo.knowledgeBase,
        intake: { ...demo.intake, questions: [] },
      },
    };
    const call = new Call(new LocalReplyEngine({ assistant: noBrief }));
    const reply = await call.reply('please tell the doctor about my sore knee');
    expect(reply).not.toMatch(/brief/i);
    expect(await call.reply('what can you do')).toBe(
      'I can answer questions about hours, address, parking, insurance and more.',
    );
  });

  it('asks back about the closest topic when unsure, and answers on yes', async () => {
    const call = newCall();
    expect(await call.reply('is the doctor nice')).toBe(
      'Sorry, I am not sure I understood. Do you mean, you would like to book an appointment?',
    );
    expect(await call.reply('yes')).toBe(answerOf('booking'));
    expect(await call.reply('is the doctor nice')).toMatch(/^Sorry, I am not sure/);
    expect(await call.reply('no')).toBe('Sorry about that. Could you ask it in other words?');
  });

  it('repeats, thanks, greets and says what it can do', async () => {
    const call = newCall();
    expect(await call.reply('can you repeat that')).toBe(call.history[0]?.content);
    expect(await call.reply('hello')).toBe('Hello. How can I help you today?');
    await call.reply('where is the pharmacy');
    expect(await call.reply('sorry can you say that again')).toBe(answerOf('pharmacy'));
    expect(await call.reply('thank you')).toBe(
      'You are welcome. Is there anything else I can help with?',
    );
    expect(await call.reply('what can you do')).toBe(
      'I can answer questions about hours, address, parking, insurance and more, or take a short brief before your visit.',
    );
  });

  it('ends the call on goodbye and on the end-call phrases', async () => {
    for (const line of ['goodbye', 'ok bye bye', 'that is all thank you']) {
      const call = newCall();
      const events: string[] = [];
      call.history.push({ role: 'user', content: line });
      for await (const e of call.engine.reply(call.history, new AbortController().signal)) {
        events.push(e.type === 'text' ? e.text : `<${e.type}>`);
      }
      expect(events).toEqual([
        'Thank you for calling Riverside Clinic. ',
        'Goodbye.',
        '<end-call>',
      ]);
    }
  });

  it('ends the call on "no" to anything else', async () => {
    const call = newCall();
    await call.reply('thanks');
    const last = await call.say('no that is all');
    expect(last).toMatchObject({ text: demo.assistant.endCallMessage, endCall: true });
  });

  it('yields the reply sentence by sentence', async () => {
    const call = newCall();
    const reply = await call.say('what are your opening hours');
    expect(reply.events).toBe(2);
    expect(reply.text).toBe(answerOf('hours'));
  });

  it('takes the whole brief: questions, a correction, read-back, confirmation', async () => {
    const call = newCall({ name: 'Sam' });
    expect(await call.reply('i would like to give a brief')).toBe(
      `Sure, I have a few short questions. ${ask(0)}`,
    );
    expect(await call.reply('i have a bad cough and a sore throat')).toBe(`Okay. ${ask(1)}`);
    expect(await call.reply('about three days')).toBe(`Okay. ${ask(2)}`);
    expect(await call.reply('no i meant five days')).toBe(
      `Sorry about that, I changed it to five days. ${ask(2)}`,
    );
    expect(await call.reply('no i am not taking anything')).toBe(`Okay. ${ask(3)}`);
    expect(await call.reply('i am allergic to penicillin')).toBe(
      'Here is your brief: reason, I have a bad cough and a sore throat; duration, five days; medications, no I am not taking anything; allergies, I am allergic to penicillin. Is that right?',
    );
    expect(await call.reply('yes')).toBe(demo.intake.closing);
    const conclusion = call.engine.conclude(call.history);
    expect(conclusion).toEqual({
      summary:
        'The caller asked no knowledge-base questions, and a pre-visit brief was taken and confirmed.',
      structuredData: {
        brief: {
          reason: 'i have a bad cough and a sore throat',
          duration: 'five days',
          medications: 'no i am not taking anything',
          allergies: 'i am allergic to penicillin',
        },
        confirmed: true,
        topics: [],
        urgent: false,
        unanswered: [],
      },
    });
    // After the brief, "yes" is not another brief.
    expect(await call.reply('yes')).toBe('Okay. What would you like to know?');
  });

  it('lists what the caller asked that it could not answer, as the caller said it', async () => {
    const call = newCall();
    const question = 'Who won the football match on Saturday?';
    expect(await call.reply(question)).toMatch(/^I am sorry, I do not know the answer to that\./);
    await call.reply('thank you');
    expect(call.engine.conclude(call.history).structuredData).toMatchObject({
      unanswered: [question],
    });
  });

  it('starts the brief on yes to the greeting, and on yes after the booking answer', async () => {
    expect(await newCall().reply('yes')).toBe(`Sure, I have a few short questions. ${ask(0)}`);
    expect(await newCall().reply('yes please')).toBe(
      `Sure, I have a few short questions. ${ask(0)}`,
    );
    const call = newCall();
    await call.reply('what are your opening hours');
    expect(await call.reply('yes')).toBe('Okay. What would you like to know?');
    expect(await call.reply('i would like to book an appointment')).toBe(answerOf('booking'));
    expect(await call.reply('yes')).toBe(`Sure, I have a few short questions. ${ask(0)}`);
  });

  it('answers a knowledge question during the brief, then asks again', async () => {
    const call = newCall();
    await call.reply('take a brief');
    await call.reply('a rash on my arm');
    expect(await call.reply('sorry where is the pharmacy')).toBe(
      `${answerOf('pharmacy')} Now, back to your brief. ${ask(1)}`,
    );
    expect(await call.reply('can you repeat that')).toBe(ask(1));
    expect(await call.reply('two weeks')).toBe(`Okay. ${ask(2)}`);
    // Not a question: an answer, even with knowledge-base words in it.
    expect(await call.reply('i need a prescription refill for my cream')).toBe(`Okay. ${ask(3)}`);
    expect(await call.reply('sorry i meant a refill of my hydrocortisone cream')).toBe(
      `Sorry about that, I changed it to a refill of my hydrocortisone cream. ${ask(3)}`,
    );
    const data = call.engine.conclude(call.history).structuredData;
    expect(data?.['brief']).toEqual({
      reason: 'a rash on my arm',
      duration: 'two weeks',
      medications: 'a refill of my hydrocortisone cream',
      allergies: null,
    });
    expect(data?.['topics']).toEqual(['pharmacy']);
  });

  it('puts an urgent entry first, even during the brief', async () => {
    const call = newCall();
    await call.reply('i would like to give a brief');
    expect(await call.reply('i have chest pain')).toBe(
      `${answerOf('emergency')} If it is not an emergency, we can go on with your brief. Okay. ${ask(1)}`,
    );
    const conclusion = call.engine.conclude(call.history);
    expect(conclusion.structuredData).toMatchObject({
      urgent: true,
      topics: ['emergency'],
      brief: { reason: 'i have chest pain' },
      confirmed: false,
    });
    expect(conclusion.summary).toBe(
      'The caller asked no knowledge-base questions, and a pre-visit brief was started but not confirmed (1 of 4 answers). Flagged urgent: the caller mentioned emergency.',
    );
  });

  it('never asks "Do you mean …?" about the urgent entry: it gives the emergency answer at once', async () => {
    // A misheard "i have chest pain" (the recogniser's reading in one call) only resembles
    // the urgent entry: a caller in trouble must not wait a turn for the instruction.
    const call = newCall();
    expect(await call.reply('i am cast pain')).toBe(
      `${answerOf('emergency')} If it is not an emergency, could you tell me again what you need?`,
    );
    expect(call.engine.conclude(call.history).structuredData).toMatchObject({
      urgent: true,
      topics: ['emergency'],
    });
    // A caller who was not in trouble goes on.
    expect(await call.reply('where is the pharmacy')).toBe(answerOf('pharmacy'));
    // An ordinary question the matcher is unsure of is still asked about.
    expect(await call.reply('is the doctor nice')).toMatch(/^Sorry, I am not sure I understood/);
  });

  it('asks about the urgent entry when the words only resembling it are a question', async () => {
    // A caller in trouble says what has happened; a question near the urgent entry's words
    // ("can i have a cast for the pain") is asked about, as any other the matcher is unsure of.
    const call = newCall();
    const reply = await call.reply('can i have a cast for the pain');
    expect(reply).toBe('Sorry, I am not sure I understood. Do you mean, you have chest pain?');
    expect(call.engine.conclude(call.history).structuredData).toMatchObject({ urgent: false });
    // Said yes to, it is the emergency answer.
    expect(await call.reply('yes')).toBe(answerOf('emergency'));
  });

  it('gives the emergency answer where an urgent entry is one of two close topics, then asks about the other', async () => {
    const asthma = {
      id: 'asthma',
      questions: ['Do you run a breathing clinic for asthma?'],
      answer: 'Our asthma clinic is on Thursdays.',
    };
    const withAsthma = {
      ...assistant,
      model: { ...assistant.model!, knowledge: [...demo.knowledgeBase, asthma] },
    };
    const call = new Call(new LocalReplyEngine({ assistant: withAsthma }));
    expect(await call.reply('my breathing')).toBe(
      `${answerOf('emergency')} If it is not an emergency, do you mean, do we run a breathing clinic for asthma?`,
    );
    expect(await call.reply('yes')).toBe(asthma.answer);
    expect(call.engine.conclude(call.history).structuredData).toMatchObject({
      urgent: true,
      topics: ['emergency', 'asthma'],
    });
  });

  it('lets the caller change a part at the read-back', async () => {
    const call = newCall();
    await call.reply('i would like to give a brief');
    for (const line of ['headaches', 'a week', 'paracetamol', 'none']) await call.reply(line);
    expect(await call.reply('no')).toBe(
      'Which part should I change: reason, duration, medications or allergies?',
    );
    expect(await call.reply('the duration')).toBe(`Okay. ${ask(1)}`);
    expect(await call.reply('about ten days')).toBe(
      'Here is your brief: reason, headaches; duration, about ten days; medications, paracetamol; allergies, none. Is that right?',
    );
    expect(await call.reply('no the medicines are wrong')).toBe(`Okay. ${ask(2)}`);
    expect(await call.reply('paracetamol and ibuprofen')).toMatch(
      /medications, paracetamol and ibuprofen; allergies, none\. Is that right\?$/,
    );
    expect(await call.reply('yes that is right')).toBe(demo.intake.closing);
    expect(call.engine.conclude(call.history).structuredData?.['confirmed']).toBe(true);
  });

  it('stops the brief on request and resumes it later', async () => {
    const call = newCall();
    await call.reply('i would like to give a brief');
    await call.reply('a sore knee');
    expect(await call.reply('stop the brief')).toMatch(/^Okay, I stopped the brief\./);
    expect(await call.reply('what are your opening hours')).toBe(answerOf('hours'));
    expect(await call.reply('take a brief')).toBe(`Let us go on with your brief. ${ask(1)}`);
  });

  it('sums up the topics asked', async () => {
    const call = newCall();
    await call.reply('where is the pharmacy');
    await call.reply('is there parking near the clinic');
    await call.reply('where is the pharmacy');
    expect(call.engine.conclude(call.history)).toEqual({
      summary: 'The caller asked about pharmacy and parking, and no brief was taken.',
      structuredData: {
        brief: { reason: null, duration: null, medications: null, allergies: null },
        confirmed: false,
        topics: ['pharmacy', 'parking'],
        urgent: false,
        unanswered: [],
      },
    });
    expect(call.engine.conclude([]).summary).toBe(
      'The caller did not say anything, and no brief was taken.',
    );
  });

  it('honours the abort signal', async () => {
    const engine = new LocalReplyEngine({ assistant });
    const history: ChatMessage[] = [{ role: 'user', content: 'what are your opening hours' }];
    const aborted = new AbortController();
    aborted.abort();
    const none: unknown[] = [];
    for await (const e of engine.reply(history, aborted.signal)) none.push(e);
    expect(none).toEqual([]);

    const midway = new AbortController();
    const got: unknown[] = [];
    for await (const e of engine.reply(history, midway.signal)) {
      got.push(e);
      midway.abort();
    }
    expect(got).toHaveLength(1);
  });

  it('knows when a turn is already complete', () => {
    const engine = new LocalReplyEngine({ assistant });
    for (const done of [
      'yes',
      'no thanks',
      'goodbye',
      'thank you',
      'where is the pharmacy',
      'i have chest pain',
    ]) {
      expect(engine.isComplete(done)).toBe(true);
    }
    for (const open of [
      '',
      'um',
      'where is the',
      'i would like to',
      'about three days',
      'what is the weather',
    ]) {
      expect(engine.isComplete(open)).toBe(false);
    }
  });

  it('warm() encodes the knowledge base before the first turn, which then encodes only the caller', async () => {
    const asked: string[][] = [];
    const encoder = {
      encode(sentences: readonly string[]) {
        asked.push([...sentences]);
        return Promise.resolve(sentences.map(() => Float32Array.of(1, 0)));
      },
    };
    // A knowledge base of its own: entry vectors are kept per knowledge base, process-wide.
    const model = assistant.model!;
    const knowledge = [
      ...(model.knowledge ?? []),
      { id: 'warm-test', questions: ['Is the warm-up test entry here?'], answer: 'It is.' },
    ];
    const engine = new LocalReplyEngine({
      assistant: { ...assistant, model: { ...model, knowledge } },
      encoder,
    });
    await engine.warm();
    const entries = asked.flat();
    expect(entries).toContain('is the warm up test entry here');
    expect(entries.length).toBeGreaterThanOrEqual(knowledge.length * 2);
    asked.length = 0;
    const history: ChatMessage[] = [{ role: 'user', content: 'what are your opening hours' }];
    for await (const _ of engine.reply(history, new AbortController().signal));
    expect(asked.flat()).toEqual(['what are your opening hours']);
  });

  it('replies nothing when the caller has not spoken last', async () => {
    const engine = new LocalReplyEngine({ assistant });
    const events: unknown[] = [];
    const history: ChatMessage[] = [{ role: 'assistant', content: 'Hello' }];
    for await (const e of engine.reply(history, new AbortController().signal)) events.push(e);
    expect(events).toEqual([]);
  });
});
