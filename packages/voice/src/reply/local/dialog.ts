/**
 * The local engine's conversation: one `respond` per caller utterance, in order. It keeps
 * what the call has produced (topics asked, the brief, the urgent flag). Deterministic, so
 * the engine can rebuild it from the history at any turn.
 *
 * Order of precedence for an utterance:
 *   1. goodbye / end-call phrases          → end-call message, end the call
 *   2. an urgent entry (lower threshold),   → its answer (or a built-in one), always (the brief
 *      or an emergency phrase                 goes on after it)
 *   3. the brief, while it is active       → repeat / stop / a knowledge question / the brief
 *   4. a reply to "Do you mean …?" or "… or …?" → the entry chosen / ask again / rephrase
 *   5. "no" to "anything else?"            → end the call
 *   6. a brief trigger or a request to pass something on, or "yes" to an offer of the
 *      brief                               → start (or resume) the brief
 *   7. small talk                          → greeting, thanks, repeat, what I can do
 *   8. the knowledge base                  → answer / "Do you mean A, or B?" / "Do you mean …?"
 *   9. symptoms described, nothing matched → offer the brief, with what they said as its
 *                                            first answer
 *  10. otherwise                            → "I do not know" and what it can do
 */
import type { KnowledgeEntry } from '@talkbooth/protocol';
import { Lexicon } from '../../language/lexicon.js';
import type { CallConclusion } from '../types.js';
import type { BriefIntent } from './brief-intent.js';
import type { EmergencyDetector } from './emergency.js';
import { agreement, answerForms, likeAnswers } from './answer-words.js';
import type { IntakeFlow } from './intake.js';
import { isGoodbye, isNothingElse, isQuestion, isStopBrief, smallTalk, yesNo } from './intents.js';
import type { KnowledgeBase } from './knowledge/knowledge-base.js';
import type { Retrieval } from './knowledge/match.js';
import { shortTopicOf, topicOf } from './knowledge/topics.js';
import { pickOfTwo } from './choice.js';
import { closestInSound, soundsOf } from './sound.js';
import { editDistance, normalize, STOP_WORDS, stripFillers } from './text.js';

export interface DialogConfig {
  knowledge: KnowledgeBase;
  emergency: EmergencyDetector;
  briefIntent: BriefIntent;
  intake?: IntakeFlow;
  greeting: string | null;
  endCallMessage?: string;
  endCallPhrases?: readonly string[];
  /** Words' sounds, to compare two recognisers' readings (default: the built lexicon). */
  lexicon?: Lexicon;
}

export interface Turn {
  text: string;
  endCall: boolean;
}

const DEFAULT_END_CALL_MESSAGE = 'Thank you for calling. Goodbye.';

/** The answer to an emergency when the assistant's knowledge base has no urgent entry. */
export const BUILT_IN_EMERGENCY: KnowledgeEntry = {
  id: 'emergency',
  questions: ['This is an emergency.'],
  answer:
    'This sounds urgent. If it is an emergency, please hang up and call your local emergency number now.',
  urgent: true,
};

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

export interface RespondOptions {
  /** The words are a reading the recogniser doubted (see {@link ReadingChoice}). */
  doubtful?: boolean;
  /** The words are a spelling recogniser's reading (see {@link ReadingChoice}). */
  spelled?: boolean;
}

/**
 * How much a reading's agreement with the other readings (0–1) counts beside its likeness
 * to answers (0–2) in choosing a free answer to the brief's question (see
 * `briefAnswerReading`). Chosen on our own intake answers: 1.5 to 4 do about as well.
 */
const ANSWER_AGREEMENT = 2;
/** N-best hypotheses that must carry an emergency phrase before it counts (see `chooseReading`). */
const MIN_HYPOTHESES_FOR_ALARM = 2;
/** Words that take the one topic offered in "Do you mean …?" ("yes that one", "the first"). */
const FIRST_CHOICE = new Set(['first', 'former', 'one']);

/** Whether a retrieval answers or asks about the entry (alone or beside another). */
function offers(found: Retrieval, entry: KnowledgeEntry): boolean {
  if (found.kind === 'choose') return found.matches.some((m) => m.entry === entry);
  return found.kind !== 'none' && found.match.entry === entry;
}

