/**
 * The matcher on the team's own callers' lines (src/reply/testing/own-lines.json): a
 * veterinary practice it has never been tuned for, and the demo clinic in other words. The
 * floors are what the matcher reached when they were written; they guard against a change
 * that helps one business and quietly costs another. The benchmark's fixture lines are not
 * used here.
 */
import { readFileSync } from 'node:fs';
import type { AssistantDto, KnowledgeEntry } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { Call, demo, demoAssistant } from '../testing/conversation.js';
import { LocalReplyEngine } from './engine.js';
import { KnowledgeBase } from './knowledge/knowledge-base.js';
import { sentenceEncoder } from './semantic/sentence-encoder.js';
import { normalize, stripFillers } from './text.js';

interface Line {
  text: string;
  expect: string;
}
const own = JSON.parse(
  readFileSync(new URL('../testing/own-lines.json', import.meta.url), 'utf8'),
) as {
  vet: { knowledgeBase: KnowledgeEntry[]; lines: Line[]; urgent: Line[]; offTopic: string[] };
  demo: { lines: Line[]; urgent: Line[]; offTopic: string[]; briefRequests: string[] };
};

function score(entries: KnowledgeEntry[], lines: Line[], offTopic: string[]) {
  const kb = new KnowledgeBase(entries);
  let right = 0;
  const wrong: string[] = [];
  for (const line of lines) {
    const found = kb.retrieve(line.text);
    if (found.kind !== 'answer') continue;
    if (found.match.entry.id === line.expect) right += 1;
    else wrong.push(`${line.text} → ${found.match.entry.id}`);
  }
  const facts = offTopic.filter((text) => kb.retrieve(text).kind === 'answer');
  return { right, wrong, facts };
}

/** As `score`, with sentence meaning weighed beside the words (as calls do). */
async function scoreWithMeaning(entries: KnowledgeEntry[], lines: Line[], offTopic: string[]) {
  const kb = new KnowledgeBase(entries, { encoder: sentenceEncoder() });
  const said = (text: string) => stripFillers(normalize(text));
  await kb.prepare([...lines.map((l) => said(l.text)), ...offTopic.map(said)]);
  let right = 0;
  let asked = 0;
  const wrong: string[] = [];
  for (const line of lines) {
    const found = kb.retrieve(said(line.text));
    if (found.kind === 'answer') {
      if (found.match.entry.id === line.expect) right += 1;
      else wrong.push(`${line.text} → ${found.match.entry.id}`);
    } else if (found.kind !== 'none') asked += 1;
  }
  const facts = offTopic.filter((text) => kb.retrieve(said(text)).kind === 'answer');
  return { right, asked, wrong, facts };
}

/**
 * Demo lines answered with the wrong entry. "Expensive" is a word of cost, but "see the
 * doctor" is the booking entry's own wording; nothing tells the matcher that to drop a
 * booking is to cancel it. (The insurance question that names the consultation's fee was
 * answered with the cost while a hand-written list folded "fee" onto "cost"; it is asked
 * about now.)
 */
const KNOWN_WRONG = [
  'is it expensive to see the doctor → booking',
  'please drop my booking for thursday → booking',
];

describe('the matcher with sentence meaning, on our own callers’ lines', () => {
  it('answers more of a veterinary practice’s callers, never wrongly, never off-topic', async () => {
    const { right, asked, wrong, facts } = await scoreWithMeaning(
      own.vet.knowledgeBase,
      own.vet.lines,
      own.vet.offTopic,
    );
    // By words alone: 6 of 18 (above). With meaning, 11 when written; 12 of 21 with three
    // more lines, written when meaning came to break the words' ties; 14 once "chip" was
    // taken for the question's "microchip"; 15 once one thing nobody wrote about beside the
    // topic's own word ("flea tablets") no longer held back what meaning agreed on; 13
    // since the hand-written synonym list went (the issue asks for language resources
    // instead): a "jab" is a vaccination only in British speech, which WordNet and the
    // embeddings do not know, so "my kitten needs her jabs" is no longer answered, and
    // "a booster jab" is asked about (the booster or the price of neutering?).
    expect(right).toBeGreaterThanOrEqual(13);
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(wrong).toEqual([]);
    // Known miss: a haircut is an act in WordNet, not a thing the caller names, and its
    // sentence is close in meaning to the price of neutering.
    expect(facts).toEqual(['how much does a haircut cost']);
  }, 30_000);

  it('answers more of the demo clinic’s callers, adding no wrong answer', async () => {
    const { right, wrong, facts } = await scoreWithMeaning(
      demo.knowledgeBase,
      own.demo.lines,
      own.demo.offTopic,
    );
    // By words alone: 5 of 16. With meaning, 8 when written, 9 once light words were no
    // longer taken for slips ("around" for "ground"); 12 of 22 with six more lines, once
    // meaning broke the words' ties ("change the day of my appointment": booking, not
    // cancelling); 13 once meaning's agreement settled what the words would only ask
    // about; 14 once meaning could prefer an entry the words found second ("will my
    // insurer pay for this": "pay" is a word of the fees); 15 once the words and meaning
    // together could answer what neither was sure of alone. The known misses stay.
    expect(right).toBeGreaterThanOrEqual(15);
    expect(wrong).toEqual(KNOWN_WRONG);
    // Every thing named (a pool, a post office, a taxi, a stadium, a hotel, a bank: only
    // loosely related to the address answer's "riverside") is asked about, not answered.
    expect(facts).toEqual([]);
  }, 30_000);
});

