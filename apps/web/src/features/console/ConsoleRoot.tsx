import { useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { RouteErrorPage } from '../../app/RouteErrorPage';
import ConsoleApp from './ConsoleApp';

/** An address outside the console reached in the console: the visitor pages are another app. */
function LeaveConsole() {
  useEffect(() => {
    window.location.replace(window.location.href);
  }, []);
  return null;
}

/**
 * `/console/*`, its own chunk with its own router: React Router's data router, which the
 * assistant editor needs to ask before leaving with unsaved changes. Only the console loads
 * React Router; the visitor pages navigate without it (app/navigation.tsx). The router lives as
 * long as the page: links to the visitor pages are full page loads.
 */
export default function ConsoleRoot() {
  const [router] = useState(() =>
    createBrowserRouter([
      { path: '/console/*', element: <ConsoleApp />, errorElement: <RouteErrorPage /> },
      { path: '*', element: <LeaveConsole /> },
    ]),
  );
  return <RouterProvider router={router} />;
}
