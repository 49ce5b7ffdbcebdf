import type { BaseLocationHook } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { NavigateOptions } from '../app/navigation';

/** How the current entry was reached, as React Router names it. */
export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

export interface MemoryRouter {
  /** The `location` of `<VisitorApp>`. */
  hook: BaseLocationHook;
  /** Goes to a path, as the app's own navigation would. */
  navigate(to: string, options?: NavigateOptions): void;
  /** The current address and how it was reached. */
  readonly state: {
    location: { pathname: string; search: string; hash: string };
    historyAction: HistoryAction;
  };
}

/**
 * wouter's `memoryLocation` starting at `path` (as after a page load), which also tells the
 * tests how the address was last reached: pushed or replaced.
 */
export function memoryRouter(path = '/'): MemoryRouter {
  const memory = memoryLocation({ path, record: true });
  let historyAction: HistoryAction = 'POP';
  const navigate = (to: string, options: NavigateOptions = {}) => {
    historyAction = options.replace ? 'REPLACE' : 'PUSH';
    memory.navigate(to, options);
  };
  const hook: BaseLocationHook = () => [memory.hook()[0], navigate];
  hook.searchHook = memory.searchHook;
  return {
    hook,
    navigate,
    get state() {
      const url = new URL(memory.history?.at(-1) ?? path, 'http://talkbooth.invalid');
      return {
        location: { pathname: url.pathname, search: url.search, hash: url.hash },
        historyAction,
      };
    },
  };
}
