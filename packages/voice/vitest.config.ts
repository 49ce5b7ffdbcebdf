import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@talkbooth/voice',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Real speech engines on real (synthesized) audio.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
