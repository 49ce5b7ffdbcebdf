import { expect, expectNoAccessibilityViolations, saveScreen, test } from './support/fixtures.js';

const PHONE = { width: 360, height: 740 };

test.describe('every screen on a phone-sized screen, checked for accessibility', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  const screens: { name: string; path: string; ready: string; session?: boolean }[] = [
    { name: 'code-entry', path: '/', ready: 'Talk to Assistant' },
    { name: 'call-booth', path: '/call-section', ready: 'Start Call', session: true },
    { name: 'call-booth-no-session', path: '/call-section', ready: 'No assistant session' },
    { name: 'register', path: '/register', ready: 'Register' },
  ];

  for (const screen of screens) {
    test(`${screen.name} fits 360 px and has no accessibility violations`, async ({
      page,
      talkServer,
    }) => {
      if (screen.session) {
        await page.goto(`/?unicode=${talkServer.demoCode}`);
        await expect(page).toHaveURL(/\/call-section$/);
      } else {
        await page.goto(screen.path);
      }
      await expect(page.getByText(screen.ready, { exact: true }).first()).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAccessibilityViolations(page);
      await saveScreen(page, `phone-${screen.name}`);
    });
  }

  test('desktop screens have no accessibility violations either', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of ['/', '/register', '/call-section']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expectNoAccessibilityViolations(page);
    }
  });
});
