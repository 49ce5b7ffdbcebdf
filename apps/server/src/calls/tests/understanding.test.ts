import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import dental from '../../../../../bench/fixtures/understanding/dental-practice.json' with { type: 'json' };
import { spokenLine } from '../../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import {
  BOOTH_OVERRIDES,
  endedRecord,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';

// A real-time call of many seconds.
vi.setConfig({ testTimeout: 120_000 });

/**
 * A business the product has never seen: the dental practice, created through the platform
 * API as its developers would, then called over the web-call socket with eSpeak speech in
 * real time. The lines are our own, not its knowledge base's wording, nor the benchmark's
 * spoken lines (bench/fixtures/understanding), which only measure.
 */
let server: TestServer;
let assistantId: string;
beforeAll(async () => {
  server = await startTestServer();
  const created = await server.client().assistant.create({
    name: dental.assistant.name,
    firstMessage: dental.assistant.firstMessage,
    endCallMessage: dental.assistant.endCallMessage,
    endCallPhrases: dental.assistant.endCallPhrases,
    transcriber: { provider: 'pocketsphinx', model: 'en-us', language: 'en' },
    model: {
      provider: 'local',
      model: 'knowledge-base',
      knowledge: dental.knowledgeBase,
      intake: dental.intake,
    },
    voice: { provider: 'espeak', voiceId: 'en-us' },
  });
  assistantId = created.id;
});
afterAll(async () => {
  await server.close();
});

const answerOf = (id: string) => dental.knowledgeBase.find((entry) => entry.id === id)!.answer;
const opening = (text: string) => text.split(' ').slice(0, 5).join(' ');

/** Language models built in the server's model cache. */
const builtModels = () => {
  const dir = path.join(server.dataDir, 'models', 'language-models');
  return existsSync(dir)
    ? readdirSync(dir).filter((d) => existsSync(path.join(dir, d, 'domain.lm')))
    : [];
};

describe('a dental practice created through the platform API, called over the socket', () => {
  it('has its language model built in the background when it is saved, before any call', async () => {
    await vi.waitFor(() => expect(builtModels()).toHaveLength(1), { timeout: 15_000 });
  });

  it('answers a question in other words, an emergency, and an off-topic question honestly', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('you have reached Harbor Dental');
    await untilAssistantStops(client, 0);
    const turns = [
      ['which days are you open', opening(answerOf('hours'))],
      ['my face has swollen up on one side', opening(answerOf('emergency'))],
      ['can you recommend a good film', 'I am sorry, I do not know the answer to that.'],
    ] as const;
    for (const [line, expected] of turns) {
      const from = client.messages.length;
      // A caller lets the assistant finish before answering. (One who answers the moment
      // it stops speaks inside the echo guard's 400 ms tail; the session keeps what the
      // guard held back, see call-session.test.ts, but where the turn starts still varies
      // with timing, and so may what is heard.)
      await new Promise((resolve) => setTimeout(resolve, 600));
      await client.speak(await spokenLine(line));
      const reply = await client.heard(expected, from, 20_000);
      for (const entry of dental.knowledgeBase) {
        if (!expected.startsWith(opening(entry.answer))) expect(reply).not.toContain(entry.answer);
      }
      await untilAssistantStops(client, from);
    }
    await client.close();
    const record = await endedRecord(server, call.id);
    const data = (record as { analysis?: { structuredData?: Record<string, unknown> } }).analysis
      ?.structuredData;
    expect(data).toMatchObject({ urgent: true, topics: ['hours', 'emergency'] });
    // The off-topic question is what the clinic's usage page lists as unanswered.
    expect(data?.unanswered).toHaveLength(1);
  });
});
