import { expect, saveScreen, test } from './support/fixtures.js';

test.describe('registration in Chromium against the real server', () => {
  test('registers an account, then refuses the same e-mail with the server message', async ({
    page,
  }) => {
    const email = `visitor-${Date.now()}@example.com`;
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
    await expect(page.getByPlaceholder('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByPlaceholder('Password')).toHaveAttribute('type', 'password');
    await saveScreen(page, 'register');

    await page.getByPlaceholder('Username').fill('Visitor One');
    await page.getByPlaceholder('Email').fill(email);
    await page.getByPlaceholder('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByRole('status')).toContainText('Welcome, Visitor One!');
    await expect(page.getByPlaceholder('Password')).toHaveValue('');
    await saveScreen(page, 'register-success');

    await page.reload();
    await page.getByPlaceholder('Username').fill('Visitor Two');
    await page.getByPlaceholder('Email').fill(email.toUpperCase());
    await page.getByPlaceholder('Password').fill('another long password');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(
      page.getByText('An account with this e-mail address already exists. Use another address.'),
    ).toBeVisible();
    await saveScreen(page, 'register-duplicate');
  });

  test('explains what to fix before anything is sent', async ({ page }) => {
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/register')) sent += 1;
    });
    await page.goto('/register');
    await page.getByPlaceholder('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(
      page.getByText('Enter a valid e-mail address, like name@example.com.'),
    ).toBeVisible();
    await expect(page.getByText('Enter a username.')).toBeVisible();
    await expect(page.getByText('Enter a password.')).toBeVisible();
    expect(sent).toBe(0);
    await saveScreen(page, 'register-errors');
  });
});
