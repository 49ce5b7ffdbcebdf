import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium.js';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser). Each worker starts its
 * own real server on a random port with a throw-away SQLite database (support/fixtures.ts).
 */
/** Specs whose calls run in real time. */
const REAL_TIME_SPECS = ['**/live-call.spec.ts', '**/operator-journey.spec.ts'];

export default defineConfig({
  testDir: '.',
  outputDir: '../test-results/playwright',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  projects: [
    { name: 'screens', testMatch: '**/*.spec.ts', testIgnore: REAL_TIME_SPECS },
    // Calls stream the fake microphone in real time: on two cores, another worker's browser
    // starves Chromium's audio thread and the caller's words arrive garbled. They run
    // after everything else, alone.
    // One at a time, too: two real-time specs side by side starve each other the same way.
    { name: 'live calls', testMatch: REAL_TIME_SPECS, dependencies: ['screens'], workers: 1 },
  ],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
});
