import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import demo from '../../db/seed/demo-clinic.json' with { type: 'json' };
import devLines from '../../../../../bench/fixtures/dev-utterances.json' with { type: 'json' };
import { spokenLine } from '../../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  recordWhere,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';

// Real-time calls: each test holds a conversation of many seconds.
vi.setConfig({ testTimeout: 120_000 });

/**
 * A real spoken conversation with the demo clinic over the web-call socket: eSpeak lines
 * with a noise floor go in, in real time; the embedded engine recognises, answers and
 * speaks; the call record fills in as it goes.
 */
let server: TestServer;
let assistantId: string;
beforeAll(async () => {
  server = await startTestServer();
  assistantId = await demoAssistantId(server);
});
afterAll(async () => {
  await server.close();
});

const answerOf = (id: string) => demo.knowledgeBase.find((entry) => entry.id === id)!.answer;
/** How long after asking a question the caller hears the answer before talking over it. */
const HEAR_ANSWER_MS = 2000;
/** The first few words of an answer, enough to know it was that answer. */
const opening = (text: string) => text.split(' ').slice(0, 5).join(' ');

describe('a live conversation with the demo clinic (real server, real engines, real-time audio)', () => {
  it('greets the caller by name through the booth settings, with the hosted transcriber falling back', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    const format = client.find('audio-format');
    expect(format).toMatchObject({
      encoding: 'pcm_s16le',
      channels: 1,
      sampleRate: expect.any(Number),
    });
    expect(client.messages[0]!.message).toMatchObject({ type: 'audio-format' });
    const greeting = await client.heard('Hello Sam,');
    expect(greeting).not.toContain('{{');
    await untilAssistantStops(client, 0);
    expect(client.audioMs()).toBeGreaterThan(3000);

    const live = await recordWhere(
      server,
      call.id,
      (c) => (c.messages ?? []).length > 0,
      'the greeting in the record',
    );
    expect(live).toMatchObject({
      status: 'in-progress',
      startedAt: expect.any(String),
      providers: {
        transcriber: {
          requested: 'deepgram',
          used: 'pocketsphinx',
          reason: expect.stringContaining('deepgram'),
        },
        model: { requested: 'local', used: 'local' },
        voice: { used: 'espeak' },
      },
    });
    expect((live.messages ?? [])[0]).toMatchObject({
      role: 'bot',
      message: expect.stringContaining('Hello Sam'),
    });
    await client.close();
    expect((await endedRecord(server, call.id)).endedReason).toBe('customer-ended-call');
  });

  it('answers every question of its knowledge base, and records each turn with its latency', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);
    const questions = devLines.lines.filter((line) =>
      demo.knowledgeBase.some((entry) => entry.id === line.expect),
    );
    expect(questions).toHaveLength(13);
    const wrong: string[] = [];
    let lastSpokenAt = 0;
    for (const [index, { text, expect: entry }] of questions.entries()) {
      // Talk over an answer only after hearing its start, as a caller does: a turn begun
      // within 1.5 s of the caller's last, over a reply just begun, is taken to carry that
      // turn on when its first word is one that does, and a slip of the recogniser's on the
      // first word ("to you offer …" for "do you offer …") would join two questions.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, lastSpokenAt + HEAR_ANSWER_MS - Date.now())),
      );
      const line = await spokenLine(text);
      const from = client.messages.length;
      await client.speak(line);
      lastSpokenAt = Date.now();
      // The reply: the assistant's first sentence after the caller's words were recognised.
      const reply = await client.waitFor(
        () => {
          const heardAt = client.messages.findIndex(
            ({ message }, i) =>
              i >= from &&
              typeof message !== 'string' &&
              message.type === 'transcript' &&
              message.role === 'user' &&
              message.transcriptType === 'final',
          );
          return heardAt < 0
            ? undefined
            : client.find('transcript', (m) => m.role === 'assistant', heardAt)?.transcript;
        },
        15_000,
        `a reply to "${text}"`,
      );
      if (!reply.toLowerCase().includes(opening(answerOf(entry)).toLowerCase()))
        wrong.push(`"${text}" got "${reply}"`);
      // Hear the last answer out; talk over the others to keep the test short.
      if (index === questions.length - 1) await untilAssistantStops(client, from);
    }
    // Joined, so that a failure's one-line summary names the lines and what they got.
    expect(wrong.join('; ')).toBe('');

    const lastAnswer = answerOf(questions[12]!.expect);
    const record = await recordWhere(
      server,
      call.id,
      (c) => (c.transcript ?? '').includes(lastAnswer),
      'the last answer in the record',
    );
    const roles = (record.messages ?? []).map((m) => m.role);
    expect(roles.filter((role) => role === 'user')).toHaveLength(13);
    expect(record.transcript).toContain('User: ');
    expect(record.transcript).toContain(`AI: ${lastAnswer}`);
    const turns =
      (record as { latency?: { turns: Record<string, number>[] } }).latency?.turns ?? [];
    expect(turns).toHaveLength(13);
    for (const turn of turns) {
      expect(turn).toMatchObject({
        endOfSpeechDelayMs: expect.any(Number),
        recognitionMs: expect.any(Number),
        firstTextMs: expect.any(Number),
        firstAudioMs: expect.any(Number),
        voiceToVoiceMs: expect.any(Number),
      });
      expect(turn.voiceToVoiceMs).toBeGreaterThanOrEqual(turn.endOfSpeechDelayMs!);
    }
    await client.close();
  });

  it('takes the pre-visit brief, reads it back and confirms it', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    const lines = [
      ['i would like to give a brief', demo.intake.questions[0]!.ask],
      ['i have a bad cough and a sore throat', demo.intake.questions[1]!.ask],
      ['about three days', demo.intake.questions[2]!.ask],
      ['no i am not taking anything', demo.intake.questions[3]!.ask],
      ['i am allergic to penicillin', 'Is that right'],
      ['yes', 'written a short brief for the doctor'],
    ] as const;
    await untilAssistantStops(client, 0);
    for (const [line, expected] of lines) {
      const from = client.messages.length;
      await client.speak(await spokenLine(line));
      await client.heard(expected, from, 20_000);
      await untilAssistantStops(client, from);
    }
    await client.close();
    const record = await endedRecord(server, call.id);
    const analysis = (
      record as {
        analysis?: { structuredData?: { brief?: Record<string, string>; confirmed?: boolean } };
      }
    ).analysis;
    expect(analysis?.structuredData?.confirmed).toBe(true);
    expect(Object.keys(analysis?.structuredData?.brief ?? {}).sort()).toEqual([
      'allergies',
      'duration',
      'medications',
      'reason',
    ]);
    expect(record.summary).toBeTruthy();
  });

  it('ends the call when the caller says goodbye: the end-call message, then hang-up', async () => {
    const { call, client } = await startCall(server, {
      assistantId,
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);
    const from = client.messages.length;
    await client.speak(await spokenLine('goodbye'));
    await client.heard(opening(demo.assistant.endCallMessage), from);
    await client.waitFor(() => client.find('hang', () => true, from), 20_000, 'hang');
    const status = await client.waitFor(() =>
      client.find('status-update', (m) => m.status === 'ended', from),
    );
    expect(status.endedReason).toBe('assistant-said-end-call-phrase');
    await client.whenClosed();
    const record = await endedRecord(server, call.id);
    expect(record).toMatchObject({
      endedReason: 'assistant-said-end-call-phrase',
      endedAt: expect.any(String),
    });
    expect(record.transcript).toContain(demo.assistant.endCallMessage);
  });
});
