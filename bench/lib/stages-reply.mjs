// The local reply engine, timed per reply: from the caller's words to the whole reply's
// text, on a call's first turn and after many turns. An engine carries its dialog on from
// one turn of its call to the next, so a late turn costs about what a first one does; an
// engine that did not hear the call's earlier turns (another history, or one taking over a
// call half-way) replays them all first, which is timed apart.
import { quantile } from './stats.mjs';

const hrtimeUs = () => Number(process.hrtime.bigint()) / 1000;

/**
 * Times each line as a first turn, as the next turn of a call that already went through
 * every line (on the engine that answered them, made by `newEngine`), and as that turn
 * asked of an engine that must replay the call first, `repeats` times each; answers µs per
 * reply (p50, p95) for each.
 */
export async function timeReplies(newEngine, lines, repeats) {
  const firstTurn = [];
  const afterHistory = [];
  const replayingHistory = [];
  const fresh = newEngine();
  const longHistory = await conversation(fresh, lines);
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    for (const line of lines) {
      const said = { role: 'user', content: line.text };
      firstTurn.push(await timeReply(fresh, [said]));
      // The call's own engine: it answered every earlier turn.
      const engine = newEngine();
      const history = await conversation(engine, lines);
      afterHistory.push(await timeReply(engine, [...history, said]));
      // After `[said]` above, the history is not the one its dialog heard.
      replayingHistory.push(await timeReply(fresh, [...longHistory, said]));
    }
  }
  return {
    firstTurnUs: percentiles(firstTurn),
    afterHistoryUs: { ...percentiles(afterHistory), turnsBefore: lines.length },
    replayingHistoryUs: { ...percentiles(replayingHistory), turnsBefore: lines.length },
  };
}

/** A call that said every line, with the engine's own replies in between. */
async function conversation(engine, lines) {
  const history = [];
  for (const line of lines) {
    history.push({ role: 'user', content: line.text });
    history.push({ role: 'assistant', content: await replyText(engine, history) });
  }
  return history;
}

async function timeReply(engine, history) {
  const started = hrtimeUs();
  const text = await replyText(engine, history);
  const us = hrtimeUs() - started;
  if (text === '') throw new Error(`no reply to "${history.at(-1).content}"`);
  return us;
}

async function replyText(engine, history) {
  let text = '';
  for await (const event of engine.reply(history, new AbortController().signal)) {
    if (event.type === 'text') text += event.text;
  }
  return text;
}

function percentiles(values) {
  return { count: values.length, p50: quantile(values, 0.5), p95: quantile(values, 0.95) };
}
