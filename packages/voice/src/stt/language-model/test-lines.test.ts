/**
 * The understanding benchmark's spoken lines measure how the product generalises: none of
 * them may be a sentence the language models were trained on, for the demo clinic or for
 * the dental practice (a business created through the API), nor be written in the product's
 * code (where a rule or an example built on it would teach the product the test).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { AssistantDto, Intake, KnowledgeEntry } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { vocabularyFor } from '../../assistant/vocabulary.js';
import { demoAssistant } from '../../reply/testing/conversation.js';
import { expandQuestion, expandVocabulary } from './expand.js';
import { normalizeText } from './normalize.js';

const FIXTURES = new URL('../../../../../bench/fixtures/understanding/', import.meta.url);
const read = <T>(name: string) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as T;
// Not the product's own dev lines (bench/fixtures/dev-utterances.json): those are the
// reference in-domain set, and general answer forms produce some of them word for word
// ("about three days"), so intake recognition is judged on the dental practice's answers.
const briefRequests = read<{ demo: string; dental: string }>('brief-requests.json');

interface Line {
  text: string;
}
const paraphrases = read<{ lines: Line[]; urgent: Line[]; offTopic: string[] }>(
  'dev-paraphrases.json',
);
const dental = read<{
  knowledgeBase: KnowledgeEntry[];
  intake: Intake;
  lines: Line[];
  offTopic: string[];
  intakeAnswers: string[];
  assistant: { endCallPhrases: string[] };
}>('dental-practice.json');

const dentalAssistant: AssistantDto = {
  endCallPhrases: dental.assistant.endCallPhrases,
  model: {
    provider: 'local',
    model: 'knowledge-base',
    knowledge: dental.knowledgeBase,
    intake: dental.intake,
  },
};

const testLines = [
  ...paraphrases.lines.map((l) => l.text),
  ...paraphrases.urgent.map((l) => l.text),
  ...paraphrases.offTopic,
  ...dental.lines.map((l) => l.text),
  ...dental.offTopic,
  ...dental.intakeAnswers,
  briefRequests.demo,
  briefRequests.dental,
].map(normalizeText);

describe('the benchmark’s spoken lines stay out of the language models', () => {
  it.each([
    ['the demo clinic', demoAssistant],
    ['the dental practice', dentalAssistant],
  ])('no test line is a training sentence of %s', (_, assistant) => {
    const vocabulary = vocabularyFor(assistant);
    const corpus = expandVocabulary(vocabulary);
    expect(corpus.size).toBeGreaterThan(1000);
    expect(testLines.filter((line) => corpus.has(line))).toEqual([]);
    // The models of the assistant's intake questions too.
    const questions = (vocabulary.assistantQuestions ?? []).map((q) => expandQuestion(q));
    expect(questions.filter((q) => q !== null).length).toBeGreaterThanOrEqual(2);
    for (const q of questions) expect(testLines.filter((line) => q?.has(line))).toEqual([]);
  });
});

/** The product's source files (tests aside), under the repository's packages and apps. */
function productSources(): URL[] {
  const root = new URL('../../../../../', import.meta.url);
  return ['packages', 'apps'].flatMap((top) =>
    readdirSync(new URL(`${top}/`, root), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\/src\/.*\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => new URL(`${top}/${file}`, root)),
  );
}

describe('the benchmark’s spoken lines stay out of the product’s code', () => {
  it('no test line is written in a source file, not even in a comment', () => {
    const sources = productSources();
    expect(sources.length).toBeGreaterThan(100);
    const found = sources.flatMap((file) => {
      const text = ` ${normalizeText(readFileSync(file, 'utf8'))} `;
      return testLines
        .filter((line) => line.split(' ').length >= 3 && text.includes(` ${line} `))
        .map((line) => `${file.pathname.split('/src/')[1] ?? file.pathname}: ${line}`);
    });
    expect(found).toEqual([]);
  });
});
