// @vitest-environment node
/// <reference types="node" />
/**
 * What the code-entry page (`/`) loads, checked on a real production build (issue 14): the
 * entry chunk and every chunk it imports statically. The booth, the console, zod's schemas and
 * React Router must stay in chunks that load when a visitor goes there, and the whole stays
 * within the page's budget of 120 kB gzipped.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'vite';
import type { Rolldown } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The page's budget, JavaScript and CSS (issue 14). */
const BUDGET_GZIP_BYTES = 120_000;
/**
 * The part of it left for the styles the server draws into the page's HTML with it
 * (emotion's, inline; 3.2 kB gzipped when last measured by bench/page-weight.bench.mjs),
 * which this build alone does not show.
 */
const INLINE_STYLES_GZIP_BYTES = 3_500;

type Output = Rolldown.RolldownOutput['output'];
type Chunk = Rolldown.OutputChunk;

/** Modules the first page must not carry, by what they are. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['the booth page', /\/src\/features\/call-booth\/CallBoothPage\.tsx$/],
  ['the booth call hook', /\/src\/features\/call-booth\/use-call\.ts$/],
  ['the web-call service', /\/src\/features\/call-booth\/(web-call-service|use-call-service)\.ts$/],
  ['the web-call client', /\/packages\/web-call\/|@talkbooth\/web-call/],
  // ConsoleRoute.tsx is only the lazy import() of the console; nothing else of it may be here.
  ['the console', /\/src\/features\/console\/(?!ConsoleRoute\.tsx$)/],
  ['zod', /\/node_modules\/zod\//],
  ['the shared zod schemas', /\/packages\/protocol\//],
  ['React Router', /\/node_modules\/react-router\//],
];

let output: Output;
let entryChunks: Chunk[];

/** The entry chunk and, transitively, every chunk it imports statically. */
function staticClosure(chunks: Chunk[], entry: Chunk): Chunk[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Map<string, Chunk>();
  const visit = (chunk: Chunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  visit(entry);
  return [...seen.values()];
}

const posix = (id: string) => id.replaceAll('\\', '/');

/** `vite build` as `npm run build` runs it; Vitest's NODE_ENV=test would give React's dev build. */
async function productionBuild() {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build({
      root: WEB_ROOT,
      configFile: path.join(WEB_ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      // Kept in memory: nothing is written, dist/ stays as it is.
      build: { write: false },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

beforeAll(async () => {
  const result = await productionBuild();
  const first = Array.isArray(result) ? result[0] : (result as Rolldown.RolldownOutput);
  if (!first) throw new Error('vite build gave no output.');
  output = first.output;
  const chunks = output.filter((file): file is Chunk => file.type === 'chunk');
  // index.html's script: the entry chunk that holds src/main.tsx.
  const entry = chunks.find(
    (chunk) => chunk.isEntry && chunk.moduleIds.some((id) => posix(id).endsWith('/src/main.tsx')),
  );
  if (!entry) throw new Error('The build has no entry chunk for src/main.tsx.');
  entryChunks = staticClosure(chunks, entry);
}, 120_000);

describe('the code-entry page’s chunks', () => {
  it('carry the code-entry page itself (the check below is not vacuous)', () => {
    const modules = entryChunks.flatMap((chunk) => chunk.moduleIds.map(posix));
    expect(modules.some((id) => id.endsWith('/src/features/code-entry/CodeEntryPage.tsx'))).toBe(
      true,
    );
    // The booth is still built, into a chunk of its own.
    const lazy = output.filter(
      (file): file is Chunk => file.type === 'chunk' && !entryChunks.includes(file),
    );
    expect(
      lazy.some((chunk) =>
        chunk.moduleIds.some((id) => posix(id).endsWith('/call-booth/CallBoothPage.tsx')),
      ),
    ).toBe(true);
  });

  it.each(FORBIDDEN)('do not carry %s', (_what, pattern) => {
    const found = entryChunks.flatMap((chunk) =>
      chunk.moduleIds.map(posix).filter((id) => pattern.test(id)),
    );
    expect(found).toEqual([]);
  });

  it('stay within 120 kB of JavaScript and CSS, gzipped, with 3.5 kB of it for the inline styles', () => {
    const css = new Set(
      entryChunks.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]),
    );
    const bodies = [
      ...entryChunks.map((chunk) => chunk.code),
      ...output
        .filter((file) => file.type === 'asset' && css.has(file.fileName))
        .map((file) => (file as Rolldown.OutputAsset).source),
    ];
    const gzipped = bodies.reduce(
      (total, body) => total + zlib.gzipSync(body, { level: 9 }).length,
      0,
    );
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIP_BYTES - INLINE_STYLES_GZIP_BYTES);
  });
});
