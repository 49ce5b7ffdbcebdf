import { LRUCache } from 'lru-cache';
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { Lexicon } from '../../../language/lexicon.js';
import { Bm25Index, type Bm25Options } from '../bm25.js';
import { askedPlainly } from '../question-forms.js';
import { MeaningIndex } from '../semantic/meaning-index.js';
import type { SentenceEncoder } from '../semantic/sentence-encoder.js';
import {
  contentTerms,
  editDistance,
  normalize,
  STOP_WORDS,
  stem,
  stripFillers,
  words,
} from '../text.js';
import { fusedEntry, meantEntry, type SentenceEvidence, twoInTheRunning } from './by-meaning.js';
import { retrieveByWords } from './by-words.js';
import { type Meaning, type WordCaches, wordCaches } from './word-caches.js';
import type { AnalysedQuery, KnowledgeMatch, Retrieval } from './match.js';
import {
  ANSWER_WEIGHT,
  CLOSE_RACE,
  COMPOUND_HEAD,
  COMPOUND_MODIFIER,
  DEFAULT_BM25,
  DEFAULT_THRESHOLDS,
  FUZZY_WEIGHT,
  LOOSE_MEANING,
  MAX_MEANINGS,
  MIN_MEANING_SIMILARITY,
  NUMBER_WORDS,
  REFERENCE_TF,
  type RetrievalThresholds,
  SAME_WORD,
  SOUND_LONG_PHONES,
  SOUND_MIN_PHONES,
  SOUND_WEIGHT,
  UNKNOWN_WORD_COST,
  WEAK_TERMS,
} from './tuning.js';

export interface KnowledgeBaseOptions {
  thresholds?: Partial<RetrievalThresholds>;
  bm25?: Bm25Options;
  /** Word meanings for words the entries do not use (default: the built lexicon). */
  lexicon?: Lexicon;
  /**
   * Sentence meanings (the reply engine passes the process's encoder). Without one, or
   * for a sentence not prepared (`prepare`), retrieval goes by words alone.
   */
  encoder?: SentenceEncoder;
}

/** Words that make the noun after them a thing named: "the library", "a taxi". */
const ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an']);
/**
 * Words after which the entries' word is a noun ("the left", "your booking"), never a form
 * of a verb.
 */
const DETERMINERS: ReadonlySet<string> = new Set([
  ...ARTICLES,
  ...['my', 'your', 'our', 'their', 'his', 'her', 'its'],
]);
/** How many words (an adjective, a modifier) may stand between the article and the noun. */
const ARTICLE_REACH = 2;

/**
 * Sentences whose analysis a knowledge base keeps: a long call's turns with every reading
 * of each (up to about 15), with room to spare.
 */
const ANALYSED_CACHE_SIZE = 1024;

/**
 * Ranked retrieval over an assistant's knowledge base. Each entry is one BM25 document made
 * of its questions (weight 1) and its answer (weight {@link ANSWER_WEIGHT}); a query's score
 * is turned into a 0–1 confidence by dividing it by what the query would score if each of
 * its terms occurred once in the questions of an average entry. Words the knowledge base
 * has never seen count against the confidence, so "what is the weather like" matches
 * nothing while "what are you're opening hours" still finds the hours. What to do with a
 * ranking is decided on the words alone first (by-words.ts), then with the sentence's
 * meaning beside them (by-meaning.ts); the weights and thresholds are in tuning.ts.
 */