describe('emergencies in our own callers’ words', () => {
  it('gets the urgent answer for every urgent line, as written, in both businesses', async () => {
    const vet: AssistantDto = {
      ...demoAssistant,
      model: { provider: 'local', model: 'kb', knowledge: own.vet.knowledgeBase },
    };
    const urgentAnswer = (entries: KnowledgeEntry[]) =>
      entries.find((e) => e.urgent === true)?.answer;
    const missed: string[] = [];
    for (const [assistant, lines, answer] of [
      [demoAssistant, own.demo.urgent, urgentAnswer(demo.knowledgeBase)],
      [vet, own.vet.urgent, urgentAnswer(own.vet.knowledgeBase)],
    ] as const) {
      expect(answer).toBeDefined();
      for (const line of lines) {
        const reply = await new Call(new LocalReplyEngine({ assistant })).reply(line.text);
        if (reply !== answer) missed.push(`${line.text} → ${reply}`);
      }
    }
    expect(own.demo.urgent.length + own.vet.urgent.length).toBeGreaterThanOrEqual(15);
    expect(missed).toEqual([]);
  }, 30_000);
});

describe('the brief asked for in our own callers’ words', () => {
  it('starts the brief for every request, as written', async () => {
    const first = demo.intake?.questions[0]?.ask;
    expect(first).toBeDefined();
    const missed: string[] = [];
    for (const text of own.demo.briefRequests) {
      const reply = await new Call(new LocalReplyEngine({ assistant: demoAssistant })).reply(text);
      if (!reply.endsWith(first as string)) missed.push(`${text} → ${reply}`);
    }
    expect(own.demo.briefRequests.length).toBeGreaterThanOrEqual(8);
    expect(missed).toEqual([]);
  }, 30_000);
});

describe('our own callers’ lines', () => {
  it('share no line with the benchmark’s spoken lines, which measure what nobody tuned for', () => {
    const fixtures = new URL('../../../../../bench/fixtures/understanding/', import.meta.url);
    const said = (value: unknown): string[] => {
      if (typeof value === 'string') return [normalize(value)];
      if (Array.isArray(value)) return value.flatMap(said);
      if (value === null || typeof value !== 'object') return [];
      const {
        knowledgeBase: _kb,
        intake: _intake,
        about: _about,
        ...rest
      } = value as Record<string, unknown>;
      return Object.entries(rest).flatMap(([key, v]) =>
        key === 'expect' || key === 'id' ? [] : said(v),
      );
    };
    const benchmark = new Set(
      ['dev-paraphrases.json', 'dental-practice.json', 'brief-requests.json'].flatMap((name) =>
        said(JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'))),
      ),
    );
    const { about: _about, ...businesses } = own as unknown as Record<string, unknown>;
    const ours = said(businesses);
    expect(benchmark.size).toBeGreaterThan(50);
    expect(ours.length).toBeGreaterThan(150);
    expect(ours.filter((line) => benchmark.has(line))).toEqual([]);
  });
});

describe('the matcher on our own callers’ lines', () => {
  it('answers a veterinary practice’s callers, and never with the wrong entry', () => {
    const { right, wrong, facts } = score(own.vet.knowledgeBase, own.vet.lines, own.vet.offTopic);
    expect(right).toBeGreaterThanOrEqual(6);
    expect(wrong).toEqual([]);
    expect(facts).toEqual([]);
  });

  it('answers the demo clinic’s callers in other words', () => {
    const { right, wrong, facts } = score(demo.knowledgeBase, own.demo.lines, own.demo.offTopic);
    expect(right).toBeGreaterThanOrEqual(5);
    expect(wrong).toEqual(KNOWN_WRONG);
    // Every thing named (a pool, a post office, a taxi, a stadium, a hotel, a bank: only
    // loosely related to the address answer's "riverside") is asked about, not answered.
    expect(facts).toEqual([]);
  });
});
