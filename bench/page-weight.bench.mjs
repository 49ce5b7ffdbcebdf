// What the web app costs a visitor's browser: the JavaScript and CSS the code-entry page
// and the booth load (as gzip would send them), and how soon the code-entry page paints its
// largest content. The reference is the smallest React 19 page, built with the same Vite
// and React and loaded in the same Chromium in the same run.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/chromium.mjs';
import { table } from './lib/markdown.mjs';
import { buildReferencePage, serveStatic } from './lib/page-weight-reference.mjs';
import { quantile, ratio, summarise } from './lib/stats.mjs';
import { startTalkServer } from './lib/talk-server.mjs';

export const title = 'Page weight and paint';
export const about =
  'The JavaScript and CSS Debian Chromium actually loads for the code-entry page (`/`) and ' +
  'for the booth (`/?unicode=<demo code>`, which lands on `/call-section`), against the real ' +
  'server serving the built web app, and the code-entry page’s Largest Contentful Paint ' +
  '(median of 5 loads, 3 in quick mode, each in a fresh browser context so nothing is ' +
  'cached). CSS counts the styles the server-drawn HTML carries inline as well as CSS files. ' +
  '“Sent” is what crossed the wire: the server compresses its answers (Brotli or ' +
  'gzip, as the browser asks; inline styles count at gzip -9). “Gzip” is every body gzip-compressed at level 9 here, the ' +
  'same yardstick for both pages. The reference is a minimal React 19 page (“hello” in a ' +
  'div, bench/fixtures/reference-react-page) built with the same Vite and React and served ' +
  'uncompressed by a tiny static server, so its “sent” is its raw size; its ' +
  'paints are interleaved with Talkbooth’s. Ratios are Talkbooth ÷ reference: how many times ' +
  'the bare React page’s download and paint time the web app needs.';

const VIEWPORT = { width: 1280, height: 800 };
const LARGEST_FILES = 8;

/** The pages measured, each with how to visit it and what shows it is ready. */
function pages(talk, reference) {
  return {
    entry: {
      label: 'Code entry `/`',
      url: `${talk.baseUrl}/`,
      ready: (page) => page.getByRole('heading', { name: 'Talk to Assistant' }).waitFor(),
    },
    booth: {
      label: 'Booth `/call-section`',
      url: `${talk.baseUrl}/?unicode=${talk.demoCode}`,
      ready: async (page) => {
        await page.waitForURL(/\/call-section$/);
        await page.getByRole('button', { name: 'Start Call' }).waitFor();
      },
    },
    reference: {
      label: 'Reference React page',
      url: `${reference.baseUrl}/`,
      ready: (page) => page.getByText('hello').waitFor(),
    },
  };
}

/** Runs `use(page)` in a fresh browser context: an empty cache, as for a first visit. */
async function inFreshContext(browser, use) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** The URLs of every JavaScript and CSS answer the browser loaded to show `target`. */
function loadedCode(browser, target) {
  return inFreshContext(browser, async (page) => {
    const urls = new Set();
    page.on('response', (response) => {
      if (/javascript|css/.test(response.headers()['content-type'] ?? '')) urls.add(response.url());
    });
    await page.goto(target.url);
    await target.ready(page);
    // Chunks the page imports after its first render (lazy routes) count too.
    await page.waitForLoadState('networkidle');
    return [...urls];
  });
}

