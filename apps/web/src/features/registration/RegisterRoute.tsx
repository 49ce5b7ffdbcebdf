import { importWithRetry } from '../../lib/fresh-import';
import { LazyWithRetry } from '../../lib/LazyWithRetry';
import type { PageModule } from '../../lib/LazyWithRetry';

/** The registration form's own chunk: the code-entry page does not carry it. */
export const loadRegisterPage = (attempt: number): Promise<PageModule> =>
  importWithRetry(
    () => import('./RegisterPage').then((module) => ({ default: module.RegisterPage })),
    attempt,
  );

/** `/register`, loaded lazily. */
export function RegisterRoute() {
  return (
    <LazyWithRetry
      load={loadRegisterPage}
      loadingLabel="Loading the registration form…"
      errorTitle="The registration form could not be loaded"
      errorMessage="Part of this page did not arrive. Check your internet connection, then press Retry."
    />
  );
}
