import { defineConfig } from 'vitest/config';

/**
 * The server's repository and API suites again, deployed as for scale-out: on PostgreSQL
 * and Redis. Each test server gets a database and Redis keys of its own on the local
 * servers (TEST_POSTGRES_URL, TEST_REDIS_URL); the run drops them all when it ends. The call and speech suites run on SQLite only: their database code is the
 * same, and running them twice would double the slowest suites.
 */
export default defineConfig({
  test: {
    name: '@talkbooth/server on PostgreSQL and Redis',
    environment: 'node',
    include: [
      'src/platform/**/*.test.ts',
      'src/routes/**/*.test.ts',
      'src/db/**/*.test.ts',
      'src/cli/**/*.test.ts',
      'src/console/tests/{accounts,team,organisation-scoping}.test.ts',
      'src/health/**/*.test.ts',
      'src/http/errors.test.ts',
      'src/webhooks/webhook-delivery.test.ts',
      'src/**/*.scale-out.test.ts',
    ],
    globalSetup: ['src/test-support/scale-out-global-setup.ts'],
    // Real servers, real databases and argon2 hashes: give each test room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
