import { z } from 'zod';
import { isoDateTime } from './common.js';

/** `GET /metrics`: the range defaults to the 30 days up to now. */
export const metricsQuerySchema = z.object({
  rangeStart: isoDateTime.optional(),
  rangeEnd: isoDateTime.optional(),
});
export type MetricsQuery = z.input<typeof metricsQuerySchema>;

/** Per UTC day (`YYYY-MM-DD`), every day of the range present. */
const daily = z.record(z.string(), z.number());

export const metricsSchema = z.object({
  orgId: z.string(),
  rangeStart: z.string(),
  rangeEnd: z.string(),
  bill: z.number(),
  billWithinBillingLimit: z.boolean(),
  billDailyBreakdown: daily,
  callActive: z.number(),
  callActiveWithinConcurrencyLimit: z.boolean(),
  callMinutes: z.number(),
  callMinutesDailyBreakdown: daily,
  callMinutesAverage: z.number(),
  callMinutesAverageDailyBreakdown: daily,
  callCount: z.number(),
  callCountDailyBreakdown: daily,
});
export type Metrics = z.infer<typeof metricsSchema>;
