import type { Page } from '@playwright/test';
import { expect, expectNoAccessibilityViolations, saveScreen, test } from './support/fixtures.js';
import { startTalkServer, type TalkServer } from './support/talk-server.js';

/**
 * Every console page at a phone's size and a desktop's, each checked by axe and saved as
 * a screenshot, as an owner of the demo clinic with a call on record.
 */
test.describe.configure({ timeout: 150_000 });

const SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

async function withCall(server: TalkServer): Promise<string> {
  const response = await fetch(`${server.baseURL}/platform/call/web`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.privateKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ assistantId: server.assistantId }),
  });
  return ((await response.json()) as { id: string }).id;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/console/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Calls and briefs' })).toBeVisible();
}

// One test per size, each with its own server: together they took about 2 of the 2.5
// minutes one test may take, and went over once on a loaded CI machine.
for (const size of SIZES) {
  test(`every console page works at ${size.name} size, with no axe violations`, async ({
    browser,
  }) => {
    const server = await startTalkServer();
    try {
      const register = await fetch(`${server.baseURL}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'Owner',
          email: 'owner@clinic.example',
          password: 'owner password 1',
        }),
      });
      expect(register.status).toBe(201);
      const callId = await withCall(server);

      const pages: { path: string; heading: string | RegExp; name: string }[] = [
        { path: '/console/calls', heading: 'Calls and briefs', name: 'calls' },
        { path: `/console/calls/${callId}`, heading: /^Call of /, name: 'call' },
        { path: `/console/calls/${callId}/brief`, heading: 'Pre-visit brief', name: 'brief-print' },
        { path: '/console/codes', heading: 'Access codes', name: 'codes' },
        { path: '/console/assistants', heading: 'Assistants', name: 'assistants' },
        {
          path: `/console/assistants/${server.assistantId}`,
          heading: /./,
          name: 'assistant-editor',
        },
        { path: '/console/usage', heading: 'Usage', name: 'usage' },
        { path: '/console/webhooks', heading: 'Webhooks', name: 'webhooks' },
        { path: '/console/team', heading: 'Team', name: 'team' },
        { path: '/console/keys', heading: 'API keys', name: 'keys' },
        { path: '/console/account', heading: 'Your account', name: 'account' },
      ];

      const context = await browser.newContext({
        baseURL: server.baseURL,
        viewport: { width: size.width, height: size.height },
      });
      const page = await context.newPage();
      await page.goto('/console/login');
      await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
      await saveScreen(page, `console-${size.name}-login`);
      await expectNoAccessibilityViolations(page);
      await signIn(page, 'owner@clinic.example', 'owner password 1');

      for (const entry of pages) {
        await page.goto(entry.path);
        await expect(page.getByRole('heading', { level: 1, name: entry.heading })).toBeVisible({
          timeout: 15_000,
        });
        // Loaded: no "Loading …" spinner left.
        await expect(page.getByText(/^Loading .*…$/)).toHaveCount(0, { timeout: 15_000 });
        // Nothing wider than the screen (tables scroll inside their own box).
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${entry.name} at ${size.name} scrolls sideways`).toBeLessThanOrEqual(0);
        await saveScreen(page, `console-${size.name}-${entry.name}`);
        await expectNoAccessibilityViolations(page);
      }

      if (size.name === 'phone') {
        // The menu is a drawer on a phone, reachable by keyboard.
        await page.goto('/console/calls');
        await page.getByRole('button', { name: 'Open the menu' }).click();
        const nav = page.getByRole('navigation', { name: 'Console' });
        await expect(nav.getByRole('link', { name: 'Usage' })).toBeVisible();
        await saveScreen(page, 'console-phone-menu');
        await nav.getByRole('link', { name: 'Usage' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
      }
      await context.close();
    } finally {
      await server.close();
    }
  });
}
