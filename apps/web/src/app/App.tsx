import { useState } from 'react';
// RouterProvider from 'react-router' rather than 'react-router/dom': the app does not use
// flushSync navigation, and under Vitest (Node) the two entry points load different builds of
// the package that would not share the router context.
import { RouterProvider, createBrowserRouter } from 'react-router';
import { AppProviders } from './AppProviders';
import type { AppProvidersProps } from './AppProviders';
import { routes } from './routes';

/** The whole app: providers around the browser router. */
export function App(props: Omit<AppProvidersProps, 'children'>) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders {...props}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