export class KnowledgeBase {
  readonly thresholds: RetrievalThresholds;
  private readonly entries: KnowledgeEntry[];
  private readonly index: Bm25Index<number>;
  private readonly vocabulary: string[];
  private readonly questionTerms: Set<string>[];
  /** Each entry's terms, questions and answer. */
  private readonly entryTerms: Set<string>[];
  private readonly unknownCost: number;
  private readonly lexicon: Lexicon;
  /** Index term → the entries' words it came from ("park" ← "park", "parking"). */
  private readonly surfaceWords = new Map<string, Set<string>>();
  /** The entries' words used only as nouns, each time after a determiner ("the left"). */
  private readonly nounsOnly = new Set<string>();
  /** The entries' question words made of a shorter word and the caller's ("microchip"), → term. */
  private readonly questionCompounds = new Map<string, string>();
  /** The entries' question words as the recogniser's dictionary says them, with their term. */
  private readonly questionSounds: { word: string; sounds: string; term: string }[] = [];
  /**
   * Sentences already analysed (`analyse`), which depends on the sentence alone: a call's
   * reply engine weighs each turn's readings several times over (for an emergency, an
   * answer, the reply), and every earlier turn again when it replays the call.
   */
  private readonly analysed = new LRUCache<string, AnalysedQuery>({ max: ANALYSED_CACHE_SIZE });
  /** Words' closest meanings, shared with every knowledge base of the same wording. */
  private readonly caches: WordCaches;
  private readonly meaning: MeaningIndex | undefined;

