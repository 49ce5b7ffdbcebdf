import { importWithRetry } from '../../lib/fresh-import';
import { LazyWithRetry } from '../../lib/LazyWithRetry';
import type { PageModule } from '../../lib/LazyWithRetry';

/** The booth's own chunk (`assets/CallBoothPage-<hash>.js`), fetched on first visit. */
export const loadCallBoothPage = (attempt: number): Promise<PageModule> =>
  importWithRetry(() => import('./CallBoothPage'), attempt);

export const BOOTH_LOADING_LABEL = 'Loading the call booth…';
export const BOOTH_LOAD_ERROR_TITLE = 'The call booth could not be loaded';
export const BOOTH_LOAD_ERROR_MESSAGE =
  'Part of this page did not arrive. Check your internet connection, then press Retry.';

/** `/call-section`: the call booth, loaded lazily. */
export function CallBoothRoute() {
  return (
    <LazyWithRetry
      load={loadCallBoothPage}
      loadingLabel={BOOTH_LOADING_LABEL}
      errorTitle={BOOTH_LOAD_ERROR_TITLE}
      errorMessage={BOOTH_LOAD_ERROR_MESSAGE}
    />
  );
}
