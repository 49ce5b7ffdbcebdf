import type { Logger } from 'pino';
import type { TalkboothApp } from './app.js';

export type ShutdownOutcome = 'clean' | 'forced';

/**
 * A bounded shutdown: stop taking calls, end every live call (each caller told why, each
 * record written), then close the server and the database. Whatever hangs (a request whose
 * body never finishes, a stuck write), the answer comes within `graceMs`: `forced` means
 * the deadline passed first and the caller should exit anyway.
 */
export async function shutDown(
  built: Pick<TalkboothApp, 'app' | 'drain'>,
  options: { graceMs: number; logger: Logger },
): Promise<ShutdownOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<ShutdownOutcome>((resolve) => {
    timer = setTimeout(() => resolve('forced'), options.graceMs);
  });
  const closing = (async (): Promise<ShutdownOutcome> => {
    await built.drain();
    await built.app.close();
    return 'clean';
  })();
  try {
    const outcome = await Promise.race([closing, deadline]);
    if (outcome === 'forced') {
      options.logger.error(
        { graceSeconds: options.graceMs / 1000 },
        'shutdown did not finish within its grace time (SHUTDOWN_GRACE_SECONDS); exiting anyway',
      );
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}