export class Dialog {
  private readonly kb: KnowledgeBase;
  private readonly emergency: EmergencyDetector;
  private readonly lexicon: Lexicon;
  private readonly briefIntent: BriefIntent;
  /** What the caller described when the brief was offered for it: its first answer. */
  private offeredFor: string | undefined;
  private readonly intake: IntakeFlow | undefined;
  private readonly endCallMessage: string;
  private readonly endCallPhrases: readonly string[];
  /** Entry ids answered, in order, once each. */
  private readonly topics: string[] = [];
  private urgentValue = false;
  /** What callers asked that the assistant could not answer (for the clinic to add). */
  private readonly unanswered: string[] = [];
  private couldNotAnswer = false;
  /** The entry offered in "Do you mean …?", or the two in "… A, or B?", waiting for a reply. */
  private pending: KnowledgeEntry[] | undefined;
  private lastSaid: string;
  private turns = 0;

  constructor(config: DialogConfig) {
    this.kb = config.knowledge;
    this.emergency = config.emergency;
    this.lexicon = config.lexicon ?? Lexicon.default();
    this.briefIntent = config.briefIntent;
    this.intake = config.intake;
    this.endCallMessage = config.endCallMessage?.trim() || DEFAULT_END_CALL_MESSAGE;
    this.endCallPhrases = config.endCallPhrases ?? [];
    this.lastSaid = config.greeting ?? '';
  }

  /**
   * The reply to one caller utterance. `lastAssistant` is what the assistant said just
   * before it, when the caller's history has it (else the dialog's own last reply).
   */
  respond(utterance: string, lastAssistant?: string, options: RespondOptions = {}): Turn {
    this.turns += 1;
    const heard = lastAssistant ?? this.lastSaid;
    const pending = this.pending;
    this.pending = undefined;
    this.couldNotAnswer = false;
    const turn = this.decide(
      stripFillers(normalize(utterance)),
      heard,
      pending,
      options.doubtful === true,
      options.spelled === true,
    );
    this.lastSaid = turn.text;
    if (this.couldNotAnswer) this.unanswered.push(utterance.trim());
    return turn;
  }

  private decide(
    n: string,
    heard: string,
    pending: KnowledgeEntry[] | undefined,
    doubtful: boolean,
    spelled: boolean,
  ): Turn {
    const intake = this.intake;
    if (n === '') return say('Sorry, I did not catch that. Could you say it again?');

    // An emergency comes before everything, a goodbye in the same breath included.
    const urgent = this.urgentEntry(n, spelled);
    if (urgent) {
      this.urgentValue = true;
      this.noteTopic(urgent.id);
      if (intake?.active) {
        // Urgent first; the brief keeps what they said (it is usually the reason).
        const next =
          intake.stage === 'asking' && !isQuestion(n) ? intake.answer(n) : intake.prompt();
        return say(
          `${urgent.answer} If it is not an emergency, we can go on with your brief. ${next}`,
        );
      }
      return say(urgent.answer);
    }

    if (isGoodbye(n, this.endCallPhrases)) return { text: this.endCallMessage, endCall: true };

    if (intake?.active) {
      const intent = smallTalk(n);
      if (intent === 'repeat') return say(intake.prompt());
      if (intent === 'thanks') return say(`You are welcome. ${intake.prompt()}`);
      if (intent === 'greeting') return say(`Hello. ${intake.prompt()}`);
      if (isStopBrief(n)) {
        intake.pause();
        return say('Okay, I stopped the brief. We can go on with it later. How else can I help?');
      }
      // "No" to the brief's first question just after it started: the caller never asked
      // for it (their words were taken for a request: "leave my car" heard as "leave my
      // cough"). Whatever they said after the "no" is heard as a new question.
      if (intake.justStarted && !intake.asksYesOrNo && yesNo(n) === 'no') {
        intake.withdraw();
        const rest = n.replace(/^(?:no|nope|nah)(?: (?:no|sorry|thanks|thank you))*\s*/, '');
        const found = rest === '' ? undefined : this.kb.retrieve(rest);
        if (found?.kind === 'answer') {
          return say(`Sorry, I misunderstood. ${this.answer(found.match.entry).text}`);
        }
        return say('Sorry, I misunderstood. How else can I help?');
      }
      if (isQuestion(n)) {
        const found = this.kb.retrieve(n);
        if (found.kind === 'answer') {
          this.noteTopic(found.match.entry.id);
          return say(`${found.match.entry.answer} Now, back to your brief. ${intake.prompt()}`);
        }
        if (intent === 'capabilities') return say(`${this.capabilities()} ${intake.prompt()}`);
      }
      return say(intake.handle(n));
    }

    if (pending) {
      const turn = this.settle(n, pending);
      if (turn) return turn;
    }

    if (/\banything else\b/i.test(heard) && isNothingElse(n)) {
      return { text: this.endCallMessage, endCall: true };
    }

    const offeredFor = this.offeredFor;
    this.offeredFor = undefined;
    if (intake && yesNo(n) === 'yes' && offersBrief(heard) && intake.stage !== 'done') {
      // "Yes" to "Shall I note that …?": what they described is the brief's first answer.
      return say(intake.start(offeredFor));
    }
    if (intake && this.asksForBrief(n)) return say(intake.start());

    switch (smallTalk(n)) {
      case 'greeting':
        return say('Hello. How can I help you today?');
      case 'thanks':
        return say('You are welcome. Is there anything else I can help with?');
      case 'repeat':
        return say(heard === '' ? 'I have not said anything yet. How can I help?' : heard);
      case 'capabilities':
        return say(this.capabilities());
      default:
        break;
    }

    const retrieved = this.kb.retrieve(n);
    // Symptoms described in words no entry uses are offered the brief (below), not asked
    // about (or told) an entry they merely resemble.
    const resembles =
      ((retrieved.kind === 'clarify' && retrieved.byMeaning === true) ||
        (retrieved.kind === 'answer' && retrieved.together === true)) &&
      intake !== undefined &&
      intake.stage !== 'done' &&
      this.briefIntent.describesSymptoms(n);
    const found: Retrieval = resembles ? { kind: 'none' } : retrieved;
    switch (found.kind) {
      case 'answer':
      case 'clarify':
        // A reading the recogniser doubted is asked about, not answered.
        if (found.kind === 'answer' && !doubtful) return this.answer(found.match.entry);
        this.pending = [found.match.entry];
        return say(
          `Sorry, I am not sure I understood. Do you mean, ${topicOf(found.match.entry)}?`,
        );
      case 'choose': {
        const [a, b] = found.matches;
        this.pending = [a.entry, b.entry];
        return say(`Do you mean, ${topicOf(a.entry)}, or ${topicOf(b.entry)}?`);
      }
      case 'none':
        break;
    }
    if (intake && intake.stage !== 'done' && this.briefIntent.describesSymptoms(n)) {
      this.offeredFor = n;
      return say(
        'I am sorry to hear that. I cannot advise on it, but I can note it in a short brief for your visit. Shall I?',
      );
    }
    const answer = yesNo(n);
    if (answer === 'yes') return say('Okay. What would you like to know?');
    if (answer === 'no') return say('Alright. Is there anything else I can help with?');
    this.couldNotAnswer = true;
    return say(`I am sorry, I do not know the answer to that. ${this.capabilities()}`);
  }

