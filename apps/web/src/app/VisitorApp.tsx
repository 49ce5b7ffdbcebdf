import { ErrorBoundary } from 'react-error-boundary';
import { Router, useLocation } from 'wouter';
import type { BaseLocationHook } from 'wouter';
import { AppLayout } from './AppLayout';
import { ErrorScreen } from './ErrorScreen';
import { useVisitorBrowserLocation } from './navigation';
import { VisitorRoutes } from './routes';

function VisitorScreens() {
  const [pathname] = useLocation();
  return (
    // A screen that fails while rendering is replaced, frame and all, until the address changes.
    <ErrorBoundary
      fallbackRender={({ error }) => <ErrorScreen error={error} />}
      resetKeys={[pathname]}
    >
      <AppLayout>
        <VisitorRoutes />
      </AppLayout>
    </ErrorBoundary>
  );
}

interface VisitorAppProps {
  /** Where the address lives: the browser's by default, wouter's `memoryLocation` in tests. */
  location?: BaseLocationHook;
  /** The address (path and query) when rendered on the server, which has no browser's. */
  ssrPath?: string;
}

/** The visitor pages (code entry, booth, registration) at the address `location` keeps. */
export function VisitorApp({ location = useVisitorBrowserLocation, ssrPath }: VisitorAppProps) {
  return (
    <Router hook={location} {...(ssrPath === undefined ? {} : { ssrPath })}>
      <VisitorScreens />
    </Router>
  );
}
