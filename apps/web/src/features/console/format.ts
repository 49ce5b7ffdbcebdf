/** Formatting for console pages: the browser's own locale and time zone. */

export const formatDateTime = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—';

/** "4 min 05 s", "12 s", or "—". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m === 0 ? `${s} s` : `${m} min ${String(s).padStart(2, '0')} s`;
}

/** A status or reason written for people: "customer-ended-call" → "Customer ended call". */
export function humanize(value: string | null | undefined): string {
  if (!value) return '—';
  const words = value.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The `<input type="date">` value (local day) of a date. */
export const dateInputValue = (at: Date): string => {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
};

/** The start of a local day given as YYYY-MM-DD, as an ISO instant; `plusDays` moves it. */
/** Whether a string is a YYYY-MM-DD day. */
export const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

export const dayStart = (day: string, plusDays = 0): string => {
  if (!isDay(day)) throw new RangeError(`not a day: ${day}`);
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + plusDays).toISOString();
};
