import { useCallback, useEffect, useState } from 'react';
import { failureMessage, isSignedOut } from './console-api';
import { useAccount } from './account-context';

export type Loaded<T> =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

/**
 * Loads a page's data when `key` changes, with a `reload` for after a change. A session
 * that ended sends the person back to sign in.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): [Loaded<T>, () => void] {
  const { signedOut } = useAccount();
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setLoaded({ state: 'ready', data }),
      (error: unknown) => {
        if (!current) return;
        if (isSignedOut(error)) signedOut();
        else setLoaded({ state: 'failed', message: failureMessage(error) });
      },
    );
    return () => {
      current = false;
    };
    // `load` is a new function each render; `key` says when what it loads changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  // A retry after a failure shows the spinner again; otherwise the data stays on screen
  // until the fresh answer replaces it.
  const reload = useCallback(() => {
    setLoaded((previous) => (previous.state === 'failed' ? { state: 'loading' } : previous));
    setRound((r) => r + 1);
  }, []);
  return [loaded, reload];
}