  /** See `LocalReplyEngine.choose`. */
  chooseReading(
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
    const urgent = ns.findIndex(
      (n, i) => (i === 0 || (!secondAsks && !agree)) && this.urgentEntry(n) !== undefined,
    );
    if (urgent >= 0) return { index: urgent };
    // A second recogniser hearing an emergency is enough: the two rarely make the same slip,
    // and a caller in trouble that one of them misheard must not be missed. It spells what
    // it hears, so a word of a phrase that sounds a phone off counts ("too many of my
    // bill" for "pills") when the phrase's other words are heard as they are.
    const second = all.findIndex((n, i) => i >= independentFrom && this.urgentEntry(n, true));
    if (second >= 0) return { index: second, spelled: true };
    const first = ns[0] ?? '';
    const firstFound = this.kb.retrieve(first);
    const clear = firstFound.kind === 'answer';
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
    const awaiting = this.intake?.active === true || this.pending !== undefined;
    const other = all[independentFrom];
    const otherFound = other === undefined ? undefined : this.kb.retrieve(other);
    // Not when both recognisers heard the caller name a thing the knowledge base never
    // mentions ("a taxi to the station"): a question about that thing, which the second
    // made a clinic question of with a slip ("it taxi to the station cost").
    const otherClear =
      other !== undefined &&
      !awaiting &&
      otherFound?.kind === 'answer' &&
      !this.kb.analyse(first).namedThings.some((thing) => other.split(' ').includes(thing));
    const alarms = all
      .slice(0, independentFrom)
      .map((n, i) => ({ i, phrase: i >= answerable ? this.emergency.detect(n) : undefined }))
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
      isGoodbye(first, this.endCallPhrases) ||
      // A request for the brief starts it (not a later reading's question instead).
      this.asksForBrief(first) ||
      clear;
    // The first reading is a question answered outright, but the second recogniser heard
    // the caller name a thing the knowledge base never mentions, which the first did not
    // ("is the swimming pool open on sunday" heard as "business we need to open on
    // sunday"): the second's reading is taken, and asked about rather than told a fact. On
    // our own lines: 8 fewer off-topic lines told a fact, no paraphrase fewer answered.
    if (
      clear &&
      other !== undefined &&
      this.kb.analyse(other).namedThings.some((thing) => !first.split(' ').includes(thing))
    )
      return { index: independentFrom };
    // The second recogniser's reading asks for the brief in the caller's words, where the
    // first's best reading does not: taken even over a question that reading answers (a
    // request needs a verb of passing on and who it is for, which ordinary questions
    // rarely hold; on our own lines this started 17 more of 40 requests, and changed
    // nothing else).
    if (other !== undefined && this.asksForBrief(other) && !this.asksForBrief(first)) {
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
    if (otherClear) return { index: independentFrom };
    const hesitated = awaiting ? undefined : this.secondHesitation(all, independentFrom);
    if (hesitated !== undefined) return { index: hesitated };
    for (const [i, n] of ns.entries()) {
      if (i === 0) continue;
      const found = this.kb.retrieve(n);
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
      const leaning = this.kb.rank(first)[0];
      const agrees = leaning?.entry === found.match.entry && leaning.firm;
      // Nor when the first reading names a thing the knowledge base never mentions, which
      // this one lost ("where is the nearest train station", read by the domain model as
      // "… nearest pains patient"): its words are the entries', not the caller's.
      const lost = this.kb
        .analyse(first)
        .namedThings.some((thing) => !n.split(' ').includes(thing));
      return { index: i, doubtful: !agrees || lost };
    }
    return { index: 0 };
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
    if (best === undefined || this.kb.analyse(best).namedThings.length > 0) return undefined;
    let found: { index: number; entry: KnowledgeEntry } | undefined;
    for (let i = independentFrom + 1; i < all.length; i++) {
      const reading = all[i] ?? '';
      if (reading.split(' ').some((w) => !STOP_WORDS.has(w) && !this.lexicon.has(w))) continue;
      const retrieved = this.kb.retrieve(reading);
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
    const question = this.intake?.asking;
    if (question === undefined || all[0] === undefined) return 0;
    const forms = answerForms(question.ask, this.lexicon);
    // The first recogniser's N-best hypotheses are no candidates: they are its own guesses.
    const candidates = [0];
    for (let i = independentFrom; i < all.length; i++) candidates.push(i);
    let best = 0;
    let bestScore = -Infinity;
    for (const i of candidates) {
      const reading = all[i] ?? '';
      const others = candidates.filter((j) => j !== i).map((j) => all[j] ?? '');
      const score = likeAnswers(reading, forms) + ANSWER_AGREEMENT * agreement(reading, others);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * With "Do you mean, A, or B?" pending, the reading that says which of the two, when the
   * best reading does not: the second recogniser's first, then the first's N-best list.
   * Each word-for-word ("the first one"), not a word merely sounding like one: Moonshine
   * heard "the first one" where pocketsphinx's best reading was "there is one".
   */
  private pickingReading(all: readonly string[], independentFrom: number): number | undefined {
    if (this.pending?.length !== 2 || this.intake?.active === true) return undefined;
    const picks = (n: string, bySound: boolean) => {
      const pick = pickOfTwo(n, this.lexicon, { bySound });
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
   * Whether the first recogniser's best reading is, give or take a phone, one of the
   * second's readings ("i cannot make it on tuesday", "i can not make it on tuesday").
   */
  private recognisersAgree(all: readonly string[], independentFrom: number): boolean {
    const first = all[0];
    if (first === undefined || first === '') return false;
    const a = soundsOf(first, this.lexicon);
    return all
      .slice(independentFrom)
      .some((other) => editDistance(a, soundsOf(other, this.lexicon)) <= 1);
  }

  /** Whether the words ask for the brief (its trigger phrases, or in other words). */
  private asksForBrief(n: string): boolean {
    const intake = this.intake;
    return intake !== undefined && (intake.triggeredBy(n) || this.briefIntent.asksForBrief(n));
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
      if (this.kb.retrieve(reading).kind === 'answer') continue;
      const closest = closestInSound(reading, own, this.lexicon);
      const urgent = closest.filter((i) => this.urgentEntry(own[i] ?? '') !== undefined);
      if (urgent.length > 0 && urgent.length === closest.length) return urgent[0];
    }
    return undefined;
  }

  /**
   * The urgent entry the caller's words call for: one matched in the knowledge base, or, when
   * an emergency phrase is heard in any words, the assistant's urgent entry (the built-in
   * emergency answer when it has none).
   */
  private urgentEntry(n: string, soundSlips = false): KnowledgeEntry | undefined {
    const matched = this.kb.urgent(n);
    if (matched) return matched.entry;
    if (this.emergency.detect(n, { soundSlips }) === undefined) return undefined;
    return this.kb.urgentEntries()[0] ?? BUILT_IN_EMERGENCY;
  }

  /**
   * The caller's reply to "Do you mean …?" (one entry) or "Do you mean A, or B?" (two):
   * "yes", "the first one", "the second", "both", words that pick one of them, or "no".
   * Undefined when the reply is about something else: it is then taken as a new question.
   */
  private settle(n: string, pending: readonly KnowledgeEntry[]): Turn | undefined {
    const [first, second] = pending;
    if (!first) return undefined;
    const answer = yesNo(n);
    const ws = n.split(' ');
    if (second !== undefined) {
      const pick = pickOfTwo(n, this.lexicon);
      if (pick === 'both') {
        this.answer(second);
        return say(`${this.answer(first).text} ${second.answer}`);
      }
      if (pick === 'second') return this.answer(second);
      if (pick === 'first') return this.answer(first);
      const [best, next] = this.kb.rank(n, (e) => e === first || e === second);
      if (best && best.firmInQuestions && (next === undefined || best.score > next.score)) {
        return this.answer(best.entry);
      }
      if (answer === 'yes' || pick === 'unsure') {
        this.pending = [first, second];
        return say(`Sorry, which do you mean: ${shortTopicOf(first)}, or ${shortTopicOf(second)}?`);
      }
    } else {
      if (answer === 'yes' || (answer !== 'no' && ws.some((w) => FIRST_CHOICE.has(w)))) {
        return this.answer(first);
      }
    }
    if (answer === 'no' && this.kb.retrieve(n).kind === 'none') {
      return say('Sorry about that. Could you ask it in other words?');
    }
    return undefined;
  }

  private answer(entry: KnowledgeEntry): Turn {
    this.noteTopic(entry.id);
    if (entry.urgent === true) this.urgentValue = true;
    return say(entry.answer);
  }

  private noteTopic(id: string): void {
    if (!this.topics.includes(id)) this.topics.push(id);
  }

  /** "I can answer questions about hours, address, parking, insurance and more…" */
  private capabilities(): string {
    const topics = this.kb.topics().map(shortTopicOf);
    const brief = this.intake ? 'take a short brief before your visit' : '';
    if (topics.length === 0) {
      return brief === '' ? 'I can take a message for the team.' : `I can ${brief}.`;
    }
    const shown = topics.length > 4 ? [...topics.slice(0, 4), 'more'] : topics;
    const list = `${shown.slice(0, -1).join(', ')}${shown.length > 1 ? ' and ' : ''}${shown[shown.length - 1] ?? ''}`;
    return `I can answer questions about ${list}${brief === '' ? '' : `, or ${brief}`}.`;
  }

  /** What the call produced. */
  conclusion(): CallConclusion {
    const brief = this.intake?.brief() ?? {};
    const confirmed = this.intake?.confirmed ?? false;
    const isUrgent = (id: string) => (this.kb.get(id) ?? BUILT_IN_EMERGENCY).urgent === true;
    const asked = this.topics.filter((id) => !isUrgent(id));
    const urgentTopics = this.topics.filter(isUrgent);
    const labels = asked.map((id) => {
      const entry = this.kb.get(id);
      return entry ? shortTopicOf(entry) : id;
    });

    let first: string;
    if (this.turns === 0) first = 'The caller did not say anything';
    else if (labels.length === 0) first = 'The caller asked no knowledge-base questions';
    else first = `The caller asked about ${joinAnd(labels)}`;
    const answered = this.intake?.answered ?? 0;
    const total = this.intake?.questions.length ?? 0;
    let briefPart: string;
    if (confirmed) briefPart = 'a pre-visit brief was taken and confirmed';
    else if (answered > 0)
      briefPart = `a pre-visit brief was started but not confirmed (${answered} of ${total} answers)`;
    else briefPart = 'no brief was taken';
    let summary = `${first}, and ${briefPart}.`;
    if (this.urgentValue) {
      summary += ` Flagged urgent: the caller mentioned ${joinAnd(urgentTopics.length > 0 ? urgentTopics : ['an urgent concern'])}.`;
    }
    return {
      summary,
      structuredData: {
        brief,
        confirmed,
        topics: [...this.topics],
        urgent: this.urgentValue,
        unanswered: [...this.unanswered],
      },
    };
  }
}

function say(text: string): Turn {
  return { text, endCall: false };
}

/** Whether the assistant's last words offered the brief ("…or take a short brief…"). */
function offersBrief(heard: string): boolean {
  return /\bbrief\b/i.test(heard);
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}
