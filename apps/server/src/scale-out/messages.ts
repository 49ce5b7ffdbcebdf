/** What a caller or an app is told when the split deployment cannot take a call. */

/** The shared store (Redis: worker registry, counters) does not answer. */
export const SHARED_STORE_MESSAGE =
  'Calls cannot start right now (the service is briefly unavailable). Please try again in a moment.';

/** ROLE=api, when no voice worker has room. */
export const ALL_WORKERS_BUSY =
  'All lines are busy (every voice worker is taking as many calls as it can). Please try again in a minute.';
