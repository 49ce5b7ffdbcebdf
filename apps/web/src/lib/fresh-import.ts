/**
 * Some browsers remember a failed dynamic import and fail again at once when the same module
 * is imported a second time. On a retry, when the plain import fails again, this imports the
 * same chunk from a fresh address (with a `retry` query parameter), which the browser has not
 * seen fail. Only same-origin chunks are retried this way.
 */

/** The chunk address in a failed-import error message (Chromium and Firefox name it). */
export function moduleUrlFromError(error: unknown, origin: string): string | null {
  if (!(error instanceof Error)) return null;
  const match = /(https?:\/\/[^\s'"]+?\.m?js)\b/.exec(error.message);
  if (!match?.[1]) return null;
  try {
    const url = new URL(match[1]);
    return url.origin === origin ? url.href : null;
  } catch {
    return null;
  }
}

/** Imports with `importer`; on a retry (`attempt` > 0) falls back to a fresh chunk address. */
export async function importWithRetry<T>(importer: () => Promise<T>, attempt: number): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    if (attempt === 0) throw error;
    const url = moduleUrlFromError(error, window.location.origin);
    if (url == null) throw error;
    const fresh = new URL(url);
    fresh.searchParams.set('retry', String(attempt));
    return (await import(/* @vite-ignore */ fresh.href)) as T;
  }
}
