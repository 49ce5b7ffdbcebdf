/**
 * Navigation for the visitor pages (code entry, booth, registration) is wouter's: its hooks
 * (`useLocation`, `useSearchParams`), `Link` and `Switch`/`Route` (see routes.tsx). The visitor
 * pages do without React Router, whose smallest mode alone weighs about as much gzipped as
 * everything the code-entry page may add to React (issue 14). The operator console, which needs
 * React Router's data router (blocking navigation with unsaved changes), is a separate document:
 * links between the two are full page loads. This module only adds that rule to wouter's
 * browser location.
 */
import { navigate as navigateHistory, useBrowserLocation } from 'wouter/use-browser-location';

/** The operator console's paths: its own document, with React Router (see ConsoleRoute). */
export const CONSOLE_PATH = /^\/console(\/|$)/i;

export function isConsolePath(pathname: string): boolean {
  return CONSOLE_PATH.test(pathname);
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

/**
 * Goes to `to` in the page, through the History API (wouter's `navigate`), or, for the console
 * and other sites, as a new document.
 */
export function navigateInBrowser(
  to: string,
  { replace = false }: NavigateOptions = {},
  win: Window = window,
): void {
  const target = new URL(to, win.location.href);
  if (target.origin !== win.location.origin || isConsolePath(target.pathname)) {
    if (replace) win.location.replace(target.href);
    else win.location.assign(target.href);
    return;
  }
  navigateHistory(`${target.pathname}${target.search}${target.hash}`, { replace });
}

/**
 * wouter's browser location, with `navigateInBrowser`: the `hook` of the visitor `<Router>`.
 * The router hands it its options, whose `ssrPath` is the address when the page is rendered
 * on the server (entry-server.tsx).
 */
export function useVisitorBrowserLocation(
  options: { ssrPath?: string } = {},
): [string, typeof navigateInBrowser] {
  const [pathname] = useBrowserLocation(options);
  return [pathname, navigateInBrowser];
}
