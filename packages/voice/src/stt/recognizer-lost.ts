/**
 * The recogniser that was hearing an utterance is gone (its thread crashed): the words are
 * lost, and the call that was speaking them ends, saying why. Other calls go on.
 */
export class RecognizerLostError extends Error {
  /** The session ends the call with this error rather than carrying on without the words. */
  readonly endsCall = true;
  constructor(detail: string) {
    super(`The speech recogniser stopped while the caller was speaking: ${detail}`);
    this.name = 'RecognizerLostError';
  }
}

export function isRecognizerLost(error: unknown): error is RecognizerLostError {
  return error instanceof RecognizerLostError;
}
