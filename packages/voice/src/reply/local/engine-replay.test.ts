/**
 * The local engine carries its dialog on from one turn to the next instead of replaying
 * the whole call each time (`LocalReplyEngine.replay`). These tests hold it to what a
 * replay from the start gives: seeded conversations on the demo clinic, asked as a call
 * session asks (weigh the readings, reply, sometimes correct a turn to an emergency, a reply
 * cut off or cut short), answered by one engine that carries on and one made to replay
 * every time, turn by turn and in the call's conclusion.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demo, demoAssistant } from '../testing/conversation.js';
import type { ChatMessage, ReplyEngine } from '../types.js';
import { Dialog } from './dialog.js';
import { LocalReplyEngine } from './engine.js';

const CONVERSATIONS = 40;
const TURNS = 10;

/** A seeded generator (Park–Miller), so a failure names the words that caused it. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

const QUESTIONS = demo.knowledgeBase.flatMap((entry) => entry.questions);
/** What callers say besides the knowledge base's questions: the brief, answers, choices. */
const OTHER_LINES = [
  demo.intake.trigger?.[0] ?? 'take a brief',
  'a sore throat',
  'about three days',
  'no',
  'yes',
  'the first one',
  'change the second one',
  'i have chest pain',
  'what is the weather like',
  'hello',
];

interface Step {
  readings: string[];
  /** The reply is cut off after this many characters (a barge-in), if set. */
  cutAt?: number;
  /** The turn is corrected to an emergency heard late (the recheck). */
  corrected: boolean;
}

/** A conversation: each turn's readings (a line, and others a recogniser might have written). */
function conversation(next: () => number): Step[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const line = (): string => {
    const r = next();
    if (r < 0.45) return pick(QUESTIONS);
    if (r < 0.6) {
      // Half of one question and half of another: a line the engine is unsure of.
      const a = pick(QUESTIONS).split(' ');
      const b = pick(QUESTIONS).split(' ');
      return [...a.slice(0, Math.ceil(a.length / 2)), ...b.slice(Math.ceil(b.length / 2))].join(
        ' ',
      );
    }
    return pick(OTHER_LINES);
  };
  return Array.from({ length: TURNS }, () => ({
    readings: [line(), line(), line()],
    ...(next() < 0.15 ? { cutAt: Math.floor(next() * 30) } : {}),
    corrected: next() < 0.1,
  }));
}

async function replyText(engine: ReplyEngine, history: readonly ChatMessage[]): Promise<string> {
  let text = '';
  for await (const event of engine.reply(history, new AbortController().signal)) {
    if (event.type === 'text') text += event.text;
  }
  return text;
}

/**
 * Plays a conversation as the call session does, and gives every reply, the call's
 * conclusion, and what the engine chose. `beforeEach` runs before each question to it.
 */
