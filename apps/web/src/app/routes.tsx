import { useEffect } from 'react';
import { Route, Switch } from 'wouter';
import { CallBoothRoute } from '../features/call-booth/CallBoothRoute';
import { CodeEntryRoute } from '../features/code-entry/CodeEntryRoute';
import { RegisterRoute } from '../features/registration/RegisterRoute';
import { CONSOLE_PATH } from './navigation';
import { NotFoundPage } from './NotFoundPage';

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Back or Forward onto a console address: the console is another app, so its document is
 * loaded (links to it already are full page loads, see navigateInBrowser).
 */
function LoadConsole() {
  useEffect(() => {
    window.location.reload();
  }, []);
  return null;
}

/**
 * The visitor pages by path (wouter matches any case, with or without a trailing slash). A
 * single segment that is no fixed path is a UniCode (`/RIV-2024`), so `/login` is no code;
 * deeper paths lead nowhere.
 */
export function VisitorRoutes() {
  return (
    <Switch>
      <Route path="/">
        <CodeEntryRoute pathCode={null} />
      </Route>
      <Route path="/login">
        <CodeEntryRoute pathCode={null} />
      </Route>
      <Route path="/medibrief">
        <CodeEntryRoute pathCode={null} />
      </Route>
      <Route path="/call-section">
        <CallBoothRoute />
      </Route>
      <Route path="/register">
        <RegisterRoute />
      </Route>
      <Route path={CONSOLE_PATH}>
        <LoadConsole />
      </Route>
      {/* wouter gives the segment decoded by decodeURI, which leaves `%2F` and the like. */}
      <Route path="/:unicode">
        {({ unicode }) => <CodeEntryRoute pathCode={decodeSegment(unicode)} />}
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
