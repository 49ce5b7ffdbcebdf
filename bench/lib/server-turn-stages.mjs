// Where a turn's wait goes, as the server measured it: the latency each call record carries
// (`latency.turns`, written by the call as it goes), read back through the platform API.
import { summarise } from './stats.mjs';

/** The stages of TurnMetrics (packages/voice/src/session/types.ts), in the order they happen. */
const STAGES = [
  ['endOfSpeechDelayMs', 'silence waited before the turn was over'],
  ['recognitionMs', 'final recognition, after the turn was over'],
  ['firstTextMs', 'first reply text, from the end of the turn'],
  ['firstAudioMs', 'first reply audio sent, from the end of the turn'],
  ['voiceToVoiceMs', "caller's wait: the silence plus the first audio"],
];

/** The stages' names and what each measures, for the report. */
export const SERVER_STAGES = STAGES;

/**
 * The parts of `recognitionMs` the server measures where they exist (TurnMetrics): the
 * turn's end behind the recognition thread's earlier work, that thread's own finishing,
 * and the second recogniser's reading waited for after the first's result.
 */
export const RECOGNITION_PARTS = [
  ['recognitionQueuedMs', "the time queued behind the recognition thread's earlier work"],
  ['recognitionDecodingMs', "the recognition thread's own finishing of the turn"],
  ['secondOpinionWaitMs', "the second recogniser's reading, waited for after the first's"],
];

/**
 * The turns of every call created after `sinceIso`: per-stage p50/p95, and how many turns
 * each recognition model heard. Waits for the calls' queued record writes (they end with
 * the call) by reading until every call has ended, for at most `timeoutMs`.
 */
export async function serverTurnStages(platform, sinceIso, { timeoutMs = 10_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let calls;
  for (;;) {
    calls = await platform('GET', `/call?limit=1000&createdAtGt=${encodeURIComponent(sinceIso)}`);
    if (calls.every((call) => call.status === 'ended') || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const turns = calls.flatMap((call) => call.latency?.turns ?? []);
  const byModel = {};
  for (const turn of turns)
    byModel[turn.recognitionModel] = (byModel[turn.recognitionModel] ?? 0) + 1;
  // A call's first turn has no earlier one to learn from (its channel, whether the caller
  // needs the general model), and a step's calls all start at once.
  const recognitionOf = (picked) =>
    summarise(
      picked.map((turn) => turn.recognitionMs),
      0,
    );
  return {
    calls: calls.length,
    turns: turns.length,
    byModel,
    recognitionMsFirstTurn: recognitionOf(turns.filter((turn) => turn.turn === 1)),
    recognitionMsLaterTurns: recognitionOf(turns.filter((turn) => turn.turn > 1)),
    ...Object.fromEntries(
      [...STAGES, ...RECOGNITION_PARTS].map(([stage]) => [
        stage,
        summarise(
          turns.map((turn) => turn[stage]).filter((ms) => ms !== undefined),
          0,
        ),
      ]),
    ),
  };
}
