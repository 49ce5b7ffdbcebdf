import react from '@vitejs/plugin-react';
import type { BuildEnvironmentOptions, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

interface StandIn {
  /** The file that imports it, as the end of its path. */
  importer: string;
  code: string;
}

/**
 * Replaces modules that a library imports but this app never runs with small stand-ins, in
 * the production builds only (the dev server and the tests keep the libraries whole). The
 * build fails if a library's files move, so a saving cannot silently disappear.
 */
function standIns(name: string, standIns: Record<string, StandIn>): Plugin {
  const prefix = `\0${name}:`;
  const replaced = new Set<string>();
  return {
    name: `talkbooth:${name}`,
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const standIn = standIns[source];
      if (!standIn || !importer?.replaceAll('\\', '/').endsWith(standIn.importer)) return null;
      replaced.add(source);
      return prefix + source;
    },
    load(id) {
      return id.startsWith(prefix) ? (standIns[id.slice(prefix.length)]?.code ?? null) : null;
    },
    buildEnd(error) {
      const missing = Object.keys(standIns).filter((source) => !replaced.has(source));
      if (!error && missing.length > 0) {
        this.error(`${missing.join(', ')} is no longer imported as expected: update ${name}.`);
      }
    },
  };
}

/**
 * MUI's `createTheme` and `ThemeProvider` also carry the CSS-variables theme (`cssVariables`,
 * `colorSchemes`: extendTheme, CssVarsProvider, the color-scheme script), about 7 kB gzipped
 * that every page would load. This app's theme has one light scheme and no CSS variables
 * (src/app/theme.ts), so those two modules get stand-ins that refuse to work if ever reached.
 */
const muiThemeWithoutCssVariables = () =>
  standIns('mui-no-css-variables', {
    './createThemeWithVars.mjs': {
      importer: '/@mui/material/styles/createTheme.mjs',
      code: 'export default function createThemeWithVars() { throw new Error("This app builds MUI without CSS-variables themes (vite.config.ts)."); }',
    },
    './ThemeProviderWithVars.mjs': {
      importer: '/@mui/material/styles/ThemeProvider.mjs',
      code: 'export function CssVarsProvider() { throw new Error("This app builds MUI without CSS-variables themes (vite.config.ts)."); }',
    },
  });

/**
 * The theme turns the ripple off on every button (`MuiButtonBase` `disableRipple`) and shows
 * MUI's focus ring instead (src/app/theme.ts), so ButtonBase never draws its TouchRipple:
 * about 2.5 kB gzipped on the first page (issue 14: at most 120 kB). The stand-in draws
 * nothing, should a button ever ask for a ripple again.
 */
const muiWithoutTouchRipple = () =>
  standIns('mui-no-touch-ripple', {
    './TouchRipple.mjs': {
      importer: '/@mui/material/ButtonBase/ButtonBase.mjs',
      code: 'export default function TouchRipple() { return null; }',
    },
  });

/**
 * Two pieces of MUI that only work for options this app does not use: the theme's
 * `toRuntimeSource` (for Pigment CSS) and the CSS-layer order (`modularCssLayers`); about
 * 0.5 kB gzipped. Their stand-ins refuse those options, should the theme ever set them.
 */
const muiWithoutUnusedThemeOptions = () =>
  standIns('mui-no-unused-theme-options', {
    './stringifyTheme.mjs': {
      importer: '/@mui/material/styles/createThemeNoVars.mjs',
      code: 'export function stringifyTheme() { throw new Error("This app builds MUI without toRuntimeSource (vite.config.ts)."); }',
    },
    './useLayerOrder.mjs': {
      importer: '/@mui/system/ThemeProvider/ThemeProvider.mjs',
      code: 'export default function useLayerOrder(theme) { if (theme && theme.modularCssLayers) throw new Error("This app builds MUI without CSS layers (vite.config.ts)."); return null; }',
    },
  });

/**
 * wouter reaches React's `useSyncExternalStore` through the shim package, which also
 * carries a stand-in for React before 18; with React 19 the hook itself is taken (0.3 kB).
 */
const wouterWithReactsOwnStore = () =>
  standIns('wouter-react-store', {
    'use-sync-external-store/shim/index.js': {
      importer: '/wouter/src/use-sync-external-store.js',
      code: 'export { useSyncExternalStore } from "react";',
    },
  });

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
  plugins: [
    react(),
    muiThemeWithoutCssVariables(),
    muiWithoutTouchRipple(),
    muiWithoutUnusedThemeOptions(),
    wouterWithReactsOwnStore(),
  ],

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
