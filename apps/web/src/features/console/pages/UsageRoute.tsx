import { importWithRetry } from '../../../lib/fresh-import';
import { LazyWithRetry } from '../../../lib/LazyWithRetry';
import type { PageModule } from '../../../lib/LazyWithRetry';

/** The usage page and its chart library: their own chunk, loaded only on this page. */
export const loadUsagePage = (attempt: number): Promise<PageModule> =>
  importWithRetry(() => import('./UsagePage'), attempt);

/** `/console/usage`. */
export function UsageRoute() {
  return (
    <LazyWithRetry
      load={loadUsagePage}
      loadingLabel="Loading the usage charts…"
      errorTitle="The usage page could not be loaded"
      errorMessage="Part of this page did not arrive. Check your internet connection, then press Retry."
    />
  );
}
