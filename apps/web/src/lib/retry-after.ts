/**
 * Reads a Retry-After header: either a number of seconds or an HTTP date.
 * Returns whole seconds (at least 0), or null when the header is missing or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header == null) return null;
  const value = header.trim();
  if (value === '') return null;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** "30 seconds", "1 minute", "15 minutes", "2 hours": how long to wait, for a person. */
export function describeWait(seconds: number): string {
  if (seconds < 60) {
    const s = Math.max(1, Math.ceil(seconds));
    return `${s} ${s === 1 ? 'second' : 'seconds'}`;
  }
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

/** Whether a message already tells the reader when to try again. */
export function mentionsWaitTime(message: string): boolean {
  return (
    /\d\s*(s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?)\b/i.test(message) ||
    /\b(a|an|one) (second|minute|hour)\b/i.test(message) ||
    /\b(tomorrow|later today)\b/i.test(message)
  );
}

/** Adds "Try again in 15 minutes." to a rate-limit message that does not say when. */
export function withWaitTime(message: string, retryAfterSeconds: number | null): string {
  if (retryAfterSeconds == null || mentionsWaitTime(message)) return message;
  const base = message.trim();
  const separator = base === '' || /[.!?]$/.test(base) ? ' ' : '. ';
  return `${base}${separator}Try again in ${describeWait(retryAfterSeconds)}.`.trim();
}
