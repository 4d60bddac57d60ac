import { createVerifiedUser, expect, test, uniqueEmail, watchConsole } from './support/fixtures';
import type { Stack } from './support/stack';

/** Every link mailed to an address so far, oldest first, once at least `count` have arrived. */
async function linksMailedTo(stack: Stack, email: string, count: number): Promise<string[]> {
  await expect.poll(() => stack.mails.filter((m) => m.to.includes(email)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  return stack.mails.filter((m) => m.to.includes(email)).map((m) => m.text.match(/https?:\/\/[^\s"<]+/)?.[0] ?? '');
}

test('forgot password: the mailed link, a new password confirmed twice, then sign in with it', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const person = await createVerifiedUser(stack, 'Forgetful Person');
  const mailsBefore = stack.mails.filter((m) => m.to.includes(person.email)).length;

  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot password?' })).toBeVisible();
  await expect(page).toHaveTitle('Forgot password · Inkwell');
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText('If an account exists for this email, we sent it a link to reset the password.')).toBeVisible();

  const link = (await linksMailedTo(stack, person.email, mailsBefore + 1)).pop()!;
  expect(link).toMatch(new RegExp(`^${stack.baseURL}/reset-password/[A-Za-z0-9_-]{43}$`));
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();

  // The confirmation must match; a common password gets the server's message.
  await page.getByLabel('New Password', { exact: true }).fill('a-brand-new-start');
  await page.getByLabel('Confirm New Password').fill('a-brand-new-starx');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('New Password', { exact: true }).fill('password1');
  await page.getByLabel('Confirm New Password').fill('password1');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.locator('#reset-password-error')).toHaveText(/one of the most common passwords/);

  await page.getByLabel('New Password', { exact: true }).fill('a-brand-new-start');
  await page.getByLabel('Confirm New Password').fill('a-brand-new-start');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByText('Your password has been reset. Please sign in with your new password.')).toBeVisible();

  // The old session token stopped working everywhere.
  const me = await fetch(`${stack.baseURL}/api/v1/me`, { headers: { authorization: `Bearer ${person.user.token}` } });
  expect(me.status).toBe(401);

  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill('a-brand-new-start');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null')?.email)).toBe(person.email);

  // The link was single use.
  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill('yet-another-start');
  await page.getByLabel('Confirm New Password').fill('yet-another-start');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.locator('#reset-password-error')).toHaveText(
    'This password reset link is invalid or has expired. Please ask for a new one.',
  );
  expect(problems).toEqual([]);
});

test('the first of two verification links works, and a link of a verified account lands on /signin with the message', async ({
  page,
  stack,
}) => {
  const email = uniqueEmail('twolinks');
  const password = 'quill-and-ink-42';
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Two Links');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/signin$/);

  // Signing in before verifying mails a second link.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Please verify your email before signing in. We sent you a new verification link.')).toBeVisible();
  const [first, second] = await linksMailedTo(stack, email, 2);
  expect(first).not.toBe(second);

  await page.goto(first!);
  await expect(page.getByText('Email verified successfully. You can now sign in.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });

  await page.goto(second!);
  await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });
  await expect(page.getByText('Your email is already verified. Please sign in.').first()).toBeVisible();

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
});
