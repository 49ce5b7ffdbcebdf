import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { callPageSchema, usageSchema } from '@talkbooth/protocol';
import { ConsoleBrowser } from '../../test-support/console-browser.js';
import {
  BOOTH_OVERRIDES,
  demoAssistantId,
  endedRecord,
  startCall,
  untilAssistantStops,
} from '../../test-support/calls.js';
import { spokenLine } from '../../test-support/speech-audio.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let owner: ConsoleBrowser;
let spokenCallId: string;
let briefCallId: string;
const today = new Date();
const range = () => {
  const from = new Date(`${today.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const to = new Date(from.getTime() + 86_400_000);
  return `from=${from.toISOString()}&to=${to.toISOString()}`;
};

beforeAll(async () => {
  server = await startTestServer();
  owner = new ConsoleBrowser(server.baseUrl);
  await owner.join({ username: 'Owner', email: 'owner@example.com', password: 'owner password' });

  // A real call over the socket: the caller asks something the clinic never wrote down.
  const assistantId = await demoAssistantId(server);
  const { call, client } = await startCall(server, {
    assistantId,
    assistantOverrides: BOOTH_OVERRIDES,
  });
  await untilAssistantStops(client, 0);
  const from = client.messages.length;
  await new Promise((resolve) => setTimeout(resolve, 600));
  await client.speak(await spokenLine('can you recommend a good film'));
  await client.heard('I am sorry, I do not know the answer to that.', from, 20_000);
  await untilAssistantStops(client, from);
  await client.close();
  await endedRecord(server, call.id);
  spokenCallId = call.id;
  const feedback = await server.post('/api/feedback', {
    callId: call.id,
    rating: 4,
    message: 'Kind and quick',
  });
  expect(feedback.status).toBe(201);

  // A second call with a brief, as the record writer stores one (its words arranged here).
  briefCallId = (await server.client().call.createWeb({ assistantId })).id;
  const stored = await server.db.get<{ data: string }>(
    'select data from calls where id = ?',
    briefCallId,
  );
  const data = JSON.parse(stored!.data) as Record<string, unknown>;
  data.analysis = {
    summary: 'A brief was taken.',
    structuredData: {
      brief: {
        reason: '=HYPERLINK("http://evil.example")',
        duration: 'two weeks',
        allergies: null,
      },
      confirmed: true,
      urgent: true,
      unanswered: [],
    },
  };
  await server.db.run(
    "update calls set status = 'ended', ended_reason = 'customer-ended-call', data = ? where id = ?",
    JSON.stringify(data),
    briefCallId,
  );
}, 90_000);
afterAll(async () => {
  await server.close();
});

describe('the console’s calls, briefs and usage (real call, real server)', () => {
  it('lists calls newest first with duration, status, rating and the urgent flag', async () => {
    const page = callPageSchema.parse((await owner.get('/console/api/calls')).json);
    expect(page.total).toBe(2);
    expect(page.items.map((c) => c.id)).toEqual([briefCallId, spokenCallId]);
    const spoken = page.items[1]!;
    expect(spoken).toMatchObject({
      status: 'ended',
      endedReason: 'customer-ended-call',
      rating: 4,
      urgent: false,
      hasBrief: false,
      assistantName: expect.any(String),
    });
    expect(spoken.durationSeconds).toBeGreaterThan(1);
    expect(page.items[0]).toMatchObject({ urgent: true, hasBrief: true, rating: null });

    const urgentOnly = callPageSchema.parse(
      (await owner.get('/console/api/calls?urgent=true')).json,
    );
    expect(urgentOnly.items.map((c) => c.id)).toEqual([briefCallId]);
    const second = callPageSchema.parse(
      (await owner.get('/console/api/calls?pageSize=1&page=2')).json,
    );
    expect(second).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(second.items.map((c) => c.id)).toEqual([spokenCallId]);
    const bad = await owner.get('/console/api/calls?pageSize=1000');
    expect(bad.status).toBe(400);
  });

  it('shows a call’s feedback, and its transcript and brief through the platform API with the session', async () => {
    const feedback = await owner.get(`/console/api/calls/${spokenCallId}/feedback`);
    expect(feedback.json).toEqual([
      { rating: 4, message: 'Kind and quick', createdAt: expect.any(String) },
    ]);
    const call = await owner.platform().call.get(spokenCallId);
    expect(call.transcript).toMatch(/AI: .*\nUser: /s);
    expect((await owner.get('/console/api/calls/no-such-call/feedback')).status).toBe(404);
  });

  it('exports the range’s briefs as CSV, one column per question, with formulas defused', async () => {
    const answer = await owner.get(`/console/api/briefs.csv?${range()}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toMatch(
      /attachment; filename="briefs-.*\.csv"/,
    );
    const rows = parse(answer.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      'call id': briefCallId,
      urgent: 'yes',
      confirmed: 'yes',
      reason: `'=HYPERLINK("http://evil.example")`,
      duration: 'two weeks',
      allergies: '',
    });
    const backwards = await owner.get(
      `/console/api/briefs.csv?from=${today.toISOString()}&to=${new Date(0).toISOString()}`,
    );
    expect(backwards.status).toBe(400);
  });

  it('sums up the day: calls, minutes, latency and what callers asked that had no answer', async () => {
    const usage = usageSchema.parse((await owner.get(`/console/api/usage?${range()}`)).json);
    expect(usage.days).toHaveLength(1);
    const [day] = usage.days;
    expect(day!.calls).toBe(2);
    expect(day!.minutes).toBeGreaterThan(0);
    expect(day!.questions).toBeGreaterThanOrEqual(1);
    expect(day!.unanswered).toBe(1);
    expect(day!.voiceToVoiceP50Ms).toBeGreaterThan(0);
    expect(day!.voiceToVoiceP95Ms).toBeGreaterThanOrEqual(day!.voiceToVoiceP50Ms!);
    expect(usage.unansweredQuestions).toEqual([
      { question: expect.stringMatching(/\w/), callId: spokenCallId, at: expect.any(String) },
    ]);
  });

  it('shows another organisation none of it', async () => {
    const other = new ConsoleBrowser(server.baseUrl);
    await other.join({ username: 'Other', email: 'other@example.com', password: 'other password' });
    expect(callPageSchema.parse((await other.get('/console/api/calls')).json).total).toBe(0);
    expect((await other.get(`/console/api/calls/${spokenCallId}/feedback`)).status).toBe(404);
    const rows = parse((await other.get(`/console/api/briefs.csv?${range()}`)).text, {
      columns: true,
    });
    expect(rows).toEqual([]);
    const usage = usageSchema.parse((await other.get(`/console/api/usage?${range()}`)).json);
    expect(usage.days[0]!.calls).toBe(0);
  });
});
