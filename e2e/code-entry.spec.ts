import type { Page } from '@playwright/test';
import { expect, saveScreen, test } from './support/fixtures.js';
import { startTalkServer } from './support/talk-server.js';

const field = (page: Page) => page.getByRole('textbox', { name: 'UniCode' });
const submit = (page: Page) => page.getByRole('button', { name: 'Talk to Assistant' });

test.describe('code entry in Chromium against the real server', () => {
  test('a valid code opens the booth, which shows the assistant id', async ({
    page,
    talkServer,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Talk to Assistant' })).toBeVisible();
    await saveScreen(page, 'code-entry');
    await field(page).fill(talkServer.demoCode);
    await submit(page).click();

    await expect(page).toHaveURL(/\/call-section$/);
    await expect(page.getByTestId('assistant-id')).toHaveText(talkServer.assistantId);
    const stored = await page.evaluate(() => sessionStorage.getItem('apiResponse'));
    const config = (await (await page.request.get('/api/client-config')).json()) as {
      platformPublicKey: string;
    };
    expect(JSON.parse(stored ?? 'null')).toEqual({
      assistantId: talkServer.assistantId,
      assistantName: 'Riverside Clinic front desk',
      product: 'medibrief',
      // The demo's codes start calls with the same key the web app is configured with.
      platformPublicKey: config.platformPublicKey,
    });
    await expect(page.getByRole('button', { name: 'Start Call' })).toBeVisible();
    await saveScreen(page, 'call-booth');
  });

  test('the page arrives drawn, with the clinic named, and the browser takes it over as it is', async ({
    browser,
    page,
    talkServer,
  }) => {
    // The HTML itself holds the page and the data it was drawn with.
    const html = await (await page.request.get('/')).text();
    const root = /<div id="root">([\s\S]*?)<\/div><script id="talkbooth-boot"/.exec(html);
    expect(root?.[1]).toContain('Talk to Assistant');
    expect(root?.[1]).toMatch(/from (<!-- -->)?Riverside Clinic/);
    // Without JavaScript, the visitor still sees the page, field and all.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      const still = await noScript.newPage();
      await still.goto(`${talkServer.baseURL}/`);
      await expect(still.getByRole('heading', { name: 'Talk to Assistant' })).toBeVisible();
      await expect(field(still)).toBeVisible();
      await expect(still.getByText(/from Riverside Clinic/)).toBeVisible();
    } finally {
      await noScript.close();
    }
    // With it, the app adopts that markup (the heading parsed from the HTML, before any
    // script ran, is the one on the page after), and fetches nothing to draw it.
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive')
          (window as unknown as { parsed: Element | null }).parsed = document.querySelector('h1');
      });
    });
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto('/');
    await field(page).fill('typed after the takeover');
    await expect(field(page)).toHaveValue('typed after the takeover');
    const sameHeading = await page.evaluate(() => {
      const parsed = (window as unknown as { parsed: Element | null }).parsed;
      return parsed !== null && parsed === document.querySelector('h1');
    });
    expect(sameHeading).toBe(true);
    expect(messages.filter((m) => /hydrat|drawn again|did not match/i.test(m))).toEqual([]);
    expect(fetched).not.toContain('/api/client-config');
    expect(fetched.filter((p) => p.startsWith('/api/collections/'))).toEqual([]);
  });

  test('the keyboard alone is enough: tab to the field, type, press Enter', async ({
    page,
    talkServer,
  }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    // Tab through the header until the UniCode field has focus.
    for (
      let i = 0;
      i < 10 && !(await field(page).evaluate((el) => el === document.activeElement));
      i += 1
    ) {
      await page.keyboard.press('Tab');
    }
    await expect(field(page)).toBeFocused();
    await page.keyboard.type(talkServer.demoCode);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/call-section$/);
  });

  test('an unknown code says Invalid UniCode and stays on the page', async ({ page }) => {
    await page.goto('/');
    await field(page).fill('not-a-real-code');
    await submit(page).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid UniCode');
    await expect(page).toHaveURL(/\/$/);
    await expect(field(page)).toHaveValue('not-a-real-code');
    expect(await page.evaluate(() => sessionStorage.getItem('apiResponse'))).toBeNull();
    await saveScreen(page, 'code-entry-invalid');
  });

  test('the code is sent exactly as typed', async ({ page }) => {
    await page.goto('/');
    const sent = page.waitForRequest('**/api/get-assistant');
    await field(page).fill('  Mixed Case-Code ');
    await submit(page).click();
    expect((await sent).postDataJSON()).toEqual({ unicode: '  Mixed Case-Code ' });
  });

  test('a server error shows Error validating credentials with the server message', async ({
    page,
  }) => {
    await page.route('**/api/get-assistant', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'Something went wrong on our side. Please try again in a moment.',
        }),
      }),
    );
    await page.goto('/');
    await field(page).fill('any-code');
    await submit(page).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Error validating credentials: Something went wrong on our side. Please try again in a moment.',
    );
    await saveScreen(page, 'code-entry-server-error');
  });

  test('a dropped connection shows Error validating credentials with the browser message', async ({
    page,
  }) => {
    await page.route('**/api/get-assistant', (route) => route.abort('connectionreset'));
    await page.goto('/');
    await field(page).fill('any-code');
    await submit(page).click();
    await expect(page.getByRole('alert')).toHaveText(/^Error validating credentials: .+/);
  });

  test('an unexpected answer shows Unexpected response format', async ({ page }) => {
    await page.route('**/api/get-assistant', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '"surprise"' }),
    );
    await page.goto('/');
    await field(page).fill('any-code');
    await submit(page).click();
    await expect(page.getByRole('alert')).toHaveText('Unexpected response format');
  });

  test('?unicode= in the URL fills the field and checks it at once, with one request', async ({
    page,
    talkServer,
  }) => {
    let checks = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/get-assistant')) checks += 1;
    });
    await page.goto(`/?unicode=${talkServer.demoCode}`);
    await expect(page).toHaveURL(/\/call-section$/);
    await expect(page.getByTestId('assistant-id')).toHaveText(talkServer.assistantId);
    expect(checks).toBe(1);
  });

  test('the /:unicode path checks the code at once too', async ({ page, talkServer }) => {
    await page.goto(`/${talkServer.demoCode}`);
    await expect(page).toHaveURL(/\/call-section$/);
    await expect(page.getByTestId('assistant-id')).toHaveText(talkServer.assistantId);
  });

  test('an unknown code in the path is shown in the field with Invalid UniCode', async ({
    page,
  }) => {
    await page.goto('/wrong-code');
    await expect(page.getByRole('alert')).toHaveText('Invalid UniCode');
    await expect(field(page)).toHaveValue('wrong-code');
  });

  test('too many wrong codes: the real 429 says when to try again', async ({ page }) => {
    const strict = await startTalkServer({ guessLimit: { max: 2, timeWindowMs: 15 * 60 * 1000 } });
    try {
      await page.goto(strict.baseURL);
      for (const guess of ['wrong-1', 'wrong-2']) {
        await field(page).fill(guess);
        await submit(page).click();
        await expect(page.getByRole('alert')).toHaveText('Invalid UniCode');
      }
      await field(page).fill(strict.demoCode);
      await submit(page).click();
      await expect(page.getByRole('alert')).toHaveText(
        'Error validating credentials: Too many wrong codes from your network. Try again in 15 minutes.',
      );
      await saveScreen(page, 'code-entry-rate-limited');
    } finally {
      await strict.close();
    }
  });
});
