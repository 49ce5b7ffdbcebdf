import { useState } from 'react';
import { ConsoleRoute } from '../features/console/ConsoleRoute';
import { AppProviders } from './AppProviders';
import type { AppProvidersProps } from './AppProviders';
import { isConsolePath } from './navigation';
import { VisitorApp } from './VisitorApp';

/**
 * The whole app: providers around the visitor pages, or around the operator console when the
 * page was loaded at `/console/…`. The two are separate apps in one bundle: links between them
 * load a new page, so the visitor pages never carry the console's router.
 */
export function App(props: Omit<AppProvidersProps, 'children'>) {
  const [isConsole] = useState(() => isConsolePath(window.location.pathname));
  return <AppProviders {...props}>{isConsole ? <ConsoleRoute /> : <VisitorApp />}</AppProviders>;
}
