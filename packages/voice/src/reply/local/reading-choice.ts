/**
 * Which of an utterance's readings the conversation acts on: pocketsphinx's best and its
 * N-best list, and a second recogniser's (Moonshine's) readings when the first doubted what
 * it heard. With "Do you mean …?" pending, the second recogniser's reply made of nothing
 * but choosing words comes first. Otherwise an emergency heard in the best reading, or by
 * the second recogniser, raises the alarm, and one deeper in the N-best list when two of
 * its readings carry it; a question one recogniser heard outright is preferred to the
 * other's guess (asked about, not told, when the second's holds a word no dictionary has),
 * and where the first recogniser's best reading points to no entry at all, the second's
 * that points to one is asked about; a free answer to the brief's question is taken from
 * the reading most like an answer that the others agree with. The rules and what each was
 * measured to do are at `ReadingChooser.choose`.
 */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import type { Lexicon } from '../../language/lexicon.js';
import { answerKinds } from '../../stt/language-model/answers.js';
import { numberToWords } from '../../stt/language-model/normalize.js';
import { agreement, answerForms, likeAnswers } from './answer-words.js';
import { pickOfTwo, settledInSoManyWords } from './choice.js';
import type { EmergencyDetector } from './emergency.js';
import type { IntakeFlow } from './intake.js';
import { isGoodbye, isQuestion, smallTalk, yesNo } from './intents.js';
import type { KnowledgeBase } from './knowledge/knowledge-base.js';
import type { Retrieval } from './knowledge/match.js';
import { closestInSound, soundsOf } from './sound.js';
import { editDistance, normalize, STOP_WORDS, stripFillers } from './text.js';

/** Which reading of an utterance to act on, and whether its answer should be asked about first. */
export interface ReadingChoice {
  index: number;
  /** The reading's topic is not what the recogniser's first reading points to: ask, do not tell. */
  doubtful?: boolean;
  /**
   * The reading is a second recogniser's (one that spells what it hears): a word of it
   * sounding a phone off an emergency phrase's word counts as that word.
   */
  spelled?: boolean;
}

/**
 * How much a reading's agreement with the other readings (0–1) counts beside its likeness
 * to answers (0–2) in choosing a free answer to the brief's question (see
 * `briefAnswerReading`). Chosen on our own intake answers: 1.5 to 4 do about as well.
 */
const ANSWER_AGREEMENT = 2;
/** The numbers of a scale's answer, "zero" to "ten", in words or digits. */
const SCALE_NUMBERS: ReadonlySet<string> = new Set(
  Array.from({ length: 11 }, (_, n) => [numberToWords(n), String(n)]).flat(),
);

/** Whether a reading (normalised) says a number of a scale. */
function holdsScaleNumber(reading: string): boolean {
  return reading.split(' ').some((w) => SCALE_NUMBERS.has(w));
}

/** N-best hypotheses that must carry an emergency phrase before it counts (see `ReadingChooser.choose`). */
const MIN_HYPOTHESES_FOR_ALARM = 2;

/** Whether a retrieval answers or asks about the entry (alone or beside another). */
function offers(found: Retrieval, entry: KnowledgeEntry): boolean {
  if (found.kind === 'choose') return found.matches.some((m) => m.entry === entry);
  return found.kind !== 'none' && found.match.entry === entry;
}

/** What choosing a reading needs from the conversation: its parts, and its state now. */
export interface ReadingContext {
  readonly kb: KnowledgeBase;
  readonly emergency: EmergencyDetector;
  readonly lexicon: Lexicon;
  readonly endCallPhrases: readonly string[];
  /** The assistant's brief, if it has one (which question it is asking, if any). */
  readonly intake: IntakeFlow | undefined;
  /** The entries of the conversation's "Do you mean …?" still waiting for a reply. */
  pending(): readonly KnowledgeEntry[] | undefined;
  /** The urgent entry the words call for (see `Dialog`), if any. */
  urgentEntry(n: string, soundSlips?: boolean): KnowledgeEntry | undefined;
  /** Whether the words ask for the brief. */
  asksForBrief(n: string): boolean;
}

