// The local reply engine, timed per reply: from the caller's words to the whole reply's
// text. It replays every caller turn of the history on each reply (it keeps no state), so
// the cost is measured both on a call's first turn and after many turns.
import { quantile } from './stats.mjs';

const hrtimeUs = () => Number(process.hrtime.bigint()) / 1000;

/**
 * Times each line as a first turn and as the last of a call that already went through
 * every line, `repeats` times each; answers µs per reply (p50, p95) for both.
 */
export async function timeReplies(engine, lines, repeats) {
  const longHistory = await conversation(engine, lines);
  const firstTurn = [];
  const afterHistory = [];
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    for (const line of lines) {
      const said = { role: 'user', content: line.text };
      firstTurn.push(await timeReply(engine, [said]));
      afterHistory.push(await timeReply(engine, [...longHistory, said]));
    }
  }
  return {
    firstTurnUs: percentiles(firstTurn),
    afterHistoryUs: { ...percentiles(afterHistory), turnsBefore: lines.length },
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