async function play(engine: LocalReplyEngine, steps: readonly Step[], beforeEach: () => void) {
  const history: ChatMessage[] = [{ role: 'assistant', content: engine.greeting() ?? '' }];
  const said: string[] = [];
  for (const step of steps) {
    beforeEach();
    const chosen = engine.choose(step.readings, history, 2, 2);
    const before = [...history];
    history.push({ role: 'user', content: step.readings[chosen] ?? '' });
    beforeEach();
    const reply = await replyText(engine, history);
    said.push(`${chosen}: ${reply}`);
    history.push({ role: 'assistant', content: reply.slice(0, step.cutAt ?? reply.length) });
    if (step.corrected) {
      // Heard late as an emergency: the turn's words are corrected and answered again.
      beforeEach();
      const late = engine.missedEmergency(
        history.at(-2)?.content ?? '',
        ['i have chest pain'],
        before,
      );
      said.push(`late ${late}`);
      if (late >= 0) {
        history.splice(before.length, 2, { role: 'user', content: 'i have chest pain' });
        beforeEach();
        const again = await replyText(engine, history);
        said.push(again);
        history.push({ role: 'assistant', content: again });
      }
    }
  }
  beforeEach();
  return { said, conclusion: engine.conclude(history) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('LocalReplyEngine carrying its dialog on between turns', () => {
  it('answers and concludes every call as a replay of the whole call from the start does', async () => {
    const respond = vi.spyOn(Dialog.prototype, 'respond');
    const next = random(20261207);
    let replayed = 0;
    let turns = 0;
    let uncorrected = 0;
    for (let c = 0; c < CONVERSATIONS; c++) {
      const steps = conversation(next);
      const carriesOn = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
      respond.mockClear();
      const expected = await play(carriesOn, steps, () => undefined);
      // A call whose turns stand as heard: each turn is heard once, however often asked.
      if (!steps.some((step) => step.corrected)) {
        expect(respond).toHaveBeenCalledTimes(steps.length);
        uncorrected += 1;
      }

      // Asked about another call in between, the engine is left a dialog the next history
      // does not extend, so it replays that history from the start every time.
      const fresh = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
      const elsewhere: ChatMessage[] = [{ role: 'user', content: 'somewhere else entirely' }];
      respond.mockClear();
      const actual = await play(fresh, steps, () => fresh.conclude(elsewhere));
      replayed += respond.mock.calls.length;
      turns += steps.length;

      expect(actual, `conversation ${c}: ${JSON.stringify(steps)}`).toEqual(expected);
    }
    // Some calls had no turn corrected, and the one replaying really heard every earlier
    // turn again each time.
    expect(uncorrected).toBeGreaterThan(CONVERSATIONS / 4);
    expect(replayed).toBeGreaterThan(turns * 5);
  });

  it('replays the call from the start when an earlier turn is told differently', async () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
    const parking = await replies(engine, ['where can i park', 'yes']);
    const briefFirst = [demo.intake.trigger?.[0] ?? 'take a brief', 'yes'];
    const expected = await replies(newEngine(), briefFirst);
    expect(expected.at(-1)).not.toBe(parking.at(-1));
    const respond = vi.spyOn(Dialog.prototype, 'respond');
    expect(await replyText(engine, callOf(briefFirst, expected))).toBe(expected.at(-1));
    expect(respond).toHaveBeenCalledTimes(2);
  });

  it('replays the call from the start when the assistant is heard to have said other words before a turn', async () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
    const heard = await replies(engine, ['where can i park', 'yes']);
    // The same words, after an offer of the brief instead of the parking answer.
    const offer = 'Would you like to take a short brief for the doctor?';
    const history = callOf(['where can i park', 'yes'], [offer, heard[1] ?? '']);
    const expected = await replyText(newEngine(), history);
    expect(expected).not.toBe(heard[1]);
    expect(await replyText(engine, history)).toBe(expected);
  });

  it("replays the call from the start when a turn's reading is chosen again without doubt", async () => {
    const engine = new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
    const history: ChatMessage[] = [{ role: 'assistant', content: engine.greeting() ?? '' }];
    // A sure answer only in a later reading: chosen, but with doubt, so it is asked about.
    const readings = ['is the doctor nice', 'where can i park'];
    const chosen = engine.choose(readings, history, 2, 2);
    const turn: ChatMessage = { role: 'user', content: readings[chosen] ?? '' };
    const doubted = await replyText(engine, [...history, turn]);
    expect(doubted).toMatch(/^Sorry, I am not sure I understood\. Do you mean/);
    // The same words read again, as the only reading: no doubt, and the answer.
    expect(engine.choose([turn.content], history)).toBe(0);
    const sure = await replyText(engine, [...history, turn]);
    expect(sure).not.toBe(doubted);
    expect(sure).toBe(await replyText(newEngine(), [...history, turn]));
  });
});

function newEngine(): LocalReplyEngine {
  return new LocalReplyEngine({ assistant: demoAssistant, encoder: null });
}

/** The greeting, then each caller line and the assistant's reply to it (the last unanswered). */
function callOf(lines: readonly string[], answers: readonly string[]): ChatMessage[] {
  const history: ChatMessage[] = [{ role: 'assistant', content: newEngine().greeting() ?? '' }];
  lines.forEach((content, i) => {
    history.push({ role: 'user', content });
    if (i < lines.length - 1) history.push({ role: 'assistant', content: answers[i] ?? '' });
  });
  return history;
}

/** The engine's replies to a call of these lines, each line after the reply to the last. */
async function replies(engine: LocalReplyEngine, lines: readonly string[]): Promise<string[]> {
  const answers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    answers.push(await replyText(engine, callOf(lines.slice(0, i + 1), answers)));
  }
  return answers;
}
