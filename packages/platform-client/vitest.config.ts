import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@talkbooth/platform-client',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
