import { expect, saveScreen, test } from './support/fixtures.js';
import { startTalkServer } from './support/talk-server.js';

test.describe('call booth in Chromium against the real server', () => {
  test('without a session it says so and leads back to code entry', async ({ page }) => {
    await page.goto('/call-section');
    await expect(page.getByText('No assistant session')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start Call' })).toHaveCount(0);
    await saveScreen(page, 'call-booth-no-session');
    await page.getByRole('link', { name: 'Enter a UniCode' }).click();
    await expect(page.getByRole('heading', { name: 'Talk to Assistant' })).toBeVisible();
  });

  test('an unreadable session counts as none', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => sessionStorage.setItem('apiResponse', '{not json'));
    await page.goto('/call-section');
    await expect(page.getByText('No assistant session')).toBeVisible();
  });

  test('Start Call says calling is not available when the server hands out no platform key', async ({
    page,
    talkServer,
  }) => {
    // The configuration comes inside the page (its boot data), or from /api/client-config
    // when a page has none: both are answered without the key.
    await page.route(
      (url) => url.pathname === '/',
      async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(/("platformPublicKey":)"[^"]*"/, '$1null');
        expect(html).toContain('"platformPublicKey":null');
        await route.fulfill({ response, body: html });
      },
    );
    await page.route('**/api/client-config', async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        json: { ...(await response.json()), platformPublicKey: null },
      });
    });
    await page.goto(`/?unicode=${talkServer.demoCode}`);
    await expect(page.getByTestId('assistant-id')).toHaveText(talkServer.assistantId);
    await page.getByRole('button', { name: 'Start Call' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'Voice calls are not available on this server yet.',
    );
    await expect(page.getByRole('button', { name: 'Start Call' })).toBeEnabled();
    await saveScreen(page, 'call-booth-unavailable');
  });

  test('Start Call says all lines are busy when the server is at its call limit', async ({
    browser,
  }) => {
    // A server of its own that takes one call at a time, already taken.
    const server = await startTalkServer({ env: { MAX_LIVE_CALLS: '1' } });
    try {
      const taken = await fetch(`${server.baseURL}/platform/call/web`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.privateKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ assistantId: server.assistantId }),
      });
      expect(taken.status).toBe(201);
      const context = await browser.newContext({ baseURL: server.baseURL });
      const page = await context.newPage();
      await page.goto(`/?unicode=${server.demoCode}`);
      await page.getByRole('button', { name: 'Start Call' }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('The call could not start');
      await expect(alert).toContainText(
        'All lines are busy (this server takes one call at a time). Please try again in a minute.',
      );
      await expect(page.getByRole('button', { name: 'Start Call' })).toBeEnabled();
      await saveScreen(page, 'call-booth-lines-busy');
      await context.close();
    } finally {
      await server.close();
    }
  });

  test('a booth chunk that fails to load shows an error, and Retry loads it', async ({
    page,
    talkServer,
  }) => {
    let failures = 0;
    await page.route(/\/assets\/CallBoothPage-[\w-]+\.js$/, (route) => {
      if (failures === 0) {
        failures += 1;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.goto(`/?unicode=${talkServer.demoCode}`);
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
    await saveScreen(page, 'call-booth-load-failed');
    expect(failures).toBe(1);

    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('assistant-id')).toHaveText(talkServer.assistantId);
    await expect(page.getByRole('button', { name: 'Start Call' })).toBeVisible();
  });
});
