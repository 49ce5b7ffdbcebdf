// Voice-to-voice latency, measured at the client: from the caller's last word (the last
// speech frame the client sent) to the first audio of the assistant's answer. Over the
// dev lines in every voice through the socket (Node callers), and through the booth in
// Chromium (fake microphone, first sound the page played).
import { boothTurns } from './lib/browser-call.mjs';
import { converse, conversationScript } from './lib/conversation.mjs';
import { table } from './lib/markdown.mjs';
import { disposeSpeech, devLines, VOICES } from './lib/speech.mjs';
import { summarise } from './lib/stats.mjs';
import { startTalkServer } from './lib/talk-server.mjs';
import { Caller } from './lib/caller.mjs';

export const title = 'Voice-to-voice latency';
export const about =
  'The wait a caller hears: from the last speech sample the client sent to the first sample of the ' +
  'answer it received (Node callers on the socket, every voice, every dev line) or played (the booth ' +
  'in Chromium; played sound is seen in 50 ms windows). Most of it is the end-of-speech wait: the ' +
  'server waits 500 ms of silence (250 ms when the words already make a complete turn) before it ' +
  'answers; the stage rows come from the call records. Reference, same run: the round trip of a ' +
  'WebSocket ping on the same connection, the floor of any reply.';

const STAGES = [
  'endOfSpeechDelayMs',
  'recognitionMs',
  'firstTextMs',
  'firstAudioMs',
  'voiceToVoiceMs',
];

export async function run({ quick, log }) {
  const server = await startTalkServer({ RATE_LIMIT_EXEMPT_IPS: '127.0.0.1' });
  try {
    const script = conversationScript({ quick });
    const speakers = quick ? VOICES.slice(0, 1) : VOICES;
    const conversations = [];
    for (const speaker of speakers)
      conversations.push(await converse(server, speaker, script, log));
    const pingMs = await pingRoundTrip(server, quick ? 10 : 50);

    const boothLines = devLines.lines
      .filter((l) => l.expect !== 'intake' && l.expect !== 'end-call')
      .map((l) => l.text);
    const booth = await boothTurns(
      server,
      quick ? boothLines.slice(0, 1) : boothLines.slice(0, 10),
      quick ? { greetingSeconds: 3, pauseSeconds: 9 } : {},
    );
    log(`booth: ${booth.length} turns`);

    const clientTurns = conversations
      .flatMap((c) => c.turns)
      .filter((t) => t.voiceToVoiceMs !== null);
    const serverTurns = conversations.flatMap((c) => c.record.latency?.turns ?? []);
    const client = summarise(clientTurns.map((t) => t.voiceToVoiceMs));
    const inBooth = summarise(booth.map((t) => t.voiceToVoiceMs).filter((v) => v !== null));
    const stages = Object.fromEntries(
      STAGES.map((stage) => [stage, summarise(serverTurns.map((t) => t[stage]))]),
    );
    const ping = summarise(pingMs, 2);

    const markdown = [
      table(
        ['measured at', 'turns', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'],
        [
          ['Node caller, socket', client.count, client.p50, client.p95, client.p99],
          ['Chromium booth, played', inBooth.count, inBooth.p50, inBooth.p95, inBooth.p99],
          ['reference: WebSocket ping round trip', ping.count, ping.p50, ping.p95, ping.p99],
        ],
      ),
      table(
        ['stage (server, per turn)', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'],
        STAGES.map((stage) => [stage, stages[stage].p50, stages[stage].p95, stages[stage].p99]),
      ),
      `Turns without an answer: ${conversations.flatMap((c) => c.turns).length - clientTurns.length} of ${conversations.flatMap((c) => c.turns).length} (socket), ` +
        `${booth.length - inBooth.count} of ${booth.length} (booth).`,
    ].join('\n\n');
    return {
      summary: { client, booth: inBooth, stages, pingRoundTrip: ping },
      markdown,
      details: {
        conversations: conversations.map((c) => ({
          speaker: c.speaker,
          turns: c.turns,
          latency: c.record.latency,
        })),
        booth,
        pingMs,
      },
    };
  } finally {
    await server.close();
    await disposeSpeech();
  }
}

/** Round trips of WebSocket pings on a live call's socket, in ms. */
async function pingRoundTrip(server, count) {
  const call = await server.platform('POST', '/call/web', { assistantId: server.assistantId });
  const caller = await Caller.connect(call.webCallUrl);
  const times = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      await new Promise((resolve) => {
        caller.socket.once('pong', resolve);
        caller.socket.ping();
      });
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await caller.hangUp();
  }
  return times;
}
