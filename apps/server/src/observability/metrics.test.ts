import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TurnMetrics } from '@talkbooth/voice';
import demo from '../db/seed/demo-clinic.json' with { type: 'json' };
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  startCall,
  untilAssistantStops,
} from '../test-support/calls.js';
import { spokenLine } from '../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

// One real-time call with a spoken question.
vi.setConfig({ testTimeout: 90_000 });

const TOKEN = 'metrics-token-for-the-test-0123';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await server.close();
});

const scrape = async () => {
  const response = await server.get('/metrics', { authorization: `Bearer ${TOKEN}` });
  expect(response.status).toBe(200);
  return response.text;
};
/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics (Prometheus, real server)', () => {
  it('answers only with the token: 401 with a message otherwise', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN]) {
      const response = await server.get(
        '/metrics',
        authorization === undefined ? {} : { authorization },
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(response.json).toMatchObject({
        message: 'Send the metrics token as Authorization: Bearer <token>.',
      });
    }
    const response = await server.get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    // The process's own figures come with the call figures.
    expect(sample(response.text, 'talkbooth_call_capacity')).toBe(12);
    expect(response.text).toMatch(/^talkbooth_process_cpu_user_seconds_total \d/m);
    expect(response.text).toMatch(/^talkbooth_nodejs_eventloop_lag_p99_seconds \d/m);
  });

  it('counts a real call: started, live while it runs, its turn timed, ended by reason', async () => {
    const before = await scrape();
    const startedBefore = sample(before, 'talkbooth_calls_started_total') ?? 0;
    const turnsBefore = sample(before, 'talkbooth_voice_to_voice_seconds_count') ?? 0;

    const { call, client } = await startCall(server, {
      assistantId: await demoAssistantId(server),
      assistantOverrides: BOOTH_OVERRIDES,
    });
    await client.heard('Hello Sam,');
    await untilAssistantStops(client, 0);
    const during = await scrape();
    expect(sample(during, 'talkbooth_calls_started_total')).toBe(startedBefore + 1);
    expect(sample(during, 'talkbooth_live_calls')).toBe(1);
    expect(sample(during, 'talkbooth_call_places_taken')).toBe(1);

    const from = client.messages.length;
    const hours = demo.knowledgeBase.find((entry) => entry.id === 'hours')!;
    await client.speak(await spokenLine(hours.questions[0]!));
    await untilAssistantStops(client, from);
    await client.close();
    const ended = await endedRecord(server, call.id);
    // The record keeps each turn's latency as the session measured it.
    const turns = (ended as { latency?: { turns?: TurnMetrics[] } }).latency?.turns ?? [];
    expect(turns.length).toBeGreaterThanOrEqual(1);

    const after = await scrape();
    expect(sample(after, 'talkbooth_live_calls')).toBe(0);
    expect(sample(after, 'talkbooth_calls_ended_total{reason="customer-ended-call"}')).toBe(1);
    expect(sample(after, 'talkbooth_voice_to_voice_seconds_count')).toBe(
      turnsBefore + turns.length,
    );
    // The histogram's sum is the record's own latencies, in seconds.
    const recorded = turns.reduce((sum, turn) => sum + (turn.voiceToVoiceMs ?? 0), 0) / 1000;
    expect(sample(after, 'talkbooth_voice_to_voice_seconds_sum')).toBeCloseTo(recorded, 3);
    const models = turns.map((turn) => turn.recognitionModel);
    for (const model of new Set(models)) {
      expect(sample(after, `talkbooth_turns_total{recognition_model="${model}"}`)).toBe(
        models.filter((m) => m === model).length,
      );
    }
  });
});
