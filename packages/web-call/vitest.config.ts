import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@talkbooth/web-call',
    // jsdom for the DOM parts (audio elements, document); the audio graph, sockets and the
    // Daily call object are fakes injected through the client's options.
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
  },
});