export class ReadingChooser {
  constructor(private readonly context: ReadingContext) {}

  /** See `LocalReplyEngine.missedEmergency`. */
  missedEmergency(answered: string, readings: readonly string[]): number {
    const clean = (text: string) => stripFillers(normalize(text));
    if (this.context.urgentEntry(clean(answered)) !== undefined) return -1;
    return readings.findIndex((r) => this.context.urgentEntry(clean(r), true) !== undefined);
  }

  /** See `LocalReplyEngine.choose`. */
  choose(
    readings: readonly string[],
    answerable = readings.length,
    independentFrom = readings.length,
  ): ReadingChoice {
    const all = readings.map((r) => stripFillers(normalize(r)));
    const ns = all.slice(0, answerable);
    // A second recogniser that heard a question ("can you play some music", which
    // pocketsphinx's domain model heard as "can you poison years ago") holds back an
    // emergency only pocketsphinx's other readings carry: a caller in trouble says what has
    // happened, and one asking for help ("can you send an ambulance") has the emergency's
    // words in the second's reading too, which raises the alarm below. The same question
    // votes for no emergency in the N-best list, nor lets it raise one (below). On our own
    // lines in five voices: false alarms 50 → 17 of 820 ordinary lines, 17 fewer
    // off-topic lines told a fact; every emergency caught before was caught still.
    const secondAsks = isQuestion(all[independentFrom] ?? '');
    // Nor when the two recognisers heard the same ordinary words ("i cannot make it on
    // tuesday", which the domain model also read as "… can not wake it …"): a caller in
    // trouble is rarely misheard the same way by both. On our own lines in five voices:
    // false alarms 10 → 8 of 460 paraphrases, every emergency caught before caught still.
    const agree = this.recognisersAgree(all, independentFrom);
    const settled = this.secondSettlesChoice(all, independentFrom);
    if (settled !== undefined) return { index: settled };
    const request = this.secondRequestsBrief(all, independentFrom);
    if (request !== undefined) return { index: request };
    const urgent = ns.findIndex(
      (n, i) => (i === 0 || (!secondAsks && !agree)) && this.context.urgentEntry(n) !== undefined,
    );
    if (urgent >= 0) return { index: urgent };
    // A second recogniser hearing an emergency is enough: the two rarely make the same slip,
    // and a caller in trouble that one of them misheard must not be missed. It spells what
    // it hears, so a word of a phrase that sounds a phone off counts ("too many of my
    // bill" for "pills") when the phrase's other words are heard as they are.
    const second = all.findIndex(
      (n, i) => i >= independentFrom && this.context.urgentEntry(n, true),
    );
    if (second >= 0) return { index: second, spelled: true };
    const first = ns[0] ?? '';
    const firstFound = this.context.kb.retrieve(first);
    const clear = firstFound.kind === 'answer';
    // The things the first reading names that the knowledge base never mentions, read by
    // several of the rules below.
    const namedFirst = this.context.kb.analyse(first).namedThings;
    // A second recogniser's reading that sounds most like one of the first's readings, and
    // that one only, votes for it: when the reading it points to is an emergency, the
    // two recognisers heard the same sounds, and one of them spelled out the emergency
    // ("i am cast vain" sounds like the N-best's "i have chest pain", not like the best
    // reading "i have chest do you"). Not when the best reading is a question answered
    // outright, as below.
    const voted = clear || secondAsks ? undefined : this.soundVote(all, independentFrom);
    if (voted !== undefined) return { index: voted };
    // Deeper in the recogniser's N-best list, an emergency phrase counts when it is heard
    // in two readings or more: one alone is as likely a slip of the model. And not when the
    // best reading is a question the assistant answers outright: the domain model hears
    // emergency phrases in ordinary speech, never instead of a question heard clearly. A
    // best reading only resembling a question ("she has a doctor left") does not hold
    // the alarm back. Nor when the second recogniser's best reading is a question answered
    // outright ("what does the annual booster cost", where the N-best list heard "…
    // collapsed" for "cost"): it is answered below. Holding the alarm back whenever the
    // second recogniser's readings merely sounded more like an ordinary reading was tried:
    // it missed a collapse that the N-best list had and Moonshine heard as an ordinary
    // sentence. (During the brief, or with a question of ours pending, the
    // second reading is not answered, so it holds nothing back.)
    const awaiting = this.context.intake?.active === true || this.context.pending() !== undefined;
    const other = all[independentFrom];
    const otherFound = other === undefined ? undefined : this.context.kb.retrieve(other);
    // Not when both recognisers heard the caller name a thing the knowledge base never
    // mentions ("a taxi to the station"): a question about that thing, which the second
    // made a clinic question of with a slip ("it taxi to the station cost"). The second
    // heard it if any of its readings holds it: its best may be a garble ("how much non
    // attack seatomostation cost") where a reading it nearly took has the taxi. On our own
    // lines in five voices: 2 fewer of 320 off-topic lines told a fact on one recording,
    // none on another; nothing else moved.
    const otherClear =
      other !== undefined &&
      !awaiting &&
      otherFound?.kind === 'answer' &&
      !namedFirst.some((thing) =>
        all.slice(independentFrom).some((reading) => reading.split(' ').includes(thing)),
      );
    const alarms = all
      .slice(0, independentFrom)
      .map((n, i) => ({
        i,
        phrase: i >= answerable ? this.context.emergency.detect(n) : undefined,
      }))
      .filter((a) => a.phrase !== undefined);
    // Nor when the second recogniser heard a question (above).
    if (
      alarms.length >= MIN_HYPOTHESES_FOR_ALARM &&
      !clear &&
      !otherClear &&
      !secondAsks &&
      !agree
    ) {
      return { index: (alarms[0] as { i: number }).i };
    }
    const picking = this.pickingReading(all, independentFrom);
    if (picking !== undefined) return { index: picking };
    if (awaiting) return { index: this.briefAnswerReading(all, independentFrom) };
    const understood =
      smallTalk(first) !== undefined ||
      yesNo(first) !== undefined ||
      isGoodbye(first, this.context.endCallPhrases) ||
      // A request for the brief starts it (not a later reading's question instead).
      this.context.asksForBrief(first) ||
      clear;
    // The first reading is a question answered outright, but the second recogniser heard
    // the caller name a thing the knowledge base never mentions, which the first did not
    // ("is the swimming pool open on sunday" heard as "business we need to open on
    // sunday"): the second's reading is taken, and asked about rather than told a fact. On
    // our own lines: 8 fewer off-topic lines told a fact, no paraphrase fewer answered.
    // So too when the first heard the thing's word but not as a thing named ("that is
    // shops open on sunday"): 2 more of 320 off-topic lines asked about instead of told.
    // Not when another of the second's readings is the first's, give or take a phone: the
    // two heard the same words, and the thing is the second's slip ("how much does it cost
    // to join" read as "how much knowledge cast a giant", then "… does it cast to join").
    if (clear && !agree && other !== undefined) {
      const namedOther = this.context.kb.analyse(other).namedThings;
      if (namedOther.some((thing) => !namedFirst.includes(thing))) {
        return { index: independentFrom };
      }
    }
    // The second recogniser's reading asks for the brief in the caller's words, where the
    // first's best reading does not: taken even over a question that reading answers (a
    // request needs a verb of passing on and who it is for, which ordinary questions
    // rarely hold; on our own lines this started 17 more of 40 requests, and changed
    // nothing else).
    if (
      other !== undefined &&
      this.context.asksForBrief(other) &&
      !this.context.asksForBrief(first)
    ) {
      return { index: independentFrom };
    }
    // Both recognisers heard a question answered outright, about different entries: the
    // second's is taken. It read this utterance because the first doubted it, and it hears
    // callers' own wording far better (a question about the fees that the first heard with
    // "keys" for "fees" and took for the address). On recorded readings of our own
    // lines in five voices the second was right in all 5 such turns, and in 4 of the
    // benchmark's 5.
    if (
      otherClear &&
      firstFound.kind === 'answer' &&
      otherFound?.kind === 'answer' &&
      otherFound.match.entry !== firstFound.match.entry
    ) {
      return { index: independentFrom };
    }
    if (understood) return { index: 0 };
    // The second recogniser's best reading, when it is a question answered outright: the
    // first recogniser doubted this utterance (that is when the second reads it) and its
    // best reading answers nothing, while the second, free of the domain model's pull
    // toward the entries' own words, hears callers' own wording far better. On our own
    // lines this answered 7 more of 215 paraphrases right than answering it only on the
    // topic the first reading leans to, for 1 more off-topic line told a fact.
    // Asked about rather than told, though, when that reading holds a word no dictionary
    // has: the second recogniser spells what it hears, and wrote down sounds it could not
    // place, most often the very thing asked about ("what time does the bank open" read as
    // "… the man copen", which found the opening hours through "open"). On recorded
    // readings of our own lines in five voices: 4 fewer of 320 off-topic lines told a fact
    // and 1 fewer question answered wrongly; 2 answered right are now answered after the
    // caller's "yes".
    if (otherClear) {
      return other !== undefined && this.holdsUnplacedWord(other)
        ? { index: independentFrom, doubtful: true }
        : { index: independentFrom };
    }
    // Not when the two recognisers heard the same words (give or take a phone): those words
    // were said, and a reading the second went on to, which sounds the same but is spelled
    // so the knowledge base answers it, only spells them luckily ("where can i buy running
    // shoes", read on as "… by running shoes", is not a question about what to wear). On
    // recorded readings of our own lines in five voices: 2 fewer of 460 questions answered
    // wrongly and 2 fewer of 320 off-topic lines told a fact, for 2 fewer answered right.
    const hesitated = awaiting || agree ? undefined : this.secondHesitation(all, independentFrom);
    if (hesitated !== undefined) return { index: hesitated };
    for (const [i, n] of ns.entries()) {
      if (i === 0) continue;
      const found = this.context.kb.retrieve(n);
      if (found.kind !== 'answer') continue;
      // A second recogniser read this utterance (and did not hear a question answered
      // outright, above): it hears callers' own words, free of the domain model's pull
      // toward the entries'. Unless its reading would at least ask about the same entry, the
      // topic is the domain model's ("how do i get to the airport" heard as "… get a there
      // parked"); when it would, the caller is asked. On our own lines this told 13 fewer
      // off-topic lines a fact and answered 2 fewer paraphrases wrongly, for none right.
      if (otherFound !== undefined) {
        if (!offers(otherFound, found.match.entry)) continue;
        return { index: i, doubtful: true };
      }
      // The recogniser trusted this reading less than its first. Where the first points at
      // the same entry (its best match, through a word of its own that the entry holds), the
      // two agree and the answer stands; where it does not, the topic may be the domain
      // model's own bias (it hears the entries' words in any speech), so the caller is asked
      // rather than told. A word only related in meaning points nowhere ("painted" is not
      // about parking spaces).
      const leaning = this.context.kb.rank(first)[0];
      const agrees = leaning?.entry === found.match.entry && leaning.firm;
      // Nor when the first reading names a thing the knowledge base never mentions, which
      // this one lost ("where is the nearest train station", read by the domain model as
      // "… nearest pains patient"): its words are the entries', not the caller's.
      const lost = namedFirst.some((thing) => !n.split(' ').includes(thing));
      return { index: i, doubtful: !agrees || lost };
    }
    // Nothing the first recogniser read is anything the knowledge base can offer, but the
    // second's best reading would have the caller asked about an entry ("how late can i
    // come for a swim", which the first heard as "how late can like i'm a muslim"): asked,
    // as that reading alone would be. Not when it names a thing the knowledge base never
    // mentions ("is the football on tonight"): asked, the caller could only say no. On
    // recorded readings of our own lines in five voices: 12 more of 460 questions answered
    // after the caller's "yes" (34), 24 fewer "I do not know"; 12 more of 320 off-topic
    // lines asked about (103), none more told a fact; one emergency heard only as "my chest
    // in third and really badly" asked about as chest pain instead of not understood.
    if (
      other !== undefined &&
      !awaiting &&
      firstFound.kind === 'none' &&
      (otherFound?.kind === 'clarify' || otherFound?.kind === 'choose') &&
      this.context.kb.analyse(other).namedThings.length === 0
    ) {
      return { index: independentFrom };
    }
    return { index: 0 };
  }

