import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { readBootData } from './app/boot-data';
import { logger } from './lib/logger';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render the app into.');

const boot = readBootData();
const app = (
  <StrictMode>
    <App {...(boot ? { config: boot.config, talkDocuments: boot.talkDocuments } : {})} />
  </StrictMode>
);
// The server renders the code-entry page into the HTML (entry-server.tsx), with the boot
// data it used: the app takes that markup over instead of drawing the page a second time.
if (boot && container.firstElementChild) {
  hydrateRoot(container, app, {
    onRecoverableError: (error) => logger.warn('The page was drawn again in the browser', error),
  });
} else {
  createRoot(container).render(app);
}
