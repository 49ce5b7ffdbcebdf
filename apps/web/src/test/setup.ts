import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

// Keep the app's own log lines ("[talkbooth] …") out of the test output; everything else
// (React warnings, for one) still reaches the console. Tests may spy on console to assert logs.
beforeEach(() => {
  for (const level of LEVELS) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].startsWith('[talkbooth]')) return;
      original(...args);
    });
  }
});

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  // Tests in the node environment (src/build) have no sessionStorage.
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});