  /**
   * Whether a reading holds a word that is neither in the recogniser's dictionary nor one of
   * the knowledge base's own ("worming" is no dictionary's, but a vet's entry's). One-letter
   * words ("i", "a") have no entry of their own in the dictionary, and do not count.
   */
  private holdsUnplacedWord(reading: string): boolean {
    return reading
      .split(' ')
      .some(
        (w) =>
          w.length > 1 &&
          this.context.lexicon.sounds(w) === undefined &&
          !this.context.kb.usesWord(w),
      );
  }

  /**
   * One of the second recogniser's other readings (it read on from the words it hesitated
   * over) that is a question answered outright, when its best reading is not: "what is the
   * price on fleetairbless" read on as "… on flea tablets". Such a reading is less sure
   * than the best, so only one made of dictionary words (a word no dictionary has is a
   * guess at sounds) answered without a word the knowledge base lacks (light words
   * aside), when the best reading names no thing the knowledge base lacks after an
   * article, and every such reading answers with the same entry. On our own lines, in five voices: 14 more of
   * 460 questions answered right, 5 more wrongly (two of them wrong as written, too), and
   * 4 more of 320 off-topic lines told a fact (a thing the best reading named read on as
   * other words: "do you sell concert tickets" heard as "… consider tickets", then "…
   * consider to take it"); emergencies and false alarms unchanged. Allowing words the
   * knowledge base lacks answered 5 more right, for 2 more wrong and 4 more facts.
   */
  private secondHesitation(all: readonly string[], independentFrom: number): number | undefined {
    const best = all[independentFrom];
    if (best === undefined || this.context.kb.analyse(best).namedThings.length > 0)
      return undefined;
    let found: { index: number; entry: KnowledgeEntry } | undefined;
    for (let i = independentFrom + 1; i < all.length; i++) {
      const reading = all[i] ?? '';
      if (reading.split(' ').some((w) => !STOP_WORDS.has(w) && !this.context.lexicon.has(w)))
        continue;
      const retrieved = this.context.kb.retrieve(reading);
      if (retrieved.kind !== 'answer' || retrieved.match.unknownContentWords > 0) continue;
      if (found === undefined) found = { index: i, entry: retrieved.match.entry };
      else if (found.entry !== retrieved.match.entry) return undefined;
    }
    return found?.index;
  }

