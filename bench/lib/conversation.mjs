// One spoken conversation with the demo clinic through the real socket: the knowledge-base
// dev lines, the pre-visit brief (trigger, the four answers, "yes"), then goodbye, in one
// voice. Every turn waits for the whole reply, as a patient caller would.
import { BOOTH_OVERRIDES } from './talk-server.mjs';
import { Caller } from './caller.mjs';
import { devLines, expectedReply, spoken } from './speech.mjs';

/** The script: what is said, and the reply it expects (null: judged by the brief, not per line). */
export function conversationScript({ quick }) {
  const knowledge = devLines.lines.filter(
    (line) => line.expect !== 'intake' && line.expect !== 'end-call',
  );
  const intake = devLines.lines.find((line) => line.expect === 'intake');
  const goodbye = devLines.lines.find((line) => line.expect === 'end-call');
  if (quick) return [knowledge[0], goodbye];
  return [
    ...knowledge,
    intake,
    ...devLines.intakeAnswers.map((text) => ({ text, expect: null })),
    { text: 'yes', expect: null },
    goodbye,
  ];
}

/**
 * Holds the conversation in `speaker`'s voice. Answers every turn (what was said and heard,
 * the reply, whether it was the expected one, client-side voice-to-voice) and the call record.
 */
export async function converse(server, speaker, script, log) {
  const call = await server.platform('POST', '/call/web', {
    assistantId: server.assistantId,
    assistantOverrides: BOOTH_OVERRIDES,
  });
  const caller = await Caller.connect(call.webCallUrl);
  const turns = [];
  try {
    await caller.untilAssistantStops(0);
    for (const line of script) {
      const result = await caller.turn(await spoken(line.text, speaker));
      const correct =
        line.expect === null
          ? null
          : result.reply.toLowerCase().includes(expectedReply(line.expect));
      turns.push({ said: line.text, expect: line.expect, ...result, correct });
    }
    // Goodbye ends the call from the server's side; if it was misheard, hang up ourselves.
    await Promise.race([caller.closed, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  } finally {
    await caller.hangUp();
  }
  const record = await server.platform('GET', `/call/${call.id}`);
  log(`${speaker.voice} @ ${speaker.rate} wpm: ${turns.length} turns, ended ${record.endedReason}`);
  return { speaker, turns, record };
}
