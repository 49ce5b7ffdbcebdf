import { defineConfig } from 'vitest/config';

// Each workspace part owns its test setup; `npm run test:unit` runs them all.
export default defineConfig({
  test: {
    projects: [
      'packages/protocol',
      'packages/platform-client',
      'packages/voice',
      'packages/web-call',
      'apps/server',
      'apps/web',
    ],
  },
});