  /**
   * Which reading of an answer to the brief's question to take: of the first recogniser's
   * best and each of the second's readings, the one most like the answers to that question
   * (their words and word pairs: a duration, a medicine, a symptom), with
   * {@link ANSWER_AGREEMENT} times its agreement with the other readings. Pocketsphinx's
   * question model pulls a free answer toward its own words ("i pulled a muscle in my
   * thigh" as "my cola muscle and my thigh", which only looks like an answer), Moonshine
   * hears callers' own words but spells what it hears ("a solid bait"); a reading both
   * like an answer and shared by the others is likeliest what was said. With no question
   * of the brief being asked (its read-back, or a question of ours pending), the first's
   * best.
   */
  private briefAnswerReading(all: readonly string[], independentFrom: number): number {
    const question = this.context.intake?.asking;
    if (question === undefined || all[0] === undefined) return 0;
    const forms = answerForms(question.ask, this.context.lexicon);
    // The first recogniser's N-best hypotheses are no candidates: they are its own guesses.
    const candidates = [0];
    for (let i = independentFrom; i < all.length; i++) candidates.push(i);
    const likeliest = (among: readonly number[]) => {
      let best = among[0] ?? 0;
      let bestScore = -Infinity;
      for (const i of among) {
        const reading = all[i] ?? '';
        const others = candidates.filter((j) => j !== i).map((j) => all[j] ?? '');
        const score = likeAnswers(reading, forms) + ANSWER_AGREEMENT * agreement(reading, others);
        if (score > bestScore) {
          best = i;
          bestScore = score;
        }
      }
      return best;
    };
    const best = likeliest(candidates);
    // "How bad is it, from one to ten?" is answered with a number, whatever else is said
    // with it: a reading without one misses the answer ("a solid mate", "like a pine"),
    // however like an answer its other words are. Then the likeliest reading that holds one
    // is taken, the first recogniser's N-best list included: its question model hears
    // numbers where its best reading, or the second recogniser, heard a word sounding like
    // one ("a solid eight" as "but oddly great", beside "sorry day eight"). On our own
    // lines in five voices: the right number in 29 of 30 answers, from 21.
    if (!answerKinds(question.ask, this.context.lexicon).has('scale')) return best;
    if (holdsScaleNumber(all[best] ?? '')) return best;
    const numbered = [...all.keys()].filter((i) => holdsScaleNumber(all[i] ?? ''));
    return numbered.length > 0 ? likeliest(numbered) : best;
  }

