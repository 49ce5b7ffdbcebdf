/**
 * The server's side of the first page (built by `vite build --ssr` into dist-server/, and
 * loaded by the Talkbooth server's web-app.ts). The code-entry page is rendered into the
 * HTML, so a visitor sees it as soon as the HTML arrives instead of after the app's
 * JavaScript has loaded and run; its styles come inline with it (emotion), and the data it
 * was rendered with comes as a JSON block, from which the browser takes it over (main.tsx)
 * without fetching anything.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/App';
import { BOOT_DATA_ID, type BootData } from './app/boot-data';

export type { BootData };

/** What the built index.html holds where the app goes. */
const EMPTY_ROOT = '<div id="root"></div>';

export interface PageOptions {
  /** The address asked for: path and query. */
  url: string;
  /** The client configuration and talk collection (null: the page fetches them itself). */
  boot: BootData | null;
  /** Whether to render the page into the HTML (the code-entry addresses). */
  prerender: boolean;
}

/** JSON that cannot end its <script> element early or open a comment in it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The JSON data block main.tsx reads (`readBootData`). */
export function bootDataScript(boot: BootData): string {
  return `<script id="${BOOT_DATA_ID}" type="application/json">${scriptJson(boot)}</script>`;
}

/** The app's markup at `url`, as the browser's first render will draw it. */
export function renderApp(url: string, boot: BootData): string {
  // A cache per page: its styles are written inline, beside the elements that use them.
  const cache = createCache({ key: 'css' });
  return renderToString(
    <CacheProvider value={cache}>
      <StrictMode>
        <App ssrPath={url} config={boot.config} talkDocuments={boot.talkDocuments} />
      </StrictMode>
    </CacheProvider>,
  );
}

/** index.html for one request: the page rendered into it when asked, and the boot data. */
export function renderPage(template: string, { url, boot, prerender }: PageOptions): string {
  if (!template.includes(EMPTY_ROOT)) {
    throw new Error(`The built index.html has no ${EMPTY_ROOT} to render the page into.`);
  }
  const markup = prerender && boot !== null ? renderApp(url, boot) : '';
  const data = boot === null ? '' : bootDataScript(boot);
  // A function, so that `$` in the page is not read as a replacement pattern.
  return template.replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>${data}`);
}
