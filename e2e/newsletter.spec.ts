import type { Page } from '@playwright/test';
import { axeScan, formatFindings, isBlocking } from './support/axe';
import { createVerifiedUser, expect, signInAs, test, uniqueEmail, waitForApp, watchConsole } from './support/fixtures';
import type { Stack } from './support/stack';

/** The path of a link of the given kind in the newest mail to an address, as its reader would click it. */
async function mailedPath(stack: Stack, email: string, kind: 'confirm' | 'unsubscribe'): Promise<string> {
  let path = '';
  await expect
    .poll(() => {
      const mail = stack.mails.filter((m) => m.to.includes(email)).pop();
      path = mail?.text.match(new RegExp(`https?://[^/\\s]+(/newsletter/${kind}/[A-Za-z0-9_-]+)`))?.[1] ?? '';
      return path;
    })
    .not.toBe('');
  return path;
}

async function expectAxeClean(page: Page, screen: string) {
  const findings = await axeScan(page, screen);
  expect(findings.filter(isBlocking), formatFindings(findings)).toEqual([]);
}

test('subscribe on the home page, confirm by the mailed link, unsubscribe by the page button', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('newsletter');
  await page.goto('/');
  await waitForApp(page);
  const form = page.getByRole('region', { name: 'Stay in the loop' });
  await form.getByLabel('Email address').fill(email);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByRole('button', { name: 'Subscribing...' })).toBeDisabled();
  await expect(form.getByText("Thanks for subscribing! You'll hear from us soon.")).toBeVisible();
  await expect(form.getByRole('textbox')).toHaveCount(0);

  // The confirmation mail reached the SMTP server; its link opens the confirmation page.
  const confirm = await mailedPath(stack, email, 'confirm');
  const mail = stack.mails.filter((m) => m.to.includes(email)).pop()!;
  expect(mail.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  await page.goto(confirm);
  await expect(page).toHaveTitle(/Confirm subscription/);
  await expect(page.getByRole('status')).toContainText('Your subscription is confirmed.');
  await expectAxeClean(page, 'newsletter confirmed');

  // Opening the unsubscribe link changes nothing until the button is pressed.
  const unsubscribe = await mailedPath(stack, email, 'unsubscribe');
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(unsubscribe);
  await expect(page).toHaveTitle(/Unsubscribe/);
  await expectAxeClean(page, 'newsletter unsubscribe');
  const button = page.getByRole('button', { name: 'Unsubscribe' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('You have been unsubscribed.');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect(problems).toEqual([]);
});

test('a wrong confirmation link says so', async ({ page }) => {
  await page.goto('/newsletter/confirm/not-a-real-token');
  await expect(page.getByRole('status')).toContainText('This confirmation link is invalid or has expired.');
});

test('Settings: the digest of followed authors is saved and kept after a reload', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const reader = await createVerifiedUser(stack, 'Digest Reader');
  await page.emulateMedia({ colorScheme: 'dark' });
  await signInAs(page, reader.user);
  await page.goto('/setting');
  const select = page.getByLabel('Digest of the authors you follow');
  await expect(select).toHaveValue('off');
  await select.selectOption({ label: 'Weekly (every Monday)' });
  await expect(page.getByText('Digest settings saved')).toBeVisible();
  await expectAxeClean(page, 'settings with digest [dark]');
  await page.reload();
  await expect(page.getByLabel('Digest of the authors you follow')).toHaveValue('weekly');
  expect(problems).toEqual([]);
});