  /**
   * With "Do you mean, A, or B?" pending, the reading that says which of the two, when the
   * best reading does not: the second recogniser's first, then the first's N-best list.
   * Each word-for-word ("the first one"), not a word merely sounding like one: Moonshine
   * heard "the first one" where pocketsphinx's best reading was "there is one".
   */
  private pickingReading(all: readonly string[], independentFrom: number): number | undefined {
    if (this.context.pending()?.length !== 2 || this.context.intake?.active === true)
      return undefined;
    const picks = (n: string, bySound: boolean) => {
      const pick = pickOfTwo(n, this.context.lexicon, { bySound });
      return pick !== undefined && pick !== 'unsure';
    };
    if (picks(all[0] ?? '', true)) return 0;
    const indices = [...all.keys()];
    const order = [
      ...indices.filter((i) => i >= independentFrom),
      ...indices.filter((i) => i > 0 && i < independentFrom),
    ];
    return order.find((i) => picks(all[i] ?? '', false));
  }

  /**
   * With "Do you mean, A?" or "Do you mean, A, or B?" pending, the second recogniser's
   * best reading when it is a reply made of nothing but choosing words ("yes please", "the
   * first one", "no thanks": see `settledInSoManyWords`): it is taken over the first's best
   * reading, even over an emergency or another choice that reading carries. Pocketsphinx
   * hears the reply with a model of the domain's sentences and the choosing replies, and
   * its slips are those words: "the first one" came out "there is swelling" and "yes
   * please" "yes breathe" (each raising the alarm), "no thanks" came out "both and"
   * (answering both). A caller in trouble who says so is not heard as
   * a bare "the first one" by a second recogniser free of that model; nor is the rule
   * taken when any of its readings carries an emergency phrase, a phone off included. On
   * the team's own replies after such a question, in five voices, for the demo clinic and
   * the dental practice (with short replies read by both, see `SecondOpinionRecognizer`):
   * 120–121 → 123–125 of 130 choosing replies to "A, or B?" acted on right, false alarms
   * 2 → 0; 21 emergencies said in reply raised the alarm 90–93 times of 105 before, 92–93
   * after. To the demo's "Do you mean, A?": 55–56 → 58 of 60 yes-or-no replies, false
   * alarms 3 → 1; the emergencies 91 of 105 before and after.
   */
  private secondSettlesChoice(all: readonly string[], independentFrom: number): number | undefined {
    const offered = this.context.pending()?.length;
    if ((offered !== 1 && offered !== 2) || this.context.intake?.active === true) return undefined;
    const second = all[independentFrom];
    if (
      second === undefined ||
      settledInSoManyWords(second, this.context.lexicon, offered) === undefined
    )
      return undefined;
    const alarmed = all
      .slice(independentFrom)
      .some((n) => this.context.urgentEntry(n, true) !== undefined);
    return alarmed ? undefined : independentFrom;
  }

