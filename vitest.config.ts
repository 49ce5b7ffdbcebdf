import { defineConfig } from 'vitest/config';
import { shouldRunPostgresTests } from './apps/server/src/test-support/postgres-probe.js';

// Each workspace part owns its test setup; `npm run test:unit` runs them all.
export default defineConfig(async () => ({
  test: {
    projects: [
      'packages/protocol',
      'packages/platform-client',
      'packages/voice',
      'packages/web-call',
      'apps/server',
      ...((await shouldRunPostgresTests()) ? ['apps/server/vitest.postgres.config.ts'] : []),
      'apps/web',
    ],
  },
}));
