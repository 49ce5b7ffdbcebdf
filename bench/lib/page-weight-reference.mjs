// The page-weight benchmark's reference: a minimal React 19 page (bench/fixtures/
// reference-react-page), built with the repository's Vite and React into a temp folder and
// served by a tiny static server that, like Talkbooth's, does not compress.
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { fromRoot } from './paths.mjs';

const SOURCE = fromRoot('bench/fixtures/reference-react-page');
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The web app's React plugin: installed under apps/web, not at the root. */
async function reactPlugin() {
  const resolved = createRequire(fromRoot('apps/web/package.json')).resolve('@vitejs/plugin-react');
  return (await import(pathToFileURL(resolved).href)).default;
}

/**
 * Builds the reference page in a temp folder; answers the folder (remove it when done) and
 * the built site inside it. React comes from the repository's node_modules, as the web
 * app's does, since the temp folder has none of its own.
 */
export async function buildReferencePage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-reference-page-'));
  try {
    fs.cpSync(SOURCE, dir, { recursive: true });
    const react = await reactPlugin();
    const outDir = path.join(dir, 'dist');
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      plugins: [react()],
      resolve: {
        alias: {
          react: fromRoot('node_modules/react'),
          'react-dom': fromRoot('node_modules/react-dom'),
        },
      },
      build: { outDir, emptyOutDir: true },
    });
    return { dir, outDir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Serves `siteDir` as it is (no compression, `/` is index.html) on a random local port. */
export async function serveStatic(siteDir) {
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url, 'http://localhost').pathname;
    const file = path.join(siteDir, pathname === '/' ? 'index.html' : pathname);
    if (
      !file.startsWith(siteDir + path.sep) ||
      !fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      response.writeHead(404).end();
      return;
    }
    const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type }).end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        // Chromium may still hold keep-alive connections; close() would wait for them.
        server.closeAllConnections();
      }),
  };
}