/** GET without decompression, so what the server sends is seen as it is. */
function getRaw(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** One file's size as it is, as the server sends it to a gzip-capable browser, and at gzip -9. */
async function weigh(url) {
  const { status, headers, body } = await getRaw(url, { 'accept-encoding': 'gzip' });
  if (status !== 200) throw new Error(`${url}: ${status}`);
  const servedEncoding = headers['content-encoding'] ?? 'identity';
  if (servedEncoding !== 'identity' && servedEncoding !== 'gzip') {
    throw new Error(`${url}: unexpected content-encoding ${servedEncoding}`);
  }
  const plain = servedEncoding === 'gzip' ? zlib.gunzipSync(body) : body;
  return {
    path: new URL(url).pathname,
    kind: /css/.test(headers['content-type'] ?? '') ? 'css' : 'js',
    bytes: plain.length,
    gzipBytes: zlib.gzipSync(plain, { level: 9 }).length,
    sentBytes: body.length,
    servedEncoding,
  };
}

/** Totals of a page's files, by kind. */
function totals(files) {
  const sum = (kind, field) =>
    files.filter((f) => f.kind === kind).reduce((total, f) => total + f[field], 0);
  return {
    jsFiles: files.filter((f) => f.kind === 'js').length,
    jsBytes: sum('js', 'bytes'),
    jsGzipBytes: sum('js', 'gzipBytes'),
    cssFiles: files.filter((f) => f.kind === 'css').length,
    cssBytes: sum('css', 'bytes'),
    cssGzipBytes: sum('css', 'gzipBytes'),
    sentBytes: files.reduce((total, f) => total + f.sentBytes, 0),
    servedEncodings: [...new Set(files.map((f) => f.servedEncoding))],
  };
}

/**
 * The styles the page's HTML carries inline (the code-entry page is drawn on the server,
 * its emotion styles beside it): CSS like any file's, though it comes inside the document,
 * so its "sent" is its share at gzip -9.
 */
async function inlineStyles(target) {
  const { status, headers, body } = await getRaw(target.url, { 'accept-encoding': 'gzip' });
  if (status !== 200) throw new Error(`${target.url}: ${status}`);
  const html = (headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body).toString();
  const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
  if (css === '') return [];
  const plain = Buffer.from(css);
  const gzipBytes = zlib.gzipSync(plain, { level: 9 }).length;
  return [
    {
      path: `${new URL(target.url).pathname} (inline <style> in the HTML)`,
      kind: 'css',
      bytes: plain.length,
      gzipBytes,
      sentBytes: gzipBytes,
      servedEncoding: 'in the document',
    },
  ];
}

async function pageWeight(browser, target) {
  const files = [
    ...(await Promise.all((await loadedCode(browser, target)).map(weigh))),
    ...(await inlineStyles(target)),
  ];
  files.sort((a, b) => b.bytes - a.bytes);
  return { ...totals(files), files };
}

/* global requestAnimationFrame -- readPaintTimes runs in the page, not in Node */
/** In the page: First Contentful Paint and the last Largest Contentful Paint entry, in ms. */
function readPaintTimes() {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
  return new Promise((resolve) => {
    // Two frames after the content showed, its paint has been reported.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1);
          // The element too, so a reader can see what the largest content was.
          const element = last.element?.tagName.toLowerCase() ?? null;
          resolve({ fcp, lcp: last.startTime, element, size: last.size });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve({ fcp, lcp: null, element: null, size: null }), 2000);
      }),
    );
  });
}

/** One first visit: its paint times, read after the load event and the content showing. */
function paintTimes(browser, target) {
  return inFreshContext(browser, async (page) => {
    await page.goto(target.url, { waitUntil: 'load' });
    await target.ready(page);
    const times = await page.evaluate(readPaintTimes);
    if (times.lcp === null) throw new Error(`${target.label}: Chromium reported no LCP`);
    return times;
  });
}

/**
 * `loads` first visits of each page, interleaved (and the order alternated) so a change in
 * the machine's load touches both alike.
 */
async function paintSeries(browser, talkPage, referencePage, loads) {
  const series = { talkbooth: [], reference: [] };
  for (let i = 0; i < loads; i += 1) {
    const order = i % 2 === 0 ? ['talkbooth', 'reference'] : ['reference', 'talkbooth'];
    for (const which of order) {
      const target = which === 'talkbooth' ? talkPage : referencePage;
      series[which].push(await paintTimes(browser, target));
    }
  }
  return series;
}

const median = (values) => quantile(values, 0.5);
const kB = (bytes) => Number((bytes / 1000).toFixed(1));
const ms = (value) => (value === null ? null : Number(value.toFixed(0)));

function weightTable(weights, labels) {
  const referenceGzip = weights.reference.jsGzipBytes + weights.reference.cssGzipBytes;
  return table(
    [
      'Page',
      'JS files',
      'JS (kB)',
      'JS gzip (kB)',
      'CSS (kB)',
      'CSS gzip (kB)',
      'Sent (kB)',
      'Gzip ratio',
    ],
    Object.entries(weights).map(([name, w]) => [
      labels[name],
      w.jsFiles,
      kB(w.jsBytes),
      kB(w.jsGzipBytes),
      kB(w.cssBytes),
      kB(w.cssGzipBytes),
      kB(w.sentBytes),
      ratio(w.jsGzipBytes + w.cssGzipBytes, referenceGzip),
    ]),
  );
}

