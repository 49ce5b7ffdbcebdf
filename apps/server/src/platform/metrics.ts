import type { Call, Metrics } from '@talkbooth/protocol';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface MetricsInput {
  orgId: string;
  rangeStart: Date;
  rangeEnd: Date;
  /** The calls created within the range. */
  calls: readonly Pick<Call, 'createdAt' | 'startedAt' | 'endedAt' | 'cost'>[];
  /** Calls going on right now. */
  callActive: number;
}

/** Rounds away binary-fraction noise (0.1 + 0.2) without losing meaningful precision. */
const tidy = (value: number) => Math.round(value * 1e6) / 1e6;

/** The UTC days (`YYYY-MM-DD`) the range touches, in order. */
export function daysOf(rangeStart: Date, rangeEnd: Date): string[] {
  const days: string[] = [];
  const last = new Date(rangeEnd.getTime() - 1).toISOString().slice(0, 10);
  for (let t = Date.parse(rangeStart.toISOString().slice(0, 10)); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) return days;
  }
}

/**
 * Usage over a range, from the stored calls, in the hosted platform's field names. A call
 * counts on the UTC day it was created; its minutes run from startedAt to endedAt (calls
 * that never started count, with no minutes). The average is over calls with minutes.
 * Self-hosted installs have no bill limit or concurrency plan, so both flags are true.
 */
export function computeMetrics(input: MetricsInput): Metrics {
  const days = daysOf(input.rangeStart, input.rangeEnd);
  const zeroes = () => Object.fromEntries(days.map((day) => [day, 0])) as Record<string, number>;
  const count = zeroes();
  const minutes = zeroes();
  const timed = zeroes();
  const bill = zeroes();

  for (const call of input.calls) {
    const day = call.createdAt.slice(0, 10);
    if (!(day in count)) continue;
    count[day] = (count[day] ?? 0) + 1;
    bill[day] = (bill[day] ?? 0) + (call.cost ?? 0);
    if (call.startedAt !== undefined && call.endedAt !== undefined) {
      const duration = Math.max(0, Date.parse(call.endedAt) - Date.parse(call.startedAt)) / 60_000;
      minutes[day] = (minutes[day] ?? 0) + duration;
      timed[day] = (timed[day] ?? 0) + 1;
    }
  }

  const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);
  const average = Object.fromEntries(
    days.map((day) => [day, timed[day] ? tidy((minutes[day] ?? 0) / (timed[day] ?? 1)) : 0]),
  );
  const totalTimed = sum(timed);
  const tidyAll = (values: Record<string, number>) =>
    Object.fromEntries(Object.entries(values).map(([day, value]) => [day, tidy(value)]));

  return {
    orgId: input.orgId,
    rangeStart: input.rangeStart.toISOString(),
    rangeEnd: input.rangeEnd.toISOString(),
    bill: tidy(sum(bill)),
    billWithinBillingLimit: true,
    billDailyBreakdown: tidyAll(bill),
    callActive: input.callActive,
    callActiveWithinConcurrencyLimit: true,
    callMinutes: tidy(sum(minutes)),
    callMinutesDailyBreakdown: tidyAll(minutes),
    callMinutesAverage: totalTimed === 0 ? 0 : tidy(sum(minutes) / totalTimed),
    callMinutesAverageDailyBreakdown: average,
    callCount: sum(count),
    callCountDailyBreakdown: count,
  };
}