  /**
   * The second recogniser's reading, when it asks for the brief in the caller's words and
   * none of its readings carries an emergency phrase (a phone off included), even over an
   * emergency phrase in the first recogniser's: the first doubted this turn (that is when
   * the second reads it), and its general model makes emergency phrases of ordinary words
   * ("could you pass a note …" heard as "could you passed out …"), while a request for the
   * brief needs a verb of passing on and who it is for, which a slip rarely makes. A caller
   * who asks for the brief because of an emergency names it, and the second hears it
   * then. As `secondSettlesChoice` does for a reply that settles a choice.
   */
  private secondRequestsBrief(all: readonly string[], independentFrom: number): number | undefined {
    if (this.context.intake?.active === true || this.context.pending() !== undefined) {
      return undefined;
    }
    const second = all[independentFrom];
    if (second === undefined || !this.context.asksForBrief(second)) return undefined;
    // Only against an emergency phrase in the first's readings: otherwise the rules below
    // decide between the two (the first's best reading may ask for the brief too).
    const firstAlarmed = all
      .slice(0, independentFrom)
      .some((n) => this.context.urgentEntry(n) !== undefined);
    if (!firstAlarmed) return undefined;
    const alarmed = all
      .slice(independentFrom)
      .some((n) => this.context.urgentEntry(n, true) !== undefined);
    return alarmed ? undefined : independentFrom;
  }

