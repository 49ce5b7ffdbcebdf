/** Close codes of the call socket (4000–4999 are the application's). */
export const CLOSE = {
  normal: 1000,
  badData: 4400,
  invalidToken: 4401,
  alreadyUsed: 4409,
  expired: 4410,
  busy: 4429,
  failed: 4500,
  /** The server is shutting down, or a shared store or the call's worker is gone. */
  unavailable: 4503,
} as const;
