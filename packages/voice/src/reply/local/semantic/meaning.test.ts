/**
 * How sentence meaning weighs beside the words, with an encoder whose vectors the test
 * chooses (so each rule is tested on its own), and the real encoder's basic promises.
 */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../knowledge/knowledge-base.js';
import {
  FUSED_ANSWER,
  FUSED_LEAD,
  FUSED_MEANING_WEIGHT,
  FUSED_MIN_MEANING,
  MEANING_ANSWER,
  MEANING_LEAD,
  MEANING_TIE_LEAD,
  RACE_MIN_MEANING,
} from '../knowledge/tuning.js';
import { normalize, stripFillers } from '../text.js';
import { MeaningIndex } from './meaning-index.js';
import { cosine, sentenceEncoder, type SentenceEncoder } from './sentence-encoder.js';

const ENTRIES: KnowledgeEntry[] = [
  { id: 'hours', questions: ['When are you open?'], answer: 'We open at nine.' },
  { id: 'parking', questions: ['Where can I park?'], answer: 'Park behind the shop.' },
  {
    id: 'returns',
    questions: ['How do I return an item?'],
    answer: 'Bring it back within a month.',
  },
  {
    id: 'urgent',
    questions: ['Someone is hurt in the shop'],
    answer: 'Call an ambulance now.',
    urgent: true,
  },
];

const said = (text: string) => stripFillers(normalize(text));

/**
 * An encoder that puts each entry's texts on its own axis and a caller's sentence where
 * the test says: `meanings` maps a sentence to its cosine with each entry.
 */
function chosenEncoder(meanings: Record<string, Partial<Record<string, number>>>): SentenceEncoder {
  const axis = new Map<string, number>();
  ENTRIES.forEach((entry, i) => {
    for (const text of [...entry.questions, entry.answer]) axis.set(said(text), i);
  });
  return {
    encode(sentences) {
      return Promise.resolve(
        sentences.map((sentence) => {
          const vector = new Float32Array(ENTRIES.length + 1);
          const at = axis.get(sentence);
          if (at !== undefined) {
            vector[at] = 1;
            return vector;
          }
          const wanted = meanings[sentence] ?? {};
          let rest = 1;
          ENTRIES.forEach((entry, i) => {
            const c = wanted[entry.id] ?? 0;
            vector[i] = c;
            rest -= c * c;
          });
          vector[ENTRIES.length] = Math.sqrt(Math.max(0, rest));
          return vector;
        }),
      );
    },
  };
}

async function retrieve(sentence: string, meaning: Partial<Record<string, number>>) {
  const kb = new KnowledgeBase(ENTRIES, { encoder: chosenEncoder({ [sentence]: meaning }) });
  await kb.prepare([sentence]);
  return { kb, found: kb.retrieve(sentence) };
}

