import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DomainVocabulary } from '../types.js';
import { checkNormalisation, parseArpa } from './arpa.js';
import { buildDomainModel, buildDomainModelOffThread } from './build.js';
import { loadEspeakGuesser } from './sound-out.js';
import { CLARIFYING_QUESTION } from '../../language/clarifying.js';

const DICTIONARY = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';
const SEED = new URL('../../../../../apps/server/src/db/seed/demo-clinic.json', import.meta.url);

interface Seed {
  knowledgeBase: { questions: string[] }[];
  intake: { trigger: string[]; questions: { ask: string }[] };
}

function seedVocabulary(keywords: string[] = []): DomainVocabulary {
  const seed = JSON.parse(readFileSync(SEED, 'utf8')) as Seed;
  return {
    sentences: [...seed.knowledgeBase.flatMap((e) => e.questions), ...seed.intake.trigger],
    keywords,
    assistantQuestions: seed.intake.questions.map((q) => q.ask),
  };
}

describe.skipIf(!existsSync(DICTIONARY))('buildDomainModel', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'stt-lm-'));
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('builds a valid, normalised ARPA model and a dictionary of its words', () => {
    const model = buildDomainModel({
      vocabulary: seedVocabulary(),
      cacheDir,
      dictionaryPath: DICTIONARY,
      version: 'v1',
    });
    expect(model.cached).toBe(false);
    expect(model.droppedWords).toEqual([]);
    const arpa = parseArpa(readFileSync(model.lmPath, 'utf8'));
    expect(arpa.ngrams.map((g) => g.size)).toEqual(model.ngramCounts);
    expect(model.sentenceCount).toBeGreaterThan(1000);
    const check = checkNormalisation(arpa);
    expect(check.maxError).toBeLessThan(1e-4);
    const dictWords = new Set(
      readFileSync(model.dictPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ')[0]?.replace(/\(\d+\)$/, '')),
    );
    for (const w of ['appointment', 'pharmacy', 'insurance', 'allergies', 'goodbye'])
      expect(dictWords.has(w), w).toBe(true);
    // One dictionary serves the domain model and the question models: every word of each.
    const lmWords = (path: string) =>
      [...(parseArpa(readFileSync(path, 'utf8')).ngrams[0]?.keys() ?? [])].filter(
        (w) => w !== '<s>' && w !== '</s>',
      );
    const all = new Set(
      [model.lmPath, ...model.questionModels.map((q) => q.lmPath)].flatMap(lmWords),
    );
    expect(new Set(dictWords)).toEqual(all);
    expect(lmWords(model.lmPath)).toHaveLength(model.wordCount);
  });

  it('builds a model for the answers to each intake question whose kind it recognises', () => {
    const model = buildDomainModel({
      vocabulary: seedVocabulary(),
      cacheDir,
      dictionaryPath: DICTIONARY,
      version: 'questions',
    });
    // The demo asks the reason for the visit, how long, which medicines and which allergies.
    // And the reply engine's "Do you mean, A, or B?", last.
    expect(model.questionModels.map((q) => q.question)).toEqual([
      'what is the main reason for your visit',
      'how long have you had these symptoms',
      'are you taking any medicines at the moment',
      'do you have any allergies',
      CLARIFYING_QUESTION,
    ]);
    const unigrams = model.questionModels.map(
      (q) => new Set(parseArpa(readFileSync(q.lmPath, 'utf8')).ngrams[0]?.keys()),
    );
    const [reason, duration, medicines, allergies, clarifying] = unigrams as Set<string>[];
    for (const w of ['first', 'second', 'both', 'neither', 'appointment'])
      expect(clarifying?.has(w), w).toBe(true);
    expect(clarifying?.has('ninety')).toBe(false);
    for (const w of ['fever', 'rash', 'knee', 'shoulder', 'swollen'])
      expect(reason?.has(w), w).toBe(true);
    for (const w of ['weeks', 'since', 'yesterday']) expect(duration?.has(w), w).toBe(true);
    expect(duration?.has('knee')).toBe(false);
    for (const w of ['aspirin', 'ibuprofen', 'antibiotic']) expect(medicines?.has(w), w).toBe(true);
    // Beyond WordNet's medicines: what callers most often take and are allergic to.
    for (const w of ['insulin', 'statins', 'inhaler']) expect(medicines?.has(w), w).toBe(true);
    expect(allergies?.has('allergic')).toBe(true);
    for (const w of ['peanuts', 'pollen', 'latex', 'penicillin'])
      expect(allergies?.has(w), w).toBe(true);
    // Without a guesser, names the dictionary lacks cannot be in the model.
    expect(medicines?.has('paracetamol')).toBe(false);
    for (const q of model.questionModels) {
      const arpa = parseArpa(readFileSync(q.lmPath, 'utf8'));
      expect(checkNormalisation(arpa).maxError, q.question).toBeLessThan(1e-4);
    }
  });

  it('reuses the cached model for the same vocabulary and version', () => {
    const first = buildDomainModel({
      vocabulary: seedVocabulary(),
      cacheDir,
      dictionaryPath: DICTIONARY,
      version: 'v1',
    });
    expect(first.cached).toBe(true);
    expect(first.buildMs).toBeLessThan(50);
    const other = buildDomainModel({
      vocabulary: seedVocabulary(),
      cacheDir,
      dictionaryPath: DICTIONARY,
      version: 'v2',
    });
    expect(other.cached).toBe(false);
    expect(other.hash).not.toBe(first.hash);
  });

  it('drops and reports words missing from the dictionary', () => {
    const model = buildDomainModel({
      vocabulary: seedVocabulary(['zorbleton clinic']),
      cacheDir,
      dictionaryPath: DICTIONARY,
    });
    expect(model.droppedWords).toEqual(['zorbleton']);
    const lm = readFileSync(model.lmPath, 'utf8');
    expect(lm).not.toMatch(/zorbleton/);
    // The sentence is split at the missing word: "i said clinic" must not be a trigram.
    expect(lm).not.toMatch(/\ti said clinic\b/);
  });

  it('keeps a missing word given a pronunciation', () => {
    const model = buildDomainModel({
      vocabulary: seedVocabulary(['zorbleton clinic']),
      cacheDir,
      dictionaryPath: DICTIONARY,
      pronunciations: { zorbleton: 'Z AO R B AH L T AH N' },
    });
    expect(model.droppedWords).toEqual([]);
    expect(readFileSync(model.dictPath, 'utf8')).toMatch(/^zorbleton Z AO R B AH L T AH N$/m);
    expect(() =>
      buildDomainModel({
        vocabulary: seedVocabulary(),
        cacheDir,
        dictionaryPath: DICTIONARY,
        pronunciations: { zorbleton: 'Q X' },
      }),
    ).toThrow(/unknown phones/);
  });

  it('sounds out missing words with a guesser, and keys the cache on it', async () => {
    const guesser = await loadEspeakGuesser();
    const vocabulary = seedVocabulary(['zorbleton clinic', 'a toothache']);
    const model = buildDomainModel({ vocabulary, cacheDir, dictionaryPath: DICTIONARY, guesser });
    expect(model.droppedWords).toEqual([]);
    expect(model.soundedOutWords).toMatchObject({ toothache: 'T UW TH EY K' });
    expect(model.soundedOutWords.zorbleton).toBeDefined();
    const dict = readFileSync(model.dictPath, 'utf8');
    expect(dict).toMatch(/^toothache T UW TH EY K$/m);
    expect(readFileSync(model.lmPath, 'utf8')).toMatch(/\ta toothache\b/);
    // The intake questions' models too: medicine names the dictionary lacks.
    const medicines = model.questionModels.find((q) => q.question.includes('medicines'));
    const unigrams = parseArpa(readFileSync(medicines?.lmPath ?? '', 'utf8')).ngrams[0];
    for (const w of ['paracetamol', 'metformin', 'omeprazole']) {
      expect(unigrams?.has(w), w).toBe(true);
      expect(dict).toMatch(new RegExp(`^${w} `, 'm'));
    }
    // A pronunciation given by the assistant wins over the guess.
    const given = buildDomainModel({
      vocabulary,
      cacheDir,
      dictionaryPath: DICTIONARY,
      guesser,
      pronunciations: { zorbleton: 'Z AO R B AH L T AH N' },
    });
    expect(given.soundedOutWords.zorbleton).toBeUndefined();
    expect(given.soundedOutWords.toothache).toBe('T UW TH EY K');
    expect(readFileSync(given.dictPath, 'utf8')).toMatch(/^zorbleton Z AO R B AH L T AH N$/m);
    // Without the guesser the same vocabulary is another model, with the words left out.
    const plain = buildDomainModel({ vocabulary, cacheDir, dictionaryPath: DICTIONARY });
    expect(plain.hash).not.toBe(model.hash);
    expect(plain.droppedWords).toEqual(['toothache', 'zorbleton']);
  });

  // From sources (as here) the build-without-blocking entry point builds in this thread: the
  // worker file is compiled only into dist/, which the server's tests run.
  it('sounds out missing words through the non-blocking entry point unless told not to', async () => {
    const vocabulary = seedVocabulary(['the worming clinic']);
    const options = { vocabulary, cacheDir, dictionaryPath: DICTIONARY, version: 'off-thread' };
    const model = await buildDomainModelOffThread(options);
    expect(model.soundedOutWords).toMatchObject({ worming: 'W ER M IH NG' });
    expect(model.droppedWords).toEqual([]);
    expect((await buildDomainModelOffThread(options)).cached).toBe(true);
    const without = await buildDomainModelOffThread({ ...options, soundOut: false });
    expect(without.droppedWords).toEqual(['worming']);
  });
});
