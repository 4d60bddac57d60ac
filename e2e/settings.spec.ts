import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

test('theme select: light, dark and system, with the applied theme shown', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const alice = await createVerifiedUser(stack, 'Theme Person');
  await page.emulateMedia({ colorScheme: 'dark' });
  await signInAs(page, alice.user);
  await page.goto('/setting');

  await expect(page.getByRole('tab', { name: 'Privacy Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab')).toHaveText(['Privacy Settings', 'Interface Preferences', 'Change Password', 'Account']);
  await page.getByRole('tab', { name: 'Interface Preferences' }).click();
  const select = page.getByLabel('Theme', { exact: true });
  const html = page.locator('html');
  const applied = page.getByTestId('applied-theme');

  await select.selectOption({ label: 'Light Mode' });
  await expect(page.getByText('Theme set to light')).toBeVisible();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(applied).toContainText('Light');

  await select.selectOption({ label: 'Dark Mode' });
  await expect(page.getByText('Theme set to dark')).toBeVisible();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(applied).toContainText('Dark');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  // System Default follows the OS (emulated dark, then light).
  await select.selectOption({ label: 'System Default' });
  await expect(page.getByText('Theme set to system')).toBeVisible();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(applied).toContainText('Light');
  await page.reload();
  await page.getByRole('tab', { name: 'Interface Preferences' }).click();
  await expect(page.getByLabel('Theme', { exact: true })).toHaveValue('system');
  expect(problems).toEqual([]);
});

test("change password: 'Passwords don't match', a wrong current password, then success and sign in again", async ({ page, stack }) => {
  const problems = watchConsole(page);
  const alice = await createVerifiedUser(stack, 'Password Person');
  const oldToken = alice.user.token;
  await signInAs(page, alice.user);
  await page.goto('/setting?tab=password');

  await page.getByLabel('Current Password').fill(alice.password);
  await page.getByLabel('New Password', { exact: true }).fill('brand-new-secret');
  await page.getByLabel('Confirm New Password').fill('brand-new-secrex');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();

  // A wrong current password is an ordinary error: the person stays signed in on the form.
  await page.getByLabel('Current Password').fill('not-my-password');
  await page.getByLabel('Confirm New Password').fill('brand-new-secret');
  await expect(page.getByText("Passwords don't match")).toBeHidden();
  await page.getByRole('button', { name: 'Change Password' }).click();
  // In the toast and (first in the page) at the field.
  await expect(page.getByText('Current password is incorrect').first()).toBeVisible();
  await expect(page).toHaveURL(/\/setting\?tab=password$/);
  expect(await page.evaluate(() => localStorage.getItem('user'))).not.toBeNull();

  await page.getByLabel('Current Password').fill(alice.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  // The old token no longer works.
  const me = await fetch(`${stack.baseURL}/api/v1/me`, { headers: { authorization: `Bearer ${oldToken}` } });
  expect(me.status).toBe(401);

  // The old password fails, the new one signs in.
  await page.getByLabel('Email').fill(alice.email);
  await page.getByLabel('Password').fill(alice.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await page.getByLabel('Password').fill('brand-new-secret');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('the settings pages need sign-in and keep the chosen tab in the URL', async ({ page, stack }) => {
  const alice = await createVerifiedUser(stack, 'Tab Person');
  await signInAs(page, alice.user);
  await page.goto('/setting?tab=account');
  await expect(page.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Danger Zone' })).toBeVisible();
  await page.getByRole('tab', { name: 'Privacy Settings' }).press('ArrowDown');
  await expect(page.getByRole('tab', { name: 'Interface Preferences' })).toBeFocused();
  await expect(page).toHaveURL(/\/setting\?tab=interface$/);
});
