/** What an API answers while the database does not: the request can be tried again. */
export const DATABASE_UNAVAILABLE =
  'The database does not answer right now, so this request could not be served. Try again in a moment.';

/** Network failures node-postgres reports when it cannot reach or lost the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);

/**
 * True when a query failed because the database cannot be reached (refused, dropped, timed
 * out, shutting down), not because of the query: a 503 to retry, not a 500 to investigate.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01–57P03 (shutdown, cannot connect now).
    if (code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect/i.test(error.message);
}