function paintTable(paint, labels) {
  const lcp = (which) => paint[which].map((t) => t.lcp);
  const fcp = (which) => paint[which].map((t) => t.fcp);
  const referenceLcp = median(lcp('reference'));
  return table(
    [
      'Page',
      'Loads',
      'LCP median (ms)',
      'LCP min (ms)',
      'LCP max (ms)',
      'FCP median (ms)',
      'LCP ratio',
      'LCP element',
    ],
    [
      ['talkbooth', labels.entry],
      ['reference', labels.reference],
    ].map(([which, label]) => [
      label,
      paint[which].length,
      ms(median(lcp(which))),
      ms(Math.min(...lcp(which))),
      ms(Math.max(...lcp(which))),
      ms(median(fcp(which))),
      ratio(median(lcp(which)), referenceLcp),
      [...new Set(paint[which].map((t) => `\`${t.element}\``))].join(', '),
    ]),
  );
}

/** The largest files any page loaded, with the pages that loaded each. */
function largestFiles(weights, labels) {
  const byPath = new Map();
  for (const [name, w] of Object.entries(weights)) {
    for (const file of w.files) {
      const key = `${name === 'reference' ? 'reference' : 'talkbooth'}:${file.path}`;
      const entry = byPath.get(key) ?? { ...file, pages: [] };
      entry.pages.push(labels[name]);
      byPath.set(key, entry);
    }
  }
  return [...byPath.values()].sort((a, b) => b.bytes - a.bytes).slice(0, LARGEST_FILES);
}

function filesTable(files) {
  return table(
    ['File', 'Loaded by', 'Size (kB)', 'Gzip (kB)'],
    files.map((f) => [`\`${f.path}\``, f.pages.join(', '), kB(f.bytes), kB(f.gzipBytes)]),
  );
}

export async function run({ quick, log }) {
  const loads = quick ? 3 : 5;
  const cleanups = [];
  try {
    const talk = await startTalkServer();
    cleanups.push(() => talk.close());
    const built = await buildReferencePage();
    cleanups.push(() => fs.rmSync(built.dir, { recursive: true, force: true }));
    const reference = await serveStatic(built.outDir);
    cleanups.push(() => reference.close());
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    cleanups.push(() => browser.close());

    const targets = pages(talk, reference);
    const labels = Object.fromEntries(Object.entries(targets).map(([name, t]) => [name, t.label]));
    // The weighing visits come first and also warm the servers up for the timed loads.
    const weights = {};
    for (const [name, target] of Object.entries(targets)) {
      weights[name] = await pageWeight(browser, target);
      log(
        `${target.label}: ${weights[name].jsFiles} JS files, ` +
          `${kB(weights[name].jsGzipBytes)} kB gzipped`,
      );
    }
    const paint = await paintSeries(browser, targets.entry, targets.reference, loads);
    const lcpMedian = (which) => median(paint[which].map((t) => t.lcp));
    log(
      `code entry LCP ${ms(lcpMedian('talkbooth'))} ms, reference ${ms(lcpMedian('reference'))} ms`,
    );

    const gzip = (w) => w.jsGzipBytes + w.cssGzipBytes;
    return {
      summary: {
        entryGzipBytes: gzip(weights.entry),
        boothGzipBytes: gzip(weights.booth),
        referenceGzipBytes: gzip(weights.reference),
        entryGzipRatio: ratio(gzip(weights.entry), gzip(weights.reference)),
        boothGzipRatio: ratio(gzip(weights.booth), gzip(weights.reference)),
        entryLcpMs: ms(lcpMedian('talkbooth')),
        referenceLcpMs: ms(lcpMedian('reference')),
        lcpRatio: ratio(lcpMedian('talkbooth'), lcpMedian('reference')),
        servedEncodings: [...new Set(Object.values(weights).flatMap((w) => w.servedEncodings))],
      },
      markdown: [
        weightTable(weights, labels),
        paintTable(paint, labels),
        filesTable(largestFiles(weights, labels)),
      ].join('\n\n'),
      details: {
        loads,
        weights,
        paint,
        lcp: {
          talkbooth: summarise(paint.talkbooth.map((t) => t.lcp)),
          reference: summarise(paint.reference.map((t) => t.lcp)),
        },
        browser: browser.version(),
      },
    };
  } finally {
    await cleanUp(cleanups);
  }
}

/** Last started, first stopped; every one runs even if another fails. */
async function cleanUp(cleanups) {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('page-weight: cleaning up failed:', error);
    }
  }
}
