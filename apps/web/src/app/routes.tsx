import type { RouteObject } from 'react-router';
import { CallBoothRoute } from '../features/call-booth/CallBoothRoute';
import { CodeEntryRoute } from '../features/code-entry/CodeEntryRoute';
import { ConsoleRoute } from '../features/console/ConsoleRoute';
import { RegisterRoute } from '../features/registration/RegisterRoute';
import { AppLayout } from './AppLayout';
import { NotFoundPage } from './NotFoundPage';
import { RouteErrorPage } from './RouteErrorPage';

/** Every screen of the app. `/:unicode` ranks below the fixed paths, so `/login` is no code. */
export const routes: RouteObject[] = [
  // The operator console has its own frame (and chunk).
  { path: '/console/*', element: <ConsoleRoute />, errorElement: <RouteErrorPage /> },
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <CodeEntryRoute /> },
      { path: '/login', element: <CodeEntryRoute /> },
      { path: '/medibrief', element: <CodeEntryRoute /> },
      { path: '/call-section', element: <CallBoothRoute /> },
      { path: '/register', element: <RegisterRoute /> },
      { path: '/:unicode', element: <CodeEntryRoute /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
