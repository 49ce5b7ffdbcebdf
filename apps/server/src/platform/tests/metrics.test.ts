import type { Metrics } from '@talkbooth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics, daysOf, type MetricsInput } from '../metrics.js';
import { failure } from '../../test-support/platform-failure.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const at = (iso: string) => new Date(iso);

describe('daysOf: the UTC days a range touches', () => {
  it('lists every day from the start day up to the day of the last instant', () => {
    expect(daysOf(at('2024-05-01T10:00:00Z'), at('2024-05-03T00:00:01Z'))).toEqual([
      '2024-05-01',
      '2024-05-02',
      '2024-05-03',
    ]);
  });

  it('leaves out the end day when the range ends exactly at midnight', () => {
    expect(daysOf(at('2024-05-01T00:00:00Z'), at('2024-05-04T00:00:00Z'))).toEqual([
      '2024-05-01',
      '2024-05-02',
      '2024-05-03',
    ]);
    expect(daysOf(at('2024-05-01T00:00:00.000Z'), at('2024-05-01T00:00:00.001Z'))).toEqual([
      '2024-05-01',
    ]);
  });

  it('gives one day for a range within a day', () => {
    expect(daysOf(at('2024-05-01T10:00:00Z'), at('2024-05-01T11:00:00Z'))).toEqual(['2024-05-01']);
  });

  it('crosses leap days, month and year ends', () => {
    expect(daysOf(at('2024-02-28T12:00:00Z'), at('2024-03-01T12:00:00Z'))).toEqual([
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(daysOf(at('2023-12-31T23:00:00Z'), at('2024-01-01T01:00:00Z'))).toEqual([
      '2023-12-31',
      '2024-01-01',
    ]);
  });

  it('counts in UTC whatever offset the range was given in', () => {
    // 2024-05-01T02:00+02:00 is midnight UTC; 2024-05-03T01:00+02:00 is 2024-05-02T23:00Z.
    expect(daysOf(at('2024-05-01T02:00:00+02:00'), at('2024-05-03T01:00:00+02:00'))).toEqual([
      '2024-05-01',
      '2024-05-02',
    ]);
  });
});

/**
 * Three UTC days, 2024-05-01 to 2024-05-03, worked out by hand:
 *
 * 05-01: 3 calls: 3 min (0.10), 4.5 min (0.20), one that never started (no cost)
 *        minutes 7.5, average 7.5 / 2 = 3.75, bill 0.1 + 0.2 = 0.3
 * 05-02: nothing
 * 05-03: 3 calls: 10 min running past midnight (1.25), 20 s = 1/3 min (0.07),
 *        one still in progress (0.005)
 *        minutes 10.333333, average 10.333333 / 2 = 5.166667, bill 1.325
 * total: 6 calls, 17.833333 min, average 17.833333 / 4 = 4.458333, bill 1.625
 */
const RANGE = { rangeStart: '2024-05-01T00:00:00.000Z', rangeEnd: '2024-05-04T00:00:00.000Z' };
type CallTimes = MetricsInput['calls'][number];
const CALLS: CallTimes[] = [
  {
    createdAt: '2024-05-01T09:00:00.000Z',
    startedAt: '2024-05-01T09:00:00.000Z',
    endedAt: '2024-05-01T09:03:00.000Z',
    cost: 0.1,
  },
  {
    createdAt: '2024-05-01T10:00:00.000Z',
    startedAt: '2024-05-01T10:00:30.000Z',
    endedAt: '2024-05-01T10:05:00.000Z',
    cost: 0.2,
  },
  { createdAt: '2024-05-01T11:00:00.000Z' },
  {
    createdAt: '2024-05-03T23:58:00.000Z',
    startedAt: '2024-05-03T23:58:00.000Z',
    endedAt: '2024-05-04T00:08:00.000Z',
    cost: 1.25,
  },
  {
    createdAt: '2024-05-03T12:00:00.000Z',
    startedAt: '2024-05-03T12:00:00.000Z',
    endedAt: '2024-05-03T12:00:20.000Z',
    cost: 0.07,
  },
  { createdAt: '2024-05-03T15:00:00.000Z', startedAt: '2024-05-03T15:00:00.000Z', cost: 0.005 },
];
const expectedFor = (orgId: string, callActive: number): Metrics => ({
  orgId,
  rangeStart: RANGE.rangeStart,
  rangeEnd: RANGE.rangeEnd,
  bill: 1.625,
  billWithinBillingLimit: true,
  billDailyBreakdown: { '2024-05-01': 0.3, '2024-05-02': 0, '2024-05-03': 1.325 },
  callActive,
  callActiveWithinConcurrencyLimit: true,
  callMinutes: 17.833333,
  callMinutesDailyBreakdown: { '2024-05-01': 7.5, '2024-05-02': 0, '2024-05-03': 10.333333 },
  callMinutesAverage: 4.458333,
  callMinutesAverageDailyBreakdown: { '2024-05-01': 3.75, '2024-05-02': 0, '2024-05-03': 5.166667 },
  callCount: 6,
  callCountDailyBreakdown: { '2024-05-01': 3, '2024-05-02': 0, '2024-05-03': 3 },
});

describe('computeMetrics: hand-computed numbers', () => {
  const input = (calls: CallTimes[], callActive = 0): MetricsInput => ({
    orgId: 'org-1',
    rangeStart: at(RANGE.rangeStart),
    rangeEnd: at(RANGE.rangeEnd),
    calls,
    callActive,
  });

  it('adds up counts, minutes, averages and bills per day and in total', () => {
    expect(computeMetrics(input(CALLS, 2))).toEqual(expectedFor('org-1', 2));
  });

  it('gives the same numbers whatever order the calls come in', () => {
    expect(computeMetrics(input([...CALLS].reverse(), 2))).toEqual(expectedFor('org-1', 2));
  });

  it('rounds away binary-fraction noise in bills (0.1 + 0.2 is 0.3)', () => {
    const metrics = computeMetrics(
      input([
        { createdAt: '2024-05-02T01:00:00.000Z', cost: 0.1 },
        { createdAt: '2024-05-02T02:00:00.000Z', cost: 0.2 },
        { createdAt: '2024-05-02T03:00:00.000Z', cost: 0.7 },
        { createdAt: '2024-05-02T04:00:00.000Z', cost: 0.0125 },
      ]),
    );
    expect(metrics.bill).toBe(1.0125);
    expect(metrics.billDailyBreakdown).toEqual({
      '2024-05-01': 0,
      '2024-05-02': 1.0125,
      '2024-05-03': 0,
    });
    expect(metrics.callCount).toBe(4);
    // None of them ran: no minutes, and an average of 0 rather than 0 / 0.
    expect(metrics.callMinutes).toBe(0);
    expect(metrics.callMinutesAverage).toBe(0);
  });

  it('averages over the calls that have minutes only', () => {
    const metrics = computeMetrics(
      input([
        {
          createdAt: '2024-05-01T09:00:00.000Z',
          startedAt: '2024-05-01T09:00:00.000Z',
          endedAt: '2024-05-01T09:06:00.000Z',
        },
        // Never started, and started but not ended: counted, yet not in the average.
        { createdAt: '2024-05-01T10:00:00.000Z' },
        { createdAt: '2024-05-01T11:00:00.000Z', startedAt: '2024-05-01T11:00:00.000Z' },
        { createdAt: '2024-05-01T12:00:00.000Z', endedAt: '2024-05-01T12:05:00.000Z' },
      ]),
    );
    expect(metrics.callCount).toBe(4);
    expect(metrics.callMinutes).toBe(6);
    expect(metrics.callMinutesAverage).toBe(6);
    expect(metrics.callMinutesAverageDailyBreakdown['2024-05-01']).toBe(6);
  });

  it('answers every day of the range with zeroes when there are no calls', () => {
    const metrics = computeMetrics(input([]));
    const zeroes = { '2024-05-01': 0, '2024-05-02': 0, '2024-05-03': 0 };
    expect(metrics).toMatchObject({
      bill: 0,
      callActive: 0,
      callMinutes: 0,
      callMinutesAverage: 0,
      callCount: 0,
      billDailyBreakdown: zeroes,
      callMinutesDailyBreakdown: zeroes,
      callMinutesAverageDailyBreakdown: zeroes,
      callCountDailyBreakdown: zeroes,
    });
  });

  it('counts a call on the day it was created, not the day it ended', () => {
    const metrics = computeMetrics(
      input([
        {
          createdAt: '2024-05-01T23:50:00.000Z',
          startedAt: '2024-05-01T23:55:00.000Z',
          endedAt: '2024-05-02T00:07:00.000Z',
          cost: 0.5,
        },
      ]),
    );
    expect(metrics.callCountDailyBreakdown).toEqual({
      '2024-05-01': 1,
      '2024-05-02': 0,
      '2024-05-03': 0,
    });
    expect(metrics.callMinutesDailyBreakdown['2024-05-01']).toBe(12);
    expect(metrics.billDailyBreakdown['2024-05-01']).toBe(0.5);
  });

  it('leaves out a call created at the very end of a range ending at midnight', () => {
    const metrics = computeMetrics(
      input([
        {
          createdAt: '2024-05-04T00:00:00.000Z',
          startedAt: '2024-05-04T00:00:00.000Z',
          endedAt: '2024-05-04T00:30:00.000Z',
          cost: 9,
        },
      ]),
    );
    expect(Object.keys(metrics.callCountDailyBreakdown)).toEqual([
      '2024-05-01',
      '2024-05-02',
      '2024-05-03',
    ]);
    expect(metrics).toMatchObject({ callCount: 0, callMinutes: 0, bill: 0 });
  });

  it('keeps sub-minute precision to six decimals', () => {
    const metrics = computeMetrics(
      input([
        {
          createdAt: '2024-05-02T08:00:00.000Z',
          startedAt: '2024-05-02T08:00:00.000Z',
          endedAt: '2024-05-02T08:00:01.000Z',
        },
      ]),
    );
    // One second is 1/60 minute = 0.0166666…
    expect(metrics.callMinutes).toBe(0.016667);
    expect(metrics.callMinutesAverage).toBe(0.016667);
  });
});

// ---------------------------------------------------------------------------------------

let server: TestServer;
let orgId: string;
const OTHER_ORG = 'org-metrics-other';

interface CallRow {
  orgId?: string;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  cost?: number;
  status?: string;
}

let rowNumber = 0;
async function insertCall(row: CallRow): Promise<void> {
  rowNumber += 1;
  const status =
    row.status ??
    (row.endedAt === undefined && row.startedAt !== undefined ? 'in-progress' : 'ended');
  const live = ['ringing', 'in-progress', 'forwarding'].includes(status);
  await server.db.run(
    `insert into calls (id, org_id, assistant_id, type, status, ended_reason, started_at, ended_at,
       cost, data, secrets, lease_owner, lease_expires_at, created_at, updated_at)
     values (?, ?, null, 'webCall', ?, null, ?, ?, ?, '{}', null, ?, ?, ?, ?)`,
    `metrics-call-${rowNumber}`,
    row.orgId ?? orgId,
    status,
    row.startedAt ?? null,
    row.endedAt ?? null,
    row.cost ?? null,
    // A live call is served by some process, which holds its lease (see call-leases.ts).
    live ? 'metrics-test' : null,
    live ? '9999-12-31T00:00:00.000Z' : null,
    row.createdAt,
    row.createdAt,
  );
}

beforeAll(async () => {
  // The sweep for abandoned calls would end the year-old queued call: not within this test.
  server = await startTestServer({ env: { CALL_LEASE_SECONDS: '300' } });
  const orgs = await server.db.all<{ id: string }>('select id from orgs');
  expect(orgs).toHaveLength(1);
  orgId = orgs[0]!.id;
  expect(await server.db.count('calls')).toBe(0);
  const now = new Date().toISOString();
  await server.db.run(
    'insert into orgs (id, name, created_at, updated_at) values (?, ?, ?, ?)',
    OTHER_ORG,
    'Other clinic',
    now,
    now,
  );

  // The six calls of the hand-computed example: CALLS[5] has no end, so it is in progress.
  for (const call of CALLS) await insertCall(call);
  // Just outside the range, on both sides: they would change every number.
  await insertCall({
    createdAt: '2024-04-30T23:59:59.999Z',
    startedAt: '2024-04-30T23:59:59.999Z',
    endedAt: '2024-05-01T00:30:00.000Z',
    cost: 5,
  });
  await insertCall({
    createdAt: '2024-05-04T00:00:00.000Z',
    startedAt: '2024-05-04T00:00:00.000Z',
    cost: 5,
    status: 'in-progress',
  });
  // Going on now, or not yet, elsewhere in time.
  await insertCall({ createdAt: '2024-06-01T08:00:00.000Z', status: 'ringing' });
  await insertCall({ createdAt: '2024-06-01T09:00:00.000Z', status: 'forwarding' });
  await insertCall({ createdAt: '2024-06-01T10:00:00.000Z', status: 'queued' });
  // Another organisation's calls, inside the range and in progress: none of them count here.
  for (const call of CALLS) await insertCall({ ...call, orgId: OTHER_ORG, cost: 100 });
  await insertCall({
    orgId: OTHER_ORG,
    createdAt: '2024-05-02T12:00:00.000Z',
    status: 'in-progress',
  });
}, 30_000);

afterAll(async () => {
  await server.close();
});

/** In progress, ringing or forwarding, in this org, whenever created: CALLS[5], the call at
 * the range end, the ringing and the forwarding call. */
const ACTIVE = 4;

describe('GET /metrics through the typed client (rows with known durations in the calls table)', () => {
  it('answers the hand-computed numbers for the range, day by day', async () => {
    const metrics = await server.client().metrics.get(RANGE);
    expect(metrics).toEqual(expectedFor(orgId, ACTIVE));
  });

  it('takes the range in any offset and answers it in UTC', async () => {
    const metrics = await server.client().metrics.get({
      rangeStart: '2024-05-01T02:00:00+02:00',
      rangeEnd: '2024-05-03T20:00:00-04:00',
    });
    expect(metrics).toEqual(expectedFor(orgId, ACTIVE));
  });

  it('counts a call created exactly at rangeStart, and not one created exactly at rangeEnd', async () => {
    const metrics = await server.client().metrics.get({
      rangeStart: '2024-05-01T09:00:00.000Z',
      rangeEnd: '2024-05-01T10:00:00.000Z',
    });
    expect(metrics).toMatchObject({
      callCount: 1,
      callMinutes: 3,
      callMinutesAverage: 3,
      bill: 0.1,
      callCountDailyBreakdown: { '2024-05-01': 1 },
    });
  });

  it('includes the calls just outside the range once the range covers them', async () => {
    const metrics = await server.client().metrics.get({
      rangeStart: '2024-04-30T00:00:00.000Z',
      rangeEnd: '2024-05-05T00:00:00.000Z',
    });
    // The 04-30 call ran from 23:59:59.999 to 00:30: 30 min and 1 ms.
    expect(metrics).toMatchObject({
      callCount: 8,
      bill: 11.625,
      callMinutes: 47.83335,
      callMinutesAverage: 9.56667,
      callCountDailyBreakdown: {
        '2024-04-30': 1,
        '2024-05-01': 3,
        '2024-05-02': 0,
        '2024-05-03': 3,
        '2024-05-04': 1,
      },
      callMinutesDailyBreakdown: {
        '2024-04-30': 30.000017,
        '2024-05-01': 7.5,
        '2024-05-02': 0,
        '2024-05-03': 10.333333,
        '2024-05-04': 0,
      },
    });
  });

  it('counts active calls whatever the range, and only this organisation’s', async () => {
    const metrics = await server.client().metrics.get({
      rangeStart: '2020-01-01T00:00:00Z',
      rangeEnd: '2020-01-02T00:00:00Z',
    });
    expect(metrics).toMatchObject({ callCount: 0, callActive: ACTIVE, bill: 0 });
  });

  it('answers the last 30 days by default', async () => {
    const before = Date.now();
    const now = new Date();
    await insertCall({
      createdAt: new Date(now.getTime() - 60 * MINUTE).toISOString(),
      startedAt: new Date(now.getTime() - 60 * MINUTE).toISOString(),
      endedAt: new Date(now.getTime() - 58 * MINUTE).toISOString(),
      cost: 0.5,
    });
    await insertCall({ createdAt: new Date(now.getTime() - 31 * DAY).toISOString(), cost: 7 });
    const metrics = await server.client().metrics.get();
    const after = Date.now();

    const end = Date.parse(metrics.rangeEnd);
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end).toBeLessThanOrEqual(after);
    expect(end - Date.parse(metrics.rangeStart)).toBe(30 * DAY);
    const days = Object.keys(metrics.callCountDailyBreakdown);
    expect(days[0]).toBe(metrics.rangeStart.slice(0, 10));
    expect(days.at(-1)).toBe(metrics.rangeEnd.slice(0, 10));
    expect(days).toHaveLength(31);
    expect(metrics).toMatchObject({ callCount: 1, callMinutes: 2, bill: 0.5 });
  });

  it('takes the 30 days before rangeEnd when only rangeEnd is given', async () => {
    const metrics = await server.client().metrics.get({ rangeEnd: RANGE.rangeEnd });
    expect(metrics.rangeStart).toBe('2024-04-04T00:00:00.000Z');
    expect(Object.keys(metrics.callCountDailyBreakdown)).toHaveLength(30);
    // The six calls of the example and the one at 2024-04-30T23:59:59.999Z.
    expect(metrics.callCount).toBe(7);
  });

  it('accepts a range of exactly 366 days, with every day in the breakdown', async () => {
    const metrics = await server.client().metrics.get({
      rangeStart: '2023-06-01T00:00:00.000Z',
      rangeEnd: '2024-06-01T00:00:00.000Z',
    });
    expect(Object.keys(metrics.callCountDailyBreakdown)).toHaveLength(366);
    expect(metrics.callCount).toBe(8);
  });

  it('answers 400 when rangeStart is not before rangeEnd', async () => {
    for (const range of [
      { rangeStart: '2024-05-04T00:00:00Z', rangeEnd: '2024-05-01T00:00:00Z' },
      { rangeStart: '2024-05-01T00:00:00Z', rangeEnd: '2024-05-01T00:00:00Z' },
    ]) {
      const error = await failure(server.client().metrics.get(range));
      expect(error.status).toBe(400);
      expect(error.apiError).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'rangeStart must be before rangeEnd.',
        fields: { rangeStart: 'Must be before rangeEnd.' },
      });
    }
  });

  it('answers 400 for a range over 366 days', async () => {
    const error = await failure(
      server.client().metrics.get({
        rangeStart: '2023-06-01T00:00:00.000Z',
        rangeEnd: '2024-06-01T00:00:00.001Z',
      }),
    );
    expect(error.status).toBe(400);
    expect(error.apiError).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'A metrics range can span at most 366 days.',
      fields: { rangeStart: 'Must be at most 366 days before rangeEnd.' },
    });
    // Only rangeStart, far back: the range runs to now, and is too long too.
    const open = await failure(server.client().metrics.get({ rangeStart: '2020-01-01T00:00:00Z' }));
    expect(open.status).toBe(400);
  });

  it.each([
    ['rangeStart', 'yesterday'],
    ['rangeStart', '2024-05-01'],
    ['rangeEnd', '2024-13-01T00:00:00Z'],
    ['rangeEnd', '1714521600000'],
    ['rangeStart', ''],
  ])('answers 400 naming %s for the non-date %j', async (field, value) => {
    const error = await failure(server.client().metrics.get({ [field]: value }));
    expect(error.status).toBe(400);
    expect(error.apiError).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      fields: { [field]: 'Use an ISO-8601 date and time, like 2024-05-01T12:00:00Z.' },
    });
  });
});
