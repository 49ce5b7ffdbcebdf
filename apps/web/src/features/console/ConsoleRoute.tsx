import { importWithRetry } from '../../lib/fresh-import';
import { LazyWithRetry } from '../../lib/LazyWithRetry';
import type { PageModule } from '../../lib/LazyWithRetry';

/** The console's own chunks (with React Router): visitors' pages never load them. */
export const loadConsole = (attempt: number): Promise<PageModule> =>
  importWithRetry(() => import('./ConsoleRoot'), attempt);

/** `/console/*`: the operator console, loaded lazily. */
export function ConsoleRoute() {
  return (
    <LazyWithRetry
      load={loadConsole}
      loadingLabel="Loading the console…"
      errorTitle="The console could not be loaded"
      errorMessage="Part of this page did not arrive. Check your internet connection, then press Retry."
    />
  );
}
