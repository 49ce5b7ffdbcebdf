import { useRouteError } from 'react-router';
import { ErrorScreen } from './ErrorScreen';

/** The console's `errorElement`: React Router hands over what a screen threw. */
export function RouteErrorPage() {
  return <ErrorScreen error={useRouteError()} />;
}
