import { defineConfig } from 'vitest/config';
import { shouldRunScaleOutTests } from './apps/server/src/test-support/scale-out-probe.js';

// Each workspace part owns its test setup; `npm run test:unit` runs them all.
export default defineConfig(async () => ({
  test: {
    projects: [
      'packages/protocol',
      'packages/platform-client',
      'packages/voice',
      'packages/web-call',
      'apps/server',
      ...((await shouldRunScaleOutTests()) ? ['apps/server/vitest.scale-out.config.ts'] : []),
      'apps/web',
    ],
  },
}));
