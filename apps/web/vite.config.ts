import react from '@vitejs/plugin-react';
import type { BuildEnvironmentOptions, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * MUI's `createTheme` and `ThemeProvider` also carry the CSS-variables theme (`cssVariables`,
 * `colorSchemes`: extendTheme, CssVarsProvider, the color-scheme script), about 7 kB gzipped
 * that every page would load. This app's theme has one light scheme and no CSS variables
 * (src/app/theme.ts), so those two modules get stand-ins that refuse to work if ever reached.
 * The build fails if MUI's files move, so the saving cannot silently disappear.
 */
function muiThemeWithoutCssVariables(): Plugin {
  const stubs: Record<string, { importer: string; code: string }> = {
    './createThemeWithVars.mjs': {
      importer: '/@mui/material/styles/createTheme.mjs',
      code: 'export default function createThemeWithVars() { throw new Error("This app builds MUI without CSS-variables themes (vite.config.ts)."); }',
    },
    './ThemeProviderWithVars.mjs': {
      importer: '/@mui/material/styles/ThemeProvider.mjs',
      code: 'export function CssVarsProvider() { throw new Error("This app builds MUI without CSS-variables themes (vite.config.ts)."); }',
    },
  };
  const replaced = new Set<string>();
  return {
    name: 'talkbooth:mui-theme-without-css-variables',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const stub = stubs[source];
      if (!stub || !importer?.replaceAll('\\', '/').endsWith(stub.importer)) return null;
      replaced.add(source);
      return `\0mui-no-css-variables:${source}`;
    },
    load(id) {
      const prefix = '\0mui-no-css-variables:';
      return id.startsWith(prefix) ? (stubs[id.slice(prefix.length)]?.code ?? null) : null;
    },
    buildEnd(error) {
      const missing = Object.keys(stubs).filter((source) => !replaced.has(source));
      if (!error && missing.length > 0) {
        this.error(`MUI no longer imports ${missing.join(', ')} as expected: update this plugin.`);
      }
    },
  };
}

/** The browser's build: dist/, served by the Talkbooth server. */
const browserBuild: BuildEnvironmentOptions = {
  outDir: 'dist',
  assetsDir: 'assets',
  emptyOutDir: true,
  // The first page is one file (see codeSplitting), so the polyfill for <link
  // rel="modulepreload"> would only serve the lazy chunks' preloads in browsers without it
  // (Safari before 17, Firefox before 115); they still load those chunks, one step later.
  modulePreload: { polyfill: false },
  rolldownOptions: {
    treeshake: {
      // Both only define functions, but as CommonJS without a `sideEffects` field they count
      // as having side effects, so emotion's bare `import 'hoist-non-react-statics'` kept them
      // (and an old react-is) in every page. Everything else keeps its package's own say.
      moduleSideEffects: (id: string) =>
        /[\\/]node_modules[\\/](hoist-non-react-statics|react-is)[\\/]/.test(id)
          ? false
          : undefined,
    },
    output: {
      codeSplitting: {
        // Everything the first page needs, React included, is one file: the code-entry page
        // is most visitors' first and often only page (issue 14: at most 120 kB gzipped),
        // and one file compresses better than several. The rest follows the default
        // splitting: the call booth (assets/CallBoothPage-<hash>.js), registration and the
        // console (with React Router) load when the visitor goes there.
        groups: [{ name: 'app-shell', tags: ['$initial'] }],
      },
    },
  },
};

/**
 * The server's renderer of the first page (`vite build --ssr src/entry-server.tsx`):
 * dist-server/entry-server.js, outside dist/ so that it is not served. It carries React and
 * MUI itself (`ssr.noExternal`), so the Talkbooth server needs none of the web app's
 * packages to load it.
 */
const ssrBuild: BuildEnvironmentOptions = {
  outDir: 'dist-server',
  emptyOutDir: true,
  rolldownOptions: { output: { entryFileNames: '[name].js' } },
};

// The dev server forwards the app API and the platform API to the Talkbooth server.
const apiTarget = 'http://localhost:3000';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), muiThemeWithoutCssVariables()],

  optimizeDeps: {
    // The web-call client loads its audio worklets with `new URL('./worklets/x.js',
    // import.meta.url)`: Vite must serve the package as it is, not prebundled (which would move
    // the module away from its worklets). Its CommonJS dependencies still need prebundling.
    exclude: ['@talkbooth/web-call'],
    include: ['@talkbooth/web-call > eventemitter3', '@talkbooth/web-call > @daily-co/daily-js'],
  },
  ssr: { noExternal: true },
  build: isSsrBuild ? ssrBuild : browserBuild,
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/platform': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/platform': { target: apiTarget, changeOrigin: false },
    },
  },
  test: {
    name: '@talkbooth/web',
    environment: 'jsdom',
    setupFiles: ['@testing-library/jest-dom/vitest', './src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
}));
