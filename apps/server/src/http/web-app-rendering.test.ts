/**
 * The first page drawn on the server: the real built web app and its real renderer
 * (apps/web/dist-server, built by `npm run build` before the tests), and stand-in renderers
 * for what happens when one is missing or fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_RENDERER, DEFAULT_WEB_ROOT } from '../app.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

const BOOT = /<script id="talkbooth-boot" type="application\/json">([\s\S]*?)<\/script>/;

/** The root element's contents and the boot data of a page. */
function partsOf(html: string): { root: string; boot: unknown } {
  const root = /<div id="root">([\s\S]*?)<\/div><script id="talkbooth-boot"/.exec(html)?.[1];
  const boot = BOOT.exec(html)?.[1];
  return { root: root ?? '', boot: boot === undefined ? undefined : JSON.parse(boot) };
}

describe('the web app drawn on the server (real build, real renderer)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      webRoot: DEFAULT_WEB_ROOT,
      webRenderer: DEFAULT_WEB_RENDERER,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['/', '/login', '/medibrief', '/riverside-demo', '/?unicode=abc'])(
    'draws the code-entry page into %s, styled, with the business named and its data beside it',
    async (route) => {
      const response = await server.get(route);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const { root, boot } = partsOf(response.text);
      expect(root).toContain('<h1');
      expect(root).toContain('Talk to Assistant');
      // (React marks where one text part ends and the next begins.)
      expect(root).toMatch(/from (<!-- -->)?Riverside Clinic/);
      // Its styles come with it (emotion's, inline).
      expect(root).toMatch(/<style data-emotion="css[ -]/);
      // What it was drawn with: the answers of /api/client-config and the talk collection.
      const config = (await server.get('/api/client-config')).json;
      const documents = (await server.get('/api/collections/talk-medibrief')).json;
      expect(boot).toEqual({ config, talkDocuments: documents });
    },
  );

  it('puts a code from the address into the field, escaped', async () => {
    const code = '"><script>alert(1)</script>';
    const { root } = partsOf((await server.get(`/?unicode=${encodeURIComponent(code)}`)).text);
    expect(root).not.toContain('<script>alert(1)');
    expect(root).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('sends the other pages with their data but not drawn: the browser draws them', async () => {
    for (const route of ['/register', '/call-section', '/console']) {
      const { root, boot } = partsOf((await server.get(route)).text);
      expect(root).toBe('');
      expect(boot).toMatchObject({ config: { product: 'medibrief' } });
    }
  });

  it('keeps the boot data from closing its script element early', async () => {
    const row = await server.db.get<{ data: string }>(
      "SELECT data FROM talk_documents WHERE product = 'medibrief' AND doc_id = 'product'",
    );
    const data = JSON.parse(row?.data ?? '{}') as Record<string, unknown>;
    await server.db.run(
      "UPDATE talk_documents SET data = ? WHERE product = 'medibrief' AND doc_id = 'product'",
      JSON.stringify({ ...data, tagline: '</script><script>alert(1)</script>' }),
    );
    const { text } = await server.get('/register');
    expect(text).not.toContain('</script><script>alert(1)');
    expect(partsOf(text).boot).toMatchObject({
      talkDocuments: expect.arrayContaining([
        expect.objectContaining({ tagline: '</script><script>alert(1)</script>' }),
      ]),
    });
  });
});

describe('the web app without a working renderer (stand-ins)', () => {
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-web-ssr-'));
  fs.writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><title>stand-in</title><div id="root"></div>',
  );

  it('serves index.html as built when the renderer is not built, and says so in the log', async () => {
    const server = await startTestServer({
      webRoot,
      webRenderer: path.join(webRoot, 'missing-renderer.js'),
    });
    try {
      const response = await server.get('/');
      expect(response.text).toBe('<!doctype html><title>stand-in</title><div id="root"></div>');
      expect(server.logs.join('')).toMatch(/the web app renderer is not built/);
    } finally {
      await server.close();
    }
  });

  it('sends the page undrawn, and logs why, when drawing it fails', async () => {
    const renderer = path.join(webRoot, 'failing-renderer.mjs');
    fs.writeFileSync(
      renderer,
      `export function renderPage(template, { url, boot, prerender }) {
        if (prerender) throw new Error('drawing failed for ' + url);
        return template.replace('<div id="root"></div>', '<div id="root"></div><!--' + boot.config.product + '-->');
      }`,
    );
    const server = await startTestServer({ webRoot, webRenderer: renderer });
    try {
      const response = await server.get('/');
      expect(response.status).toBe(200);
      expect(response.text).toContain('<div id="root"></div><!--medibrief-->');
      expect(server.logs.join('')).toMatch(/could not render the page on the server/);
      expect(server.logs.join('')).toMatch(/drawing failed for \//);
    } finally {
      await server.close();
    }
  });
});
