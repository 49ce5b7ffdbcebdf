import { useState } from 'react';
import { ConsoleRoute } from '../features/console/ConsoleRoute';
import { AppProviders } from './AppProviders';
import type { AppProvidersProps } from './AppProviders';
import { isConsolePath } from './navigation';
import { VisitorApp } from './VisitorApp';

export interface AppProps extends Omit<AppProvidersProps, 'children'> {
  /** The address (path and query) when rendered on the server (entry-server.tsx). */
  ssrPath?: string;
}

/**
 * The whole app: providers around the visitor pages, or around the operator console when the
 * page was loaded at `/console/…`. The two are separate apps in one bundle: links between them
 * load a new page, so the visitor pages never carry the console's router.
 */
export function App({ ssrPath, ...props }: AppProps) {
  const [isConsole] = useState(() =>
    isConsolePath(ssrPath === undefined ? window.location.pathname : (ssrPath.split('?')[0] ?? '')),
  );
  return (
    <AppProviders {...props}>
      {isConsole ? (
        <ConsoleRoute />
      ) : (
        <VisitorApp {...(ssrPath === undefined ? {} : { ssrPath })} />
      )}
    </AppProviders>
  );
}
