import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The dev server forwards the app API and the platform API to the Talkbooth server.
const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  optimizeDeps: {
    // The web-call client loads its audio worklets with `new URL('./worklets/x.js',
    // import.meta.url)`: Vite must serve the package as it is, not prebundled (which would move
    // the module away from its worklets). Its CommonJS dependencies still need prebundling.
    exclude: ['@talkbooth/web-call'],
    include: ['@talkbooth/web-call > eventemitter3', '@talkbooth/web-call > @daily-co/daily-js'],
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React, React DOM and React Router change rarely: their own chunk stays cached
          // across app releases. Everything else follows the default splitting, so the call
          // booth keeps its own chunk (assets/CallBoothPage-<hash>.js).
          groups: [
            {
              name: 'react-vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
            },
          ],
        },
      },
    },
  },
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
});