  /**
   * Whether the first recogniser's best reading is, give or take a phone, one of the
   * second's readings ("i cannot make it on tuesday", "i can not make it on tuesday").
   */
  private recognisersAgree(all: readonly string[], independentFrom: number): boolean {
    const first = all[0];
    if (first === undefined || first === '') return false;
    const a = soundsOf(first, this.context.lexicon);
    return all
      .slice(independentFrom)
      .some((other) => editDistance(a, soundsOf(other, this.context.lexicon)) <= 1);
  }

  /**
   * The first recogniser's reading (an index below `independentFrom`) that one of the
   * second recogniser's readings sounds most like, when it alone is closest and calls for an
   * urgent entry; undefined otherwise. A second reading that is a question answered
   * outright votes for nothing: it heard the question, whatever it sounds close to.
   */
  private soundVote(all: readonly string[], independentFrom: number): number | undefined {
    const own = all.slice(0, independentFrom);
    for (const reading of all.slice(independentFrom)) {
      // A reading that is itself a question answered outright heard no emergency.
      if (this.context.kb.retrieve(reading).kind === 'answer') continue;
      const closest = closestInSound(reading, own, this.context.lexicon);
      const urgent = closest.filter((i) => this.context.urgentEntry(own[i] ?? '') !== undefined);
      if (urgent.length > 0 && urgent.length === closest.length) return urgent[0];
    }
    return undefined;
  }
}
