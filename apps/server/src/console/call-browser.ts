import type {
  CallBrowseFilters,
  CallFeedback,
  CallPage,
  CallSummary,
  Usage,
  UsageDay,
} from '@talkbooth/protocol';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { CallTable, Database } from '../db/schema.js';

/** The parts of a stored call's JSON the console reads. */
interface CallData {
  analysis?: { structuredData?: Record<string, unknown> };
  latency?: { turns?: { voiceToVoiceMs?: number | null }[] };
  messages?: { role?: string }[];
}

const dataOf = (row: Pick<CallTable, 'data'>): CallData => JSON.parse(row.data) as CallData;

const structured = (data: CallData) => data.analysis?.structuredData ?? {};
const isUrgent = (data: CallData) => structured(data).urgent === true;
const briefOf = (data: CallData): Record<string, unknown> => {
  const brief = structured(data).brief;
  return typeof brief === 'object' && brief !== null ? (brief as Record<string, unknown>) : {};
};
const hasBrief = (data: CallData) =>
  Object.values(briefOf(data)).some((answer) => answer !== null && answer !== '');
const unansweredOf = (data: CallData): string[] => {
  const list = structured(data).unanswered;
  return Array.isArray(list) ? list.filter((q): q is string => typeof q === 'string') : [];
};

const seconds = (start: string | null, end: string | null): number | null =>
  start === null || end === null
    ? null
    : Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000));

/**
 * More rows than this are not read for a filter that needs each call's JSON (urgent):
 * a clinic's calls over any sensible date range, with room.
 */
const MAX_SCANNED = 5000;

type CallQuery = SelectQueryBuilder<Database, 'calls', object>;

/** The organisation's calls, newest first, one page, with what the list shows. */
export async function browseCalls(
  db: Kysely<Database>,
  orgId: string,
  query: CallBrowseFilters,
): Promise<CallPage> {
  let base: CallQuery = db.selectFrom('calls').where('calls.org_id', '=', orgId);
  if (query.assistantId !== undefined)
    base = base.where('calls.assistant_id', '=', query.assistantId);
  if (query.status !== undefined) base = base.where('calls.status', '=', query.status);
  if (query.from !== undefined) base = base.where('calls.created_at', '>=', query.from);
  if (query.to !== undefined) base = base.where('calls.created_at', '<', query.to);

  const rows = base
    .leftJoin('assistants', 'assistants.id', 'calls.assistant_id')
    .select([
      'calls.id',
      'calls.created_at',
      'calls.started_at',
      'calls.ended_at',
      'calls.assistant_id',
      'calls.status',
      'calls.ended_reason',
      'calls.data',
      'assistants.name as assistant_name',
    ])
    .orderBy('calls.created_at', 'desc')
    .orderBy('calls.id');
  const offset = (query.page - 1) * query.pageSize;
  let page;
  let total: number;
  if (query.urgent === undefined) {
    const counted = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    total = Number(counted.n);
    page = await rows.limit(query.pageSize).offset(offset).execute();
  } else {
    // The flag lives in the call's JSON: filter the range's calls here.
    const wanted = query.urgent === 'true';
    const all = (await rows.limit(MAX_SCANNED).execute()).filter(
      (row) => isUrgent(dataOf(row)) === wanted,
    );
    total = all.length;
    page = all.slice(offset, offset + query.pageSize);
  }

  const ratings = await latestRatings(
    db,
    page.map((row) => row.id),
  );
  const items: CallSummary[] = page.map((row) => {
    const data = dataOf(row);
    return {
      id: row.id,
      createdAt: row.created_at,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      durationSeconds: seconds(row.started_at, row.ended_at),
      assistantId: row.assistant_id,
      assistantName: row.assistant_name,
      status: row.status,
      endedReason: row.ended_reason,
      rating: ratings.get(row.id) ?? null,
      urgent: isUrgent(data),
      hasBrief: hasBrief(data),
    };
  });
  return { items, total, page: query.page, pageSize: query.pageSize };
}

