import SQLite from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, expectNoAccessibilityViolations, saveScreen, test } from './support/fixtures.js';
import { launchWithMicrophone, microphoneWav } from './support/fake-microphone.js';
import { startTalkServer, type TalkServer } from './support/talk-server.js';

/**
 * The whole visit in Debian's Chromium: the demo code, Start Call with the fake microphone
 * speaking a line synthesised at test time, the greeting by name, the question heard and
 * answered out loud, End Call, feedback, home; then the stored records.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

interface CallRecord {
  id: string;
  status: string;
  endedReason?: string;
  messages?: { role: string; message: string }[];
  transcript?: string;
}

async function calls(server: TalkServer): Promise<CallRecord[]> {
  const response = await fetch(`${server.baseURL}/platform/call`, {
    headers: { authorization: `Bearer ${server.privateKey}` },
  });
  return (await response.json()) as CallRecord[];
}

/**
 * Samples the assistant's voice meter every 100 ms until `stop()` (or the page closes);
 * `stop()` answers the highest value it showed. It runs beside the test's own steps, so it
 * spans every word the assistant speaks: sampling only until the greeting's text appeared
 * could end before its audio began to play, and failed CI once.
 */
function voiceMeterSampler(page: Page): { stop(): Promise<number> } {
  let loudest = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped && !page.isClosed()) {
      const value = await page
        .getByRole('meter', { name: "Assistant's voice level" })
        .getAttribute('aria-valuenow', { timeout: 1_000 })
        .catch(() => null);
      loudest = Math.max(loudest, Number(value ?? 0));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return loudest;
    },
  };
}

test('a visitor talks to the demo clinic and leaves feedback', async () => {
  const server = await startTalkServer({ env: { WARM_ASSISTANTS: '3' } });
  // The caller starts talking well after the greeting (about 2.5 s) has played: once, on a
  // loaded CI machine, the call took long enough to start that the question barged into
  // the greeting, and the record rightly held only the part spoken.
  const wav = await microphoneWav([
    { pause: 11 },
    { say: 'what are your opening hours' },
    { pause: 14 },
  ]);
  const browser = await launchWithMicrophone(wav);
  try {
    const context = await browser.newContext({
      baseURL: server.baseURL,
      viewport: { width: 1280, height: 900 },
    });
    await context.grantPermissions(['microphone'], { origin: server.baseURL });
    const page = await context.newPage();
    await page.goto(`/?unicode=${server.demoCode}`);
    await expect(page.getByTestId('assistant-id')).toHaveText(server.assistantId);

    await page.getByRole('button', { name: 'Start Call' }).click();
    await expect(page.getByRole('button', { name: 'End Call' })).toBeVisible({ timeout: 30_000 });
    const transcript = page.getByRole('log', { name: 'Conversation transcript' });
    const meter = voiceMeterSampler(page);
    await expect(transcript).toContainText('Hello Alex, how can I help you today?', {
      timeout: 20_000,
    });
    await saveScreen(page, 'live-call-greeting');

    // What the recogniser made of the fake microphone (through the browser's own audio
    // processing); the answer below shows it understood.
    await expect(transcript).toContainText(/You: what are your opening/, { timeout: 30_000 });
    await expect(transcript).toContainText('We are open Monday to Friday', { timeout: 20_000 });
    await expect(
      page.getByText(/Call time \d\d:\d\d/).or(page.getByLabel(/Call time \d\d:\d\d/)),
    ).toBeVisible();
    await expect(page.getByText('Assistant is speaking…')).toBeVisible({ timeout: 10_000 });
    await saveScreen(page, 'live-call-answer');
    await expectNoAccessibilityViolations(page);
    // Hear the answer out before hanging up, so the record holds all of it.
    await expect(page.getByText('Listening…')).toBeVisible({ timeout: 30_000 });
    // Audio really played in the page: the meter, driven by the played output, moved.
    expect(await meter.stop()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'End Call' }).click();
    const dialog = page.getByRole('dialog', { name: 'Feedback' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('How was your call experience?')).toBeVisible();
    await dialog.getByLabel('Your Feedback').fill('Quick and clear answer about the hours.');
    await saveScreen(page, 'live-call-feedback');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'Talk to Assistant' })).toBeVisible();
    await expect(page).toHaveURL(`${server.baseURL}/`);

    const [call] = await calls(server);
    expect(call).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    expect(call!.transcript).toContain('AI: Hello Alex, how can I help you today?');
    expect(call!.transcript).toMatch(/User: what are your opening/);
    expect(
      call!.messages?.some(
        (m) => m.role === 'bot' && m.message.includes('We are open Monday to Friday'),
      ),
    ).toBe(true);

    const db = new SQLite(server.databaseFile, { readonly: true });
    const feedback = db.prepare('select call_id, message from feedback').all();
    db.close();
    expect(feedback).toEqual([
      { call_id: call!.id, message: 'Quick and clear answer about the hours.' },
    ]);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});

test('without the microphone the booth says how to allow it and stays ready', async ({
  browser,
  talkServer,
}) => {
  const context = await browser.newContext({ baseURL: talkServer.baseURL });
  const page = await context.newPage();
  await page.goto(`/?unicode=${talkServer.demoCode}`);
  await page.getByRole('button', { name: 'Start Call' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Microphone permission is needed to make calls. Please enable it in your settings.',
  );
  await expect(page.getByRole('button', { name: 'Start Call' })).toBeEnabled();
  await saveScreen(page, 'live-call-microphone-denied');
  await context.close();
});

test('the server going away mid-call: the booth says so, the record ends cleanly', async () => {
  const server = await startTalkServer({ env: { WARM_ASSISTANTS: '3' } });
  const wav = await microphoneWav([{ pause: 30 }]);
  const browser = await launchWithMicrophone(wav);
  try {
    const context = await browser.newContext({ baseURL: server.baseURL });
    await context.grantPermissions(['microphone'], { origin: server.baseURL });
    const page = await context.newPage();
    await page.goto(`/?unicode=${server.demoCode}`);
    await page.getByRole('button', { name: 'Start Call' }).click();
    const transcript = page.getByRole('log', { name: 'Conversation transcript' });
    await expect(transcript).toContainText('Hello Alex', { timeout: 30_000 });
    const [live] = await calls(server);
    await server.close();

    await expect(
      page.getByRole('dialog', { name: 'Feedback' }).or(page.getByText('Connection lost')),
    ).toBeVisible({ timeout: 15_000 });
    await saveScreen(page, 'live-call-server-gone');

    const db = new SQLite(server.databaseFile, { readonly: true });
    const record = db.prepare('select status, ended_reason from calls where id = ?').get(live!.id);
    db.close();
    expect(record).toEqual({ status: 'ended', ended_reason: 'server-shutdown' });
    await context.close();
  } finally {
    await browser.close();
  }
});
