import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { startTalkServer, type TalkServer } from './talk-server.js';

const SCREENS_DIR = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

/** Every test gets a real server (one per worker) as its baseURL. */
export const test = base.extend<object, { talkServer: TalkServer }>({
  talkServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring
    async ({}, use) => {
      const server = await startTalkServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ talkServer }, use) => {
    await use(talkServer.baseURL);
  },
});

export { expect };

/** Saves a full-page screenshot under test-results/screens/ for people to look at. */
export async function saveScreen(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`), fullPage: true });
}

/** Fails on any WCAG 2.1 A/AA violation axe-core finds on the page as it is now. */
export async function expectNoAccessibilityViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}