/** Each call's latest visitor rating. */
async function latestRatings(
  db: Kysely<Database>,
  callIds: string[],
): Promise<Map<string, number>> {
  if (callIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('feedback')
    .select(['call_id', 'rating', 'created_at'])
    .where('call_id', 'in', callIds)
    .where('rating', 'is not', null)
    .orderBy('created_at')
    .execute();
  // Later rows overwrite earlier ones: the latest rating wins.
  return new Map(rows.map((row) => [row.call_id!, row.rating!]));
}

/** The feedback left for one of the organisation's calls; null when it has no such call. */
export async function feedbackForCall(
  db: Kysely<Database>,
  orgId: string,
  callId: string,
): Promise<CallFeedback[] | null> {
  const call = await db
    .selectFrom('calls')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', '=', callId)
    .executeTakeFirst();
  if (call === undefined) return null;
  const rows = await db
    .selectFrom('feedback')
    .select(['rating', 'message', 'created_at'])
    .where('call_id', '=', callId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    rating: row.rating,
    message: row.message,
    createdAt: row.created_at,
  }));
}

/** One brief per call that has one, in the range, oldest first (for CSV export). */
export interface BriefRow {
  callId: string;
  createdAt: string;
  assistantName: string | null;
  urgent: boolean;
  confirmed: boolean;
  answers: Record<string, string | null>;
}

export async function briefsBetween(
  db: Kysely<Database>,
  orgId: string,
  from: string,
  to: string,
): Promise<BriefRow[]> {
  const rows = await db
    .selectFrom('calls')
    .leftJoin('assistants', 'assistants.id', 'calls.assistant_id')
    .select(['calls.id', 'calls.created_at', 'calls.data', 'assistants.name as assistant_name'])
    .where('calls.org_id', '=', orgId)
    .where('calls.created_at', '>=', from)
    .where('calls.created_at', '<', to)
    .orderBy('calls.created_at')
    .execute();
  return rows.flatMap((row) => {
    const data = dataOf(row);
    if (!hasBrief(data)) return [];
    const answers = Object.fromEntries(
      Object.entries(briefOf(data)).map(([id, answer]) => [
        id,
        answer === null ? null : String(answer),
      ]),
    );
    return [
      {
        callId: row.id,
        createdAt: row.created_at,
        assistantName: row.assistant_name,
        urgent: isUrgent(data),
        confirmed: structured(data).confirmed === true,
        answers,
      },
    ];
  });
}

/** The value at fraction `q` (0–1) of sorted numbers, nearest rank. */
function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** Calls, minutes, latency and unanswered questions per day (UTC) of the range. */
export async function usageBetween(
  db: Kysely<Database>,
  orgId: string,
  from: Date,
  to: Date,
): Promise<Usage> {
  const rows = await db
    .selectFrom('calls')
    .select(['id', 'created_at', 'started_at', 'ended_at', 'data'])
    .where('org_id', '=', orgId)
    .where('created_at', '>=', from.toISOString())
    .where('created_at', '<', to.toISOString())
    .orderBy('created_at', 'desc')
    .execute();
  const days = new Map<string, { day: UsageDay; latencies: number[] }>();
  for (let at = startOfDay(from); at < to; at = new Date(at.getTime() + 86_400_000)) {
    const date = at.toISOString().slice(0, 10);
    days.set(date, {
      day: {
        date,
        calls: 0,
        minutes: 0,
        voiceToVoiceP50Ms: null,
        voiceToVoiceP95Ms: null,
        questions: 0,
        unanswered: 0,
      },
      latencies: [],
    });
  }
  const unansweredQuestions: Usage['unansweredQuestions'] = [];
  for (const row of rows) {
    const entry = days.get(row.created_at.slice(0, 10));
    if (entry === undefined) continue;
    const data = dataOf(row);
    entry.day.calls += 1;
    entry.day.minutes += (seconds(row.started_at, row.ended_at) ?? 0) / 60;
    for (const turn of data.latency?.turns ?? []) {
      if (typeof turn.voiceToVoiceMs === 'number') entry.latencies.push(turn.voiceToVoiceMs);
    }
    entry.day.questions += (data.messages ?? []).filter((m) => m.role === 'user').length;
    const unanswered = unansweredOf(data);
    entry.day.unanswered += unanswered.length;
    for (const question of unanswered) {
      unansweredQuestions.push({ question, callId: row.id, at: row.created_at });
    }
  }
  return {
    days: [...days.values()].map(({ day, latencies }) => {
      const sorted = latencies.sort((a, b) => a - b);
      return {
        ...day,
        minutes: Math.round(day.minutes * 100) / 100,
        voiceToVoiceP50Ms: quantile(sorted, 0.5),
        voiceToVoiceP95Ms: quantile(sorted, 0.95),
      };
    }),
    unansweredQuestions: unansweredQuestions.slice(0, 200),
  };
}

const startOfDay = (at: Date) => new Date(`${at.toISOString().slice(0, 10)}T00:00:00.000Z`);