  constructor(entries: readonly KnowledgeEntry[], options: KnowledgeBaseOptions = {}) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
    this.entries = [...entries];
    this.lexicon = options.lexicon ?? Lexicon.default();
    this.caches = wordCaches(this.entries, this.lexicon);
    this.index = new Bm25Index<number>({ ...DEFAULT_BM25, ...options.bm25 });
    for (const entry of this.entries) {
      for (const w of words([...entry.questions, entry.answer].join(' '))) {
        if (STOP_WORDS.has(w) || NUMBER_WORDS.has(w)) continue;
        const term = stem(w);
        let set = this.surfaceWords.get(term);
        if (set === undefined) this.surfaceWords.set(term, (set = new Set()));
        set.add(w);
      }
    }
    const notNouns = new Set<string>();
    for (const sentence of this.entries.flatMap((e) => [...e.questions, e.answer])) {
      const ws = words(sentence);
      for (const [i, w] of ws.entries()) {
        if (DETERMINERS.has(ws[i - 1] ?? '')) this.nounsOnly.add(w);
        else notNouns.add(w);
      }
    }
    for (const w of notNouns) this.nounsOnly.delete(w);
    for (const w of words(this.entries.flatMap((e) => e.questions).join(' '))) {
      if (STOP_WORDS.has(w)) continue;
      if (w.length >= COMPOUND_HEAD + COMPOUND_MODIFIER) {
        this.questionCompounds.set(w, stem(w));
      }
      const sounds = this.lexicon.sounds(w);
      if (sounds !== undefined && sounds.length >= SOUND_MIN_PHONES) {
        if (!this.questionSounds.some((q) => q.word === w)) {
          this.questionSounds.push({ word: w, sounds, term: stem(w) });
        }
      }
    }
    this.questionTerms = this.entries.map((entry, i) => {
      const questionTerms = entry.questions.flatMap((q) => termsOf(q));
      this.index.add(i, [
        { terms: questionTerms, weight: 1 },
        // Each answer word once: "five five five, one two three four" is one phone number.
        { terms: [...new Set(termsOf(entry.answer))], weight: ANSWER_WEIGHT },
      ]);
      return new Set(questionTerms);
    });
    this.entryTerms = this.entries.map(
      (entry, i) => new Set([...(this.questionTerms[i] ?? []), ...termsOf(entry.answer)]),
    );
    this.vocabulary = [...this.index.vocabulary()];
    // A word seen in exactly one entry: the rarest a known word can be.
    const rareIdf = Math.log(1 + (this.index.size - 1 + 0.5) / 1.5);
    this.unknownCost = UNKNOWN_WORD_COST * rareIdf;
    this.meaning =
      options.encoder === undefined
        ? undefined
        : new MeaningIndex(this.entries, options.encoder, (t) => stripFillers(normalize(t)));
  }

  /**
   * Readies the meaning of these sentences (each as the dialog passes it: normalised,
   * fillers stripped), so `retrieve` can weigh it. Does nothing without an encoder.
   */
  prepare(sentences: readonly string[]): Promise<void> {
    return this.meaning?.prepare(sentences) ?? Promise.resolve();
  }

  get size(): number {
    return this.entries.length;
  }

  /** Whether the entries use this very word, in a question or an answer ("worming"). */
  usesWord(word: string): boolean {
    return this.surfaceWords.get(stem(word))?.has(word) ?? false;
  }

  /** The entry with this id. */
  get(id: string): KnowledgeEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /**
   * The caller's words as weighted index terms: a word the entries use counts fully, a
   * near-miss spelling (a recogniser slip) or the last part of a question's compound
   * ("chip" for "microchip") as {@link FUZZY_WEIGHT}, and a word they do not use for each of
   * the (up to {@link MAX_MEANINGS}) entry words closest to it in meaning, weighted by the
   * similarity; failing all these, for the one question word it sounds like
   * ({@link soundsLike}), as {@link SOUND_WEIGHT}.
   */
  analyse(text: string): AnalysedQuery {
    const cached = this.analysed.get(text);
    if (cached !== undefined) return cached;
    const analysed = this.analyseAfresh(text);
    this.analysed.set(text, analysed);
    return analysed;
  }

  /** {@link analyse}, without the cache. */
  private analyseAfresh(text: string): AnalysedQuery {
    const said = words(text);
    // Idioms read as the question word they stand for ("how late" → "when late"), which
    // the caller did not say themselves.
    const asked = words(askedPlainly(said.join(' ')));
    const ws = this.joinPhrases(joinCompounds(asked, (t) => this.index.has(t)));
    const terms = new Map<string, number>();
    const perWord: Map<string, number>[] = [];
    const firmWords: Set<string>[] = [];
    const firm = new Set<string>();
    const unknown: string[] = [];
    const unknownWords: string[] = [];
    /** Things that are only kinds of the entries' things ("hotel", where they say "building"). */
    const otherKinds: string[] = [];
    for (const w of ws) {
      if (STOP_WORDS.has(w)) continue;
      const term = stem(w);
      // A question word ("when") the entries never use costs no confidence: it is no topic
      // nobody wrote about ("when do you close", where the entry asks "what are your opening
      // hours"), nor a thing or quality that might be what is asked. Said by the caller, it
      // is still a word the knowledge base does not know, for the rule that wants every word
      // known (`fusedEntry`).
      if (WEAK_TERMS.has(term) && !this.index.has(term)) {
        if (said.includes(w)) unknownWords.push(w);
        continue;
      }
      const mine = new Map<string, number>();
      const mineFirm = new Set<string>();
      if (this.index.has(term)) {
        mine.set(term, 1);
        mineFirm.add(term);
      } else {
        for (const meant of this.closestInMeaning(w)) {
          mine.set(meant.term, meant.similarity);
          // The same word in another form ("cancelled" for "cancel"): the caller's own word.
          if (meant.similarity >= SAME_WORD) mineFirm.add(meant.term);
        }
        // A light word ("around", "back") is what the caller said, not a slip for a word one
        // letter off ("ground"): it says nothing of a topic. Nor is a word that means one of
        // the entries' words itself ("charge", the price: not a slip for "change").
        const near = this.lexicon.isLight(w) || mine.size > 0 ? undefined : this.nearest(term);
        if (near !== undefined) {
          mine.set(near, Math.max(mine.get(near) ?? 0, FUZZY_WEIGHT));
          mineFirm.add(near);
        }
      }
      // "chip" for a question's "microchip": a compound names a kind of its last word.
      for (const compound of this.compoundsOf(w)) {
        mine.set(compound, Math.max(mine.get(compound) ?? 0, FUZZY_WEIGHT));
        mineFirm.add(compound);
      }
      // Nothing in spelling or meaning: a word that sounds like one question word alone may
      // be the recogniser's slip for it ("barking" for "parking").
      const heard = mine.size === 0 ? this.soundsLike(w) : undefined;
      if (heard !== undefined) {
        mine.set(heard, SOUND_WEIGHT);
        mineFirm.add(heard);
      }
      if (mine.size === 0) {
        if (!unknown.includes(term)) unknown.push(term);
        unknownWords.push(w);
        continue;
      }
      if (
        mineFirm.size === 0 &&
        this.isThing(w) &&
        (this.anotherKind(w) || this.looselyInAnswers(w, mine))
      ) {
        otherKinds.push(w);
      }
      for (const t of mineFirm) firm.add(t);
      perWord.push(mine);
      firmWords.push(mineFirm);
      for (const [t, weight] of mine) terms.set(t, Math.max(terms.get(t) ?? 0, weight));
    }
    const isThing = (w: string) => this.isThing(w);
    // A noun before one of the entries' own things only says which one ("a car park").
    const modifies = (next: string | undefined) =>
      next !== undefined && this.index.has(stem(next)) && isThing(next);
    const namedThings = ws.filter(
      (w, i) =>
        (unknownWords.includes(w) || otherKinds.includes(w)) &&
        isThing(w) &&
        !modifies(ws[i + 1]) &&
        ws.slice(Math.max(0, i - 1 - ARTICLE_REACH), i).some((before) => ARTICLES.has(before)),
    );
    // The question's last word: what it asks of the thing before it ("is the hygienist
    // nice"). Not one before a thing ("a terrible pain"), nor before the place it is near
    // ("near you"), and not "how late" or "how long", which ask about time.
    const last = ws.at(-1);
    const askedQualities =
      last !== undefined &&
      unknownWords.includes(last) &&
      this.lexicon.isQuality(last) &&
      !WEAK_TERMS.has(stem(last))
        ? [last]
        : [];
    return {
      terms,
      firm,
      words: perWord,
      firmWords,
      unknown,
      unknownWords,
      namedThings,
      askedQualities,
    };
  }

  /** All entries that share a term with the text, best first, with their confidence. */
  rank(text: string, filter?: (entry: KnowledgeEntry) => boolean): KnowledgeMatch[] {
    return this.rankAnalysed(this.analyse(text), filter);
  }

  /** {@link rank} of words already analysed ({@link analyse}). */
  private rankAnalysed(
    analysed: AnalysedQuery,
    filter?: (entry: KnowledgeEntry) => boolean,
  ): KnowledgeMatch[] {
    const {
      terms,
      firm: firmTerms,
      words: perWord,
      firmWords: firmPerWord,
      unknown,
      unknownWords,
    } = analysed;
    if (terms.size === 0) return [];
    // Each word counts once in the reference, by its strongest reading, and in full: a word
    // that only means something close to an entry's word scores a share of what the word
    // itself would, so "dentist" is not as sure a match for "doctor" as "doctor" is.
    let reference = unknown.length * this.unknownCost;
    for (const mine of perWord) {
      let best = 0;
      for (const [term, weight] of mine) {
        const full = weight >= FUZZY_WEIGHT ? weight : 1;
        best = Math.max(best, full * this.index.reference(term, REFERENCE_TF));
      }
      reference += best;
    }
    const firm = [...firmTerms].filter((term) => !WEAK_TERMS.has(term));
    const unknownContent = unknownWords.filter(
      (w) => !this.lexicon.isLight(w) && !WEAK_TERMS.has(stem(w)),
    );
    const unknownContentWords = unknownContent.length;
    const unknownThings = unknownContent.filter((w) => this.isThing(w)).length;
    const hits = this.index.search(terms, filter && ((i) => filter(this.entryAt(i))));
    return hits.map((hit) => ({
      entry: this.entryAt(hit.id),
      score: hit.score,
      confidence: Math.min(1, hit.score / reference),
      inQuestions: [...terms.keys()].some((t) => this.questionTerms[hit.id]?.has(t) === true),
      firmInQuestions: firm.some((t) => this.questionTerms[hit.id]?.has(t) === true),
      firm: firm.some((t) => this.entryTerms[hit.id]?.has(t) === true),
      distinctWords: firmPerWord.filter((mine) =>
        [...mine].some(
          (t) =>
            !WEAK_TERMS.has(t) &&
            this.questionTerms[hit.id]?.has(t) === true &&
            this.entryTerms.every((terms, i) => i === hit.id || !terms.has(t)),
        ),
      ).length,
      unknownContentWords,
      unknownThings,
      otherTopicWords: perWord.filter(
        (mine, w) =>
          ![...mine.keys()].some((t) => this.entryTerms[hit.id]?.has(t) === true) &&
          [...mine.keys()].some(
            (t) =>
              !WEAK_TERMS.has(t) &&
              this.entryTerms.some(
                (terms, i) =>
                  i !== hit.id &&
                  (firmPerWord[w]?.has(t) === true
                    ? terms.has(t)
                    : this.questionTerms[i]?.has(t) === true),
              ),
          ),
      ).length,
      matchedWords: perWord.filter((mine) =>
        [...mine.keys()].some((t) => this.entryTerms[hit.id]?.has(t) === true),
      ).length,
      questionWords: perWord.filter((mine) =>
        [...mine.keys()].some(
          (t) => !WEAK_TERMS.has(t) && this.questionTerms[hit.id]?.has(t) === true,
        ),
      ).length,
      supportWords: perWord.filter((mine, w) =>
        [...mine.keys()].some(
          (t) =>
            !WEAK_TERMS.has(t) &&
            (this.questionTerms[hit.id]?.has(t) === true ||
              (firmPerWord[w]?.has(t) === true && this.entryTerms[hit.id]?.has(t) === true)),
        ),
      ).length,
    }));
  }

  /**
   * The best urgent entry at or above the urgent threshold, if any, on a word of its own:
   * related words alone ("bone" for "tooth") do not raise an alarm (the emergency phrases
   * catch what callers say in other words).
   */
  urgent(text: string): KnowledgeMatch | undefined {
    const ranked = this.rank(text);
    const best = ranked.find((m) => m.entry.urgent === true);
    if (!best || !best.firm || best.confidence < this.thresholds.urgent) return undefined;
    // An ordinary entry that fits the words about as well (in a close race, or better) is
    // what they are about ("i would like to get my eyes tested" at an optician whose urgent
    // entry is about chemicals in the eye; "… about my tooth" at a dental practice whose
    // urgent entry and toothache entry both say "tooth"), unless the caller said a word
    // only the urgent entry uses.
    const ordinary = ranked.find((m) => m.entry.urgent !== true);
    if (
      ordinary !== undefined &&
      ordinary.score * CLOSE_RACE >= best.score &&
      best.distinctWords === 0
    ) {
      return undefined;
    }
    return best;
  }

  /**
   * What to do with the caller's words. By the words first, as below; when they give no
   * sure answer and the sentence was prepared (`prepare`), its meaning decides (see
   * {@link MEANING_ANSWER}). By the words:
   *   - answer: the best entry is sure (confidence ≥ `answer`) through a word of its
   *     questions that is not only a question word ("when"); or likely (≥ `clarify`), well
   *     ahead of the next ({@link CLEAR_LEAD}) on the caller's own word in its questions,
   *     and supported by two or more of the caller's words (a word of its questions, or
   *     the caller's own word in its answer: a merely related word of the answer is not
   *     enough); or named by a word only its questions use, every other word of the
   *     caller's being a light word or one of the entry's, and well ahead of the next;
   *   - choose: two entries fit about equally ({@link CLOSE_RACE}): ask which (so too when
   *     the words are unsure of either and meaning puts the same two first:
   *     `twoInTheRunning`);
   *   - clarify: the best entry is likely but not sure: ask whether it is meant;
   *   - none: nothing fits, or only through words related in meaning (never enough alone to
   *     put a clinic fact to an off-topic question).
   * An answer to a question that names a thing the knowledge base never mentions
   * (`namedThings`), or asks what something is like in a word it never uses
   * (`askedQualities`), is asked about instead, unless the entry is urgent.
   */
  retrieve(text: string): Retrieval {
    // The caller's words, analysed once: each step below reads them.
    const analysed = this.analyse(text);
    const found = this.retrieveAny(text, analysed);
    // "When does the library open?": the caller names a thing the knowledge base never
    // mentions, so the question may be about that thing, not the business. Asked, not told.
    // An urgent entry is answered whatever else is named ("the dog ate a chocolate bar").
    // So too "is the hygienist nice": the caller asks what something of the entry's is like,
    // which nobody wrote about; the hygienist's price is no answer to it.
    if (
      found.kind === 'answer' &&
      found.match.entry.urgent !== true &&
      (analysed.namedThings.length > 0 || analysed.askedQualities.length > 0)
    ) {
      return { kind: 'clarify', match: found.match };
    }
    return found;
  }

  /** {@link retrieve} before the named-thing check. */
  private retrieveAny(text: string, analysed: AnalysedQuery): Retrieval {
    // The words' ranking, once: each step below weighs it.
    const ranked = this.rankAnalysed(analysed);
    const byWords = retrieveByWords(ranked, this.thresholds);
    if (byWords.kind === 'answer') return byWords;
    const sentence: SentenceEvidence = {
      meanings: this.meaning?.rank(text),
      analysed,
      entryAt: (i) => this.entryAt(i),
    };
    const meant = meantEntry(sentence, byWords, ranked);
    if (meant?.supported === true) return { kind: 'answer', match: meant.match };
    // Two entries the words found about equally are the caller's to choose between.
    const together = byWords.kind === 'choose' ? undefined : fusedEntry(sentence, ranked);
    if (together !== undefined) return { kind: 'answer', match: together, together: true };
    const race = byWords.kind === 'none' ? twoInTheRunning(sentence, ranked) : undefined;
    if (race !== undefined) return { kind: 'choose', matches: race };
    if (meant === undefined) return byWords;
    // The words found no entry they could offer, but the sentence means this one: ask.
    return byWords.kind === 'none'
      ? { kind: 'clarify', match: meant.match, byMeaning: true }
      : byWords;
  }

  /**
   * The term of the one question word the caller's word sounds like: a phone off (two for
   * words of {@link SOUND_LONG_PHONES} phones or more), in words of
   * {@link SOUND_MIN_PHONES} phones or more, never a light word. None when it sounds like
   * question words of two different terms: then it is no clue which was meant.
   */
  soundsLike(word: string): string | undefined {
    if (this.lexicon.isLight(word)) return undefined;
    const sounds = this.lexicon.sounds(word);
    if (sounds === undefined || sounds.length < SOUND_MIN_PHONES) return undefined;
    const max = sounds.length >= SOUND_LONG_PHONES ? 2 : 1;
    const terms = new Set<string>();
    for (const q of this.questionSounds) {
      if (q.word === word || Math.abs(q.sounds.length - sounds.length) > max) continue;
      if (editDistance(sounds, q.sounds, max) <= max) terms.add(q.term);
    }
    return terms.size === 1 ? [...terms][0] : undefined;
  }

  /**
   * Terms of the entries' question words that end in the caller's word (or its lemma) after
   * a modifier of {@link COMPOUND_MODIFIER} letters or more: "chip" → "microchip",
   * "ache" → "toothache". English compounds name a kind of their last word.
   */
  private compoundsOf(word: string): string[] {
    if (word.length < COMPOUND_HEAD || this.lexicon.isLight(word)) return [];
    const heads = new Set([word, this.lexicon.lemma(word)]);
    const found: string[] = [];
    for (const [compound, term] of this.questionCompounds) {
      for (const head of heads) {
        if (compound.length - head.length >= COMPOUND_MODIFIER && compound.endsWith(head)) {
          found.push(term);
          break;
        }
      }
    }
    return found;
  }

  /**
   * Phrasal verbs as one word ("call off" → "call_off", which means "cancel"), when the
   * phrase means one of the entries' words and the verb alone is not a word of their
   * questions: "call" and "off" apart say nothing of what "call off" does.
   */
  private joinPhrases(ws: readonly string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < ws.length; i++) {
      const verb = ws[i] ?? '';
      const particle = ws[i + 1];
      const phrase = particle === undefined ? undefined : this.lexicon.phrase(verb, particle);
      if (
        phrase !== undefined &&
        !this.questionTerms.some((terms) => terms.has(stem(verb))) &&
        this.closestInMeaning(phrase).length > 0
      ) {
        out.push(phrase);
        i++;
        continue;
      }
      out.push(verb);
    }
    return out;
  }

  /** Up to {@link MAX_MEANINGS} index terms whose entry words mean most nearly what `word` means. */
  private closestInMeaning(word: string): readonly Meaning[] {
    const cached = this.caches.meanings.get(word);
    if (cached !== undefined) return cached;
    const found: Meaning[] = [];
    for (const [term, surfaces] of this.surfaceWords) {
      let similarity = 0;
      for (const surface of surfaces) {
        similarity = Math.max(similarity, this.similarity(word, surface));
      }
      if (similarity >= MIN_MEANING_SIMILARITY) found.push({ term, similarity });
    }
    found.sort((x, y) => y.similarity - x.similarity);
    const kept = found.slice(0, MAX_MEANINGS);
    this.caches.meanings.set(word, kept);
    return kept;
  }

  /** How close the caller's word is to one of the entries' words, as the entries use it. */
  private similarity(word: string, surface: string): number {
    return this.lexicon.similarity(word, surface, { bAsNoun: this.nounsOnly.has(surface) });
  }

  /**
   * Whether the word reaches the entries' words only as a kind of them: "hotel" is a kind
   * of "building", but a caller who asks about a hotel asks about another building. A word
   * close in meaning some other way (a synonym, a derived form, an embedding neighbour) is
   * not, nor one more general than an entry's word: "the time of my session" may well be
   * about the evening hours.
   */
  private anotherKind(word: string): boolean {
    const meant = this.closestInMeaning(word);
    if (meant.length === 0) return false;
    const { lexicon } = this;
    return meant.every(({ term }) =>
      [...(this.surfaceWords.get(term) ?? [])].every(
        (surface) =>
          lexicon.isKindOf(word, surface) ||
          this.similarity(word, surface) < MIN_MEANING_SIMILARITY,
      ),
    );
  }

  /**
   * Whether a thing the caller names is only loosely related to words of the entries'
   * answers, and to no word of their questions: the caller's "bank" is related to the
   * "riverside" of an address, their "game" to the "running" of a physio's answer, but a
   * question about a bank or a game is about that thing, not about the business. A
   * synonym ({@link LOOSE_MEANING} or closer: a "spot" for the answer's "place") is the
   * same thing in other words, and so is one written together with the answer's word (a
   * "checkup", where the answer says "check ups").
   */
  private looselyInAnswers(word: string, meant: ReadonlyMap<string, number>): boolean {
    for (const [term, similarity] of meant) {
      if (similarity >= LOOSE_MEANING) return false;
      if (this.questionTerms.some((terms) => terms.has(term))) return false;
      for (const surface of this.surfaceWords.get(term) ?? []) {
        if (surface.length >= COMPOUND_HEAD && (word.startsWith(surface) || word.endsWith(surface)))
          return false;
      }
    }
    return true;
  }

  /** Whether the word (or its dictionary form) names a thing or a place. */
  private isThing(word: string): boolean {
    return this.lexicon.isThing(word) || this.lexicon.isThing(this.lexicon.lemma(word));
  }

  /** Entries marked urgent, in order. */
  urgentEntries(): KnowledgeEntry[] {
    return this.entries.filter((e) => e.urgent === true);
  }

  /** Entries that are not urgent, for "what can you do". */
  topics(): KnowledgeEntry[] {
    return this.entries.filter((e) => e.urgent !== true);
  }

  private entryAt(i: number): KnowledgeEntry {
    const entry = this.entries[i];
    if (!entry) throw new Error(`No knowledge entry ${i}`);
    return entry;
  }

  /** A known term one letter off (two for long words), for recogniser near-misses. */
  private nearest(term: string): string | undefined {
    if (term.length < 5 || /\d/.test(term)) return undefined;
    const max = term.length >= 8 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = max + 1;
    for (const known of this.vocabulary) {
      if (known.length < 4) continue;
      const d = editDistance(term, known, max);
      if (d < bestDistance) {
        best = known;
        bestDistance = d;
      }
    }
    return best;
  }
}

function termsOf(text: string): string[] {
  return contentTerms(words(text));
}

/**
 * Joins two neighbouring words when the joined word is a known term and the words alone are
 * not ("re fill" → "refill", "pharma see" stays).
 */
export function joinCompounds(ws: readonly string[], known: (term: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const a = ws[i] ?? '';
    const b = ws[i + 1];
    if (b !== undefined) {
      const joined = stem(a + b);
      if (known(joined) && !(known(stem(a)) && known(stem(b)))) {
        out.push(a + b);
        i++;
        continue;
      }
    }
    out.push(a);
  }
  return out;
}
