import fs from 'node:fs';
import { expect, expectNoAccessibilityViolations, saveScreen, test } from './support/fixtures.js';
import { launchWithMicrophone, microphoneWav } from './support/fake-microphone.js';
import { startTalkServer } from './support/talk-server.js';

/**
 * The operator's whole day in Debian's Chromium: register, sign in, make an access code
 * and see its card; a visitor uses that code in the booth (fake microphone) and starts a
 * brief; the call, its brief and the feedback appear in the console; the briefs export
 * as CSV; the usage chart counts the call; sign out.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test('register → sign in → access code → a call through the booth → the console shows it all → sign out', async () => {
  const server = await startTalkServer({ env: { WARM_ASSISTANTS: '3' } });
  // The caller waits out the greeting, asks for a brief, answers its first question.
  const wav = await microphoneWav([
    { pause: 12 },
    { say: 'i would like to give a brief' },
    { pause: 10 },
    { say: 'i have a bad cough and a sore throat' },
    { pause: 20 },
  ]);
  const browser = await launchWithMicrophone(wav);
  try {
    const context = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    await context.grantPermissions(['microphone'], { origin: server.baseURL });
    const page = await context.newPage();

    // Register: the first account of this install owns the demo clinic.
    await page.goto('/');
    await page.getByRole('link', { name: 'Staff sign-in' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByPlaceholder('Username').fill('Dr Rivers');
    await page.getByPlaceholder('Email').fill('rivers@clinic.example');
    await page.getByPlaceholder('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page.getByRole('status')).toContainText('and owns');
    await page.getByRole('link', { name: 'Sign in to the console' }).click();

    // Sign in; a wrong password first.
    await page.getByLabel('E-mail address').fill('rivers@clinic.example');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The e-mail address or the password is not right.',
    );
    await saveScreen(page, 'console-login-refused');
    await page.getByLabel('Password', { exact: true }).fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Calls and briefs' })).toBeVisible();
    await expect(page.getByText('No calls yet.')).toBeVisible();

    // An access code with its printable card.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Access codes' })
      .click();
    await page.getByRole('button', { name: 'New access code' }).click();
    const dialog = page.getByRole('dialog', { name: 'New access code' });
    await dialog.getByLabel('Label').fill('Waiting room poster');
    await dialog.getByRole('button', { name: 'Create code' }).click();
    const created = page.getByRole('dialog', { name: 'Your new access code' });
    const card = created.getByTestId('access-code-card');
    await expect(card.getByRole('img', { name: /QR code of http/ })).toBeVisible();
    const code = (await card.locator('p').last().textContent())!.trim();
    expect(code).toMatch(/^[\w-]{6,}$/);
    await saveScreen(page, 'console-access-code-card');
    await expectNoAccessibilityViolations(page);
    // On paper, the card alone.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: 'Access codes' })).toBeHidden();
    // (The dialog around it is hidden on paper, so the card is found by itself.)
    await expect(page.getByTestId('access-code-card')).toBeVisible();
    await saveScreen(page, 'console-access-code-card-print');
    await page.emulateMedia({ media: 'screen' });
    await created.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('table', { name: 'Access codes' })).toContainText(
      'Waiting room poster',
    );

    // A visitor uses the code in the booth and starts a brief.
    await page.goto(`/?unicode=${encodeURIComponent(code)}`);
    await page.getByRole('button', { name: 'Start Call' }).click();
    const transcript = page.getByRole('log', { name: 'Conversation transcript' });
    await expect(transcript).toContainText('What is the main reason for your visit?', {
      timeout: 45_000,
    });
    await expect(transcript).toContainText('How long have you had these symptoms?', {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'End Call' }).click();
    const feedback = page.getByRole('dialog', { name: 'Feedback' });
    await feedback.getByLabel('Your Feedback').fill('Easy to use before my visit.');
    await feedback.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'Talk to Assistant' })).toBeVisible();

    // The console: the call, its brief and the feedback.
    await page.goto('/console/calls');
    const calls = page.getByRole('table', { name: 'Calls' });
    await expect(calls.getByRole('row')).toHaveCount(2);
    await expect(calls).toContainText('Brief');
    await expect(calls).toContainText('Customer ended call');
    await saveScreen(page, 'console-calls');
    await calls.getByRole('link').first().click();
    await expect(page.getByRole('heading', { name: /^Call of / })).toBeVisible();
    const brief = page.getByRole('region', { name: 'Brief' });
    await expect(brief.getByText('Reason', { exact: true })).toBeVisible();
    await expect(brief.locator('dd').first()).not.toHaveText('Not answered');
    await expect(brief.locator('dd').nth(1)).toHaveText('Not answered');
    await expect(page.getByRole('region', { name: 'Visitor feedback' })).toContainText(
      'Easy to use before my visit.',
    );
    await expect(page.getByRole('list', { name: 'Transcript' })).toContainText(
      'What is the main reason for your visit?',
    );
    await expect(page.getByRole('table', { name: 'Response time per turn' })).toContainText(' ms');
    await saveScreen(page, 'console-call');
    await expectNoAccessibilityViolations(page);

    await page.getByRole('link', { name: 'Print the brief' }).click();
    await expect(page.getByRole('heading', { name: 'Pre-visit brief' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await saveScreen(page, 'console-brief-print');
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    // The briefs as CSV.
    await page.goto('/console/calls');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const [header, row, ...rest] = csv.trim().split('\n');
    expect(header).toBe(
      'call time (UTC),call id,assistant,urgent,confirmed,reason,duration,medications,allergies',
    );
    expect(rest).toEqual([]);
    expect(row).toMatch(/,no,no,[^,]+,,,$/);

    // Usage counts the call.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Usage' })
      .click();
    await expect(page.getByText('1 call in the last 30 days.')).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('svg').first()).toBeVisible();
    await saveScreen(page, 'console-usage');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
    await page.goto('/console/calls');
    await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