describe('sentence meaning beside the words', () => {
  it('answers the entry clearly closest in meaning when the words point to it too', async () => {
    const sentence = 'is parking hard near you';
    // By words alone the parking entry is likely, not sure: the caller is asked.
    expect(new KnowledgeBase(ENTRIES).retrieve(sentence).kind).toBe('clarify');
    const { found } = await retrieve(sentence, { parking: 0.62, hours: 0.3 });
    expect(found.kind === 'answer' && found.match.entry.id).toBe('parking');
  });

  it('does not go by meaning when the closest entry leads by less than the margin', async () => {
    const sentence = 'is there a spot for my car near the door';
    const close = MEANING_ANSWER + 0.1;
    // The words offer nothing: a clear lead in meaning makes a question about the entry…
    const clear = await retrieve(sentence, { parking: close, returns: close - MEANING_LEAD * 1.5 });
    expect(clear.found).toMatchObject({ kind: 'clarify', byMeaning: true });
    // …and less than the margin leaves nothing to offer.
    const { found } = await retrieve(sentence, {
      parking: close,
      returns: close - MEANING_LEAD / 2,
    });
    expect(found.kind).toBe('none');
  });

  it('answers the entry the words would ask about when meaning agrees, by a smaller lead', async () => {
    // By words alone the parking entry is likely, on the caller's own word: asked about
    // ("month" is a word of the returns entry's answer).
    const sentence = 'parking for a month';
    expect(new KnowledgeBase(ENTRIES).retrieve(sentence).kind).toBe('clarify');
    const close = MEANING_ANSWER + 0.1;
    const between = (MEANING_TIE_LEAD + MEANING_LEAD) / 2;
    const agreed = await retrieve(sentence, { parking: close, returns: close - between });
    expect(agreed.found.kind === 'answer' && agreed.found.match.entry.id).toBe('parking');
    // Too small a lead in meaning for this rule; but the words lead clearly, and meaning
    // does not stand against them: the two together answer (see the fused rule below).
    const unsure = await retrieve(sentence, {
      parking: close,
      returns: close - MEANING_TIE_LEAD / 2,
    });
    expect(unsure.found.kind === 'answer' && unsure.found.match.entry.id).toBe('parking');
    // Clearly closer to another entry in meaning: the words' question stands.
    const other = await retrieve(sentence, { returns: close, parking: close - 2 * MEANING_LEAD });
    expect(other.found.kind).toBe('clarify');
    // A word the knowledge base lacks may be what is asked ("hard"): meaning agreeing is
    // not enough then.
    const unknown = 'is parking hard near you';
    expect(new KnowledgeBase(ENTRIES).retrieve(unknown).kind).toBe('clarify');
    const asked = await retrieve(unknown, { parking: close, returns: close - between });
    expect(asked.found.kind).toBe('clarify');
  });

  it('answers on a topic’s own word beside one thing nobody wrote about, when meaning agrees', async () => {
    // "parking" names the parking entry alone; "van" is a thing the knowledge base lacks.
    const sentence = 'can my van use your parking';
    expect(new KnowledgeBase(ENTRIES).retrieve(sentence).kind).toBe('clarify');
    const close = MEANING_ANSWER + 0.1;
    const between = (MEANING_TIE_LEAD + MEANING_LEAD) / 2;
    const agreed = await retrieve(sentence, { parking: close, returns: close - between });
    expect(agreed.found.kind === 'answer' && agreed.found.match.entry.id).toBe('parking');
    // Two words nobody wrote about: asked, however close the meaning.
    const two = 'is there parking for a van nearby';
    expect(new KnowledgeBase(ENTRIES).retrieve(two).kind).toBe('clarify');
    expect((await retrieve(two, { parking: close, returns: close - between })).found.kind).toBe(
      'clarify',
    );
  });

  it('answers the entry meaning clearly prefers among those the caller’s words found', async () => {
    // The words lean to the hours ("open" twice), but two words found the returns entry too.
    const sentence = 'when are you open open to return an item';
    const byWords = new KnowledgeBase(ENTRIES).retrieve(sentence);
    expect(byWords.kind === 'clarify' && byWords.match.entry.id).toBe('hours');
    const close = MEANING_ANSWER + 0.1;
    const clear = await retrieve(sentence, { returns: close, hours: close - MEANING_LEAD * 1.5 });
    expect(clear.found.kind === 'answer' && clear.found.match.entry.id).toBe('returns');
    // Less than the full lead: the words' question stands.
    const between = (MEANING_TIE_LEAD + MEANING_LEAD) / 2;
    const unsure = await retrieve(sentence, { returns: close, hours: close - between });
    expect(unsure.found.kind === 'clarify' && unsure.found.match.entry.id).toBe('hours');
    // An entry one word found is not enough: asked about, not answered.
    const one = await retrieve(sentence, { parking: close, hours: close - MEANING_LEAD * 1.5 });
    expect(one.found.kind).not.toBe('answer');
  });

  it('breaks a tie the words left by a smaller lead in meaning, and only between those two', async () => {
    const sentence = 'is the park open';
    // By words alone: hours or parking, too close to call.
    const byWords = new KnowledgeBase(ENTRIES).retrieve(sentence);
    expect(byWords.kind === 'choose' && byWords.matches.map((m) => m.entry.id).sort()).toEqual([
      'hours',
      'parking',
    ]);
    const close = MEANING_ANSWER + 0.1;
    const between = (MEANING_TIE_LEAD + MEANING_LEAD) / 2;
    const tie = await retrieve(sentence, { parking: close, hours: close - between });
    expect(tie.found.kind === 'answer' && tie.found.match.entry.id).toBe('parking');
    // Too small a lead: still asked which.
    const still = await retrieve(sentence, {
      parking: close,
      hours: close - MEANING_TIE_LEAD / 2,
    });
    expect(still.found.kind).toBe('choose');
    // An entry the words did not offer needs the full lead: the caller is still asked.
    const other = await retrieve(sentence, { returns: close, parking: close - between });
    expect(other.found.kind).toBe('choose');
  });

  it('does not break a tie against an entry the caller named by a word only it asks about', async () => {
    const sentence = 'where is the shop open';
    // By words alone: parking ("where", "shop") or hours ("open", a word only its question
    // uses), too close to call.
    const byWords = new KnowledgeBase(ENTRIES).retrieve(sentence);
    expect(
      byWords.kind === 'choose' && byWords.matches.map((m) => [m.entry.id, m.distinctWords]).sort(),
    ).toEqual([
      ['hours', 1],
      ['parking', 0],
    ]);
    const close = MEANING_ANSWER + 0.1;
    const between = (MEANING_TIE_LEAD + MEANING_LEAD) / 2;
    // Meaning leaning to parking does not overrule the word that names the hours: asked.
    const named = await retrieve(sentence, { parking: close, hours: close - between });
    expect(named.found.kind).toBe('choose');
    // Leaning to the entry the caller named, it settles the tie.
    const agreed = await retrieve(sentence, { hours: close, parking: close - between });
    expect(agreed.found.kind === 'answer' && agreed.found.match.entry.id).toBe('hours');
  });

  it('asks, and never answers, when the words offer nothing but the sentence means an entry', async () => {
    const sentence = 'is there a spot for my car near the door';
    // By words alone: nothing to offer (its closest is the urgent entry, on "near").
    expect(new KnowledgeBase(ENTRIES).retrieve(sentence).kind).toBe('none');
    const { found } = await retrieve(sentence, { parking: 0.9, hours: 0.1 });
    expect(found).toMatchObject({ kind: 'clarify', byMeaning: true });
    expect(found.kind === 'clarify' && found.match.entry.id).toBe('parking');
  });

  it('answers what the words and meaning point to together, when every word is known', async () => {
    // Every word is one the knowledge base knows; by words alone nothing is sure enough to
    // offer (parking leads on "where", returns follows on "bring").
    const sentence = 'where do i bring it';
    const plain = new KnowledgeBase(ENTRIES);
    expect(plain.retrieve(sentence).kind).toBe('none');
    expect(plain.analyse(sentence).unknownWords).toEqual([]);
    const words = Object.fromEntries(plain.rank(sentence).map((m) => [m.entry.id, m.confidence]));
    // Meaning alone is below its own threshold, so only the two together can decide.
    const returns = MEANING_ANSWER - 0.05;
    const fused = (id: string, meaning: number) =>
      (words[id] ?? 0) + FUSED_MEANING_WEIGHT * meaning;
    const clear = { returns, parking: returns - 0.25 };
    expect(fused('returns', clear.returns)).toBeGreaterThanOrEqual(FUSED_ANSWER);
    expect(fused('returns', clear.returns) - fused('parking', clear.parking)).toBeGreaterThan(
      FUSED_LEAD,
    );
    const together = await retrieve(sentence, clear);
    expect(together.found.kind === 'answer' && together.found.match.entry.id).toBe('returns');
    // Too close together: parking's words make up for its meaning, and nothing is answered.
    const close = { returns, parking: returns - 0.05 };
    expect(
      Math.abs(fused('returns', close.returns) - fused('parking', close.parking)),
    ).toBeLessThan(FUSED_LEAD);
    expect((await retrieve(sentence, close)).found.kind).not.toBe('answer');
  });

  it('does not answer on words and meaning together against a word of another entry’s questions', async () => {
    // "Parked" is a word of the parking question; "within a month" only words of the
    // returns' answer. By words the parking leads, unsure; meaning prefers the returns.
    const sentence = 'parked it within a month';
    const plain = new KnowledgeBase(ENTRIES);
    expect(plain.retrieve(sentence).kind).toBe('none');
    const [parking, returns] = plain.rank(sentence);
    expect(parking?.entry.id).toBe('parking');
    expect(parking?.questionWords).toBe(1);
    expect(returns?.entry.id).toBe('returns');
    expect(returns?.firmInQuestions).toBe(false);
    // Meaning alone is below its own threshold, so only the two together could decide.
    const meaning = { returns: MEANING_ANSWER - 0.05, parking: 0.05 };
    const fused = (returns?.confidence ?? 0) + FUSED_MEANING_WEIGHT * meaning.returns;
    expect(fused).toBeGreaterThanOrEqual(FUSED_ANSWER);
    // Together they would clear every bar, but no word the caller said asks about returns,
    // and one asks about parking: neither is told.
    const { found } = await retrieve(sentence, meaning);
    expect(found.kind).not.toBe('answer');
  });

  it('does not answer on meaning when the words found the entry through a question word alone', async () => {
    // "When" is the hours' question word; "bring" the caller's own word in the returns'
    // answer. By words the hours lead on the question word alone.
    const sentence = 'when do i bring it';
    const plain = new KnowledgeBase(ENTRIES);
    const [hours] = plain.rank(sentence);
    expect(hours?.entry.id).toBe('hours');
    expect(hours?.supportWords).toBe(0);
    // Meaning clearly puts the hours first, but the words do not support it: asked.
    const clear = { hours: MEANING_ANSWER + 0.2, returns: 0.1 };
    const { found } = await retrieve(sentence, clear);
    expect(found.kind === 'clarify' && found.match.entry.id).toBe('hours');
    // With every word the caller said finding it, the question word is all there is.
    const alone = await retrieve('when is it', clear);
    expect(alone.found.kind === 'answer' && alone.found.match.entry.id).toBe('hours');
  });

  it('does not answer on words and meaning together when the caller said a word nobody wrote', async () => {
    const sentence = 'where do i bring my bicycle';
    const plain = new KnowledgeBase(ENTRIES);
    expect(plain.analyse(sentence).unknownWords).toEqual(['bicycle']);
    const { found } = await retrieve(sentence, { returns: 0.45, parking: 0.1 });
    expect(found.kind).not.toBe('answer');
  });

  it('asks which of two entries the words and meaning both put first, when neither is sure', async () => {
    // A stricter clarifying threshold leaves the words unsure of either entry here (a small
    // knowledge base makes every match look surer than a real one's).
    const sentence = 'do returns get parking';
    const strict = { clarify: 0.5 };
    const ask = async (meaning: Partial<Record<string, number>>) => {
      const encoder = chosenEncoder({ [sentence]: meaning });
      const kb = new KnowledgeBase(ENTRIES, { thresholds: strict, encoder });
      await kb.prepare([sentence]);
      return kb.retrieve(sentence);
    };
    expect(new KnowledgeBase(ENTRIES, { thresholds: strict }).retrieve(sentence).kind).toBe('none');
    // Both close in meaning, neither far ahead: "returns, or parking?", meaning's first first.
    const close = RACE_MIN_MEANING + 0.1;
    const race = await ask({ returns: close + 0.05, parking: close });
    expect(race.kind === 'choose' && race.matches.map((m) => m.entry.id)).toEqual([
      'returns',
      'parking',
    ]);
    // Meaning puts another entry second: no race between the words' two.
    expect((await ask({ returns: close, hours: close, parking: close - 0.2 })).kind).not.toBe(
      'choose',
    );
    // Neither close enough in meaning: nothing is offered.
    const far = RACE_MIN_MEANING - 0.05;
    expect((await ask({ returns: far + 0.02, parking: far })).kind).toBe('none');
  });

  it('answers on meaning alone, words and meaning together, only a sentence of light words', async () => {
    // Every word light: what the sentence means is all there is to go by.
    const light = 'can you tell me how to get there';
    const plain = new KnowledgeBase(ENTRIES);
    expect(plain.analyse(light).terms.size).toBe(0);
    const clear = { parking: FUSED_ANSWER / FUSED_MEANING_WEIGHT + 0.1, hours: 0.1 };
    const heard = await retrieve(light, clear);
    expect(heard.found.kind === 'answer' && heard.found.match.entry.id).toBe('parking');
    // The caller's words are all known, but none is the parking entry's ("nine" is in the
    // hours' answer): meaning alone does not answer against them.
    const elsewhere = 'at nine';
    expect(plain.analyse(elsewhere).unknownWords).toEqual([]);
    expect(plain.rank(elsewhere).some((m) => m.entry.id === 'parking')).toBe(false);
    const { found } = await retrieve(elsewhere, clear);
    expect(found.kind).not.toBe('answer');
  });

  it('asks, never answers, when the caller asks what something is like in a word nobody wrote', async () => {
    const close = MEANING_ANSWER + 0.15;
    const meaning = { parking: close, returns: close - 2 * MEANING_LEAD };
    // The same words, without the quality: parking is answered.
    const plain = await retrieve('is your parking near you', meaning);
    expect(plain.found.kind === 'answer' && plain.found.match.entry.id).toBe('parking');
    // "Nice" is nobody's answer: the caller is asked whether they mean the parking.
    const nice = await retrieve('is your parking nice', meaning);
    expect(nice.kb.analyse('is your parking nice').askedQualities).toEqual(['nice']);
    expect(nice.found.kind === 'clarify' && nice.found.match.entry.id).toBe('parking');
    // A quality before what it describes only says which one ("a terrible pain"), and
    // "how long", "how late" ask about time, not what something is like.
    expect(nice.kb.analyse('is there nice parking near you').askedQualities).toEqual([]);
    expect(nice.kb.analyse('how late is it').askedQualities).toEqual([]);
    expect(nice.kb.analyse('how late are you open').askedQualities).toEqual([]);
  });

  it('does not answer on words and meaning together when meaning itself is weak', async () => {
    // By words alone parking leads (the caller's own words in its answer) but is not sure;
    // with meaning just under its floor the two together would pass, but meaning must
    // carry some weight of its own.
    const sentence = 'is it behind the shop';
    const plain = new KnowledgeBase(ENTRIES);
    expect(plain.retrieve(sentence).kind).not.toBe('answer');
    const parking = plain.rank(sentence)[0];
    expect(parking?.entry.id).toBe('parking');
    const weak = FUSED_MIN_MEANING - 0.02;
    expect((parking?.confidence ?? 0) + FUSED_MEANING_WEIGHT * weak).toBeGreaterThan(FUSED_ANSWER);
    expect((await retrieve(sentence, { parking: weak, returns: 0.05 })).found.kind).not.toBe(
      'answer',
    );
    const sure = await retrieve(sentence, { parking: FUSED_MIN_MEANING + 0.05, returns: 0.05 });
    expect(sure.found.kind === 'answer' && sure.found.match.entry.id).toBe('parking');
  });

  it('never picks the urgent entry by meaning: emergencies have their own path', async () => {
    const sentence = 'is there a spot for my car near the door';
    const { found } = await retrieve(sentence, { urgent: 0.95, parking: 0.2 });
    expect(found.kind === 'answer' || found.kind === 'clarify').toBe(false);
  });

  it('goes by the words alone for a sentence it was not given to prepare', async () => {
    const sentence = 'is there a spot for my car near the door';
    const kb = new KnowledgeBase(ENTRIES, {
      encoder: chosenEncoder({ [sentence]: { parking: 0.9 } }),
    });
    await kb.prepare(['something else entirely']);
    expect(kb.retrieve(sentence)).toEqual(new KnowledgeBase(ENTRIES).retrieve(sentence));
  });
});

