/**
 * Where this process is in its life, for whoever must know: the readiness check, the
 * routes and the call socket refuse new calls once a shutdown has begun.
 */
export class ServerLifecycle {
  #draining = false;

  /** A shutdown has begun: new calls are refused and readiness fails. */
  get draining(): boolean {
    return this.#draining;
  }

  beginDraining(): void {
    this.#draining = true;
  }
}

/** The message for a call refused because the server is shutting down. */
export const DRAINING_MESSAGE =
  'This server is shutting down and takes no new calls. Please try again in a moment.';
