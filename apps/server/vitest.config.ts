import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@talkbooth/server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Tests of several processes on one database and Redis: the scale-out project runs them.
    exclude: ['src/**/*.scale-out.test.ts'],
    // Real servers, real SQLite files and argon2 hashes: give each test room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