describe('the meaning index', () => {
  it('ranks entries by their closest text, and remembers prepared sentences', async () => {
    let encoded = 0;
    const inner = chosenEncoder({ 'returning a gift': { returns: 0.8, hours: 0.5 } });
    const counting: SentenceEncoder = {
      encode(sentences) {
        encoded += sentences.length;
        return inner.encode(sentences);
      },
    };
    const index = new MeaningIndex(ENTRIES, counting, said);
    expect(index.rank('returning a gift')).toBeUndefined();
    await index.prepare(['returning a gift']);
    const ranked = index.rank('returning a gift') ?? [];
    expect(ranked.map((r) => ENTRIES[r.entry]?.id).slice(0, 2)).toEqual(['returns', 'hours']);
    expect(ranked[0]?.similarity).toBeCloseTo(0.8, 5);
    const before = encoded;
    await index.prepare(['returning a gift']);
    expect(encoded).toBe(before);
  });

  it('encodes a sentence once when it is asked for again while being encoded', async () => {
    const requests: string[][] = [];
    const inner = chosenEncoder({
      'returning a gift': { returns: 0.8 },
      'when do you open': { hours: 0.9 },
    });
    const counting: SentenceEncoder = {
      encode(sentences) {
        requests.push([...sentences]);
        return inner.encode(sentences);
      },
    };
    const index = new MeaningIndex(ENTRIES, counting, said);
    // Readied early, at the caller's pause, then asked for again with more when the turn ends.
    const early = index.prepare(['returning a gift']);
    const atEnd = index.prepare(['returning a gift', 'when do you open']);
    await atEnd;
    // The turn's own call waited for the early encoding: both sentences are ranked.
    expect(index.rank('returning a gift')?.[0]?.similarity).toBeCloseTo(0.8, 5);
    expect(index.rank('when do you open')?.[0]?.similarity).toBeCloseTo(0.9, 5);
    await early;
    // (The entries' own texts are encoded too, unless an earlier test cached them.)
    const callers = requests
      .flat()
      .filter((s) => s === 'returning a gift' || s === 'when do you open');
    expect(callers.sort()).toEqual(['returning a gift', 'when do you open']);
  });

  it('fails the preparation of everyone waiting for a sentence whose encoding failed', async () => {
    const failing: SentenceEncoder = {
      encode: (sentences) =>
        sentences.some((s) => s === 'returning a gift')
          ? Promise.reject(new Error('the encoder is gone'))
          : chosenEncoder({}).encode(sentences),
    };
    const index = new MeaningIndex(ENTRIES, failing, said);
    const early = index.prepare(['returning a gift']);
    const atEnd = index.prepare(['returning a gift']);
    await expect(early).rejects.toThrow('the encoder is gone');
    await expect(atEnd).rejects.toThrow('the encoder is gone');
    expect(index.rank('returning a gift')).toBeUndefined();
  });
});

describe('the Universal Sentence Encoder', () => {
  it('puts a paraphrase closer than an unrelated sentence, as unit vectors', async () => {
    const [question, paraphrase, unrelated] = await sentenceEncoder().encode([
      'when do you open in the morning',
      'what time do your doors open',
      'my cat likes to sleep on the sofa',
    ]);
    if (!question || !paraphrase || !unrelated) throw new Error('missing vectors');
    expect(cosine(question, question)).toBeCloseTo(1, 4);
    expect(cosine(question, paraphrase)).toBeGreaterThan(cosine(question, unrelated) + 0.2);
  }, 30_000);
});
