import type { Locator, Page } from '@playwright/test';
import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { toast } from './support/reading';

/**
 * Settings forms show a failure next to the form (role="alert", or the field's own error that its
 * aria-describedby names) as well as SPEC.md 8's toast; they used to show the toast only.
 */

/** Answers one call with a 500 and no message, so the form's own failure text is used. */
const failCall = (page: Page, path: string, method: string) =>
  page.route(`**/api/v1${path}`, (route) =>
    route.request().method() === method ? route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }) : route.fallback(),
  );

async function expectInline(area: Locator, page: Page, text: string) {
  await expect(toast(page, text)).toBeVisible();
  await expect(area.getByRole('alert').filter({ hasText: text })).toBeVisible();
}

test('password change and account deletion show a wrong current password at the field', async ({ page, stack }) => {
  const ada = await createVerifiedUser(stack, 'Inline Ada');
  await signInAs(page, ada.user);

  await page.goto('/setting?tab=password');
  const current = page.getByLabel('Current Password');
  await current.fill('not-my-password');
  await page.getByLabel('New Password', { exact: true }).fill('brand-new-secret');
  await page.getByLabel('Confirm New Password').fill('brand-new-secret');
  await page.getByRole('button', { name: 'Change Password' }).press('Enter');
  await expect(toast(page, 'Current password is incorrect')).toBeVisible();
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  // The keyboard's focus goes to the field to correct (the disabled button had lost it).
  await expect(current).toBeFocused();
  await expect(current).toHaveAccessibleDescription('Current password is incorrect');
  // Typing again clears it.
  await current.fill('x');
  await expect(current).not.toHaveAttribute('aria-invalid', 'true');

  // Any other failure: under the form, with SPEC's 'Failed to change password'.
  await failCall(page, '/change-password', 'PATCH');
  await current.fill(ada.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expectInline(page.getByRole('tabpanel'), page, 'Failed to change password');

  await page.goto('/setting?tab=account');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const password = dialog.getByLabel('Current Password');
  await password.fill('wrong-password');
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();
  await expect(toast(page, 'Current password is incorrect')).toBeVisible();
  await expect(password).toHaveAccessibleDescription('Current password is incorrect');

  await failCall(page, `/users/${ada.user.id}`, 'DELETE');
  await password.fill(ada.password);
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();
  await expectInline(dialog, page, 'Failed to delete account');
  expect(await page.evaluate(() => localStorage.getItem('user'))).not.toBeNull();
});

test('transfer, sign-out everywhere and download failures show next to their section', async ({ page, stack }) => {
  const bo = await createVerifiedUser(stack, 'Inline Bo');
  const recipient = await createVerifiedUser(stack, 'Inline Recipient');
  await signInAs(page, bo.user);
  await page.goto('/setting?tab=account');

  await failCall(page, '/transfer-account', 'POST');
  const transfer = page.getByRole('region', { name: 'Transfer Account Ownership' });
  await transfer.getByLabel('Recipient Email').fill(recipient.email);
  await transfer.getByLabel('Current Password').fill(bo.password);
  await transfer.getByRole('button', { name: 'Initiate Transfer' }).click();
  await page.getByRole('dialog', { name: 'Transfer your account?' }).getByRole('button', { name: 'Yes, Transfer' }).click();
  await expectInline(transfer, page, 'Failed to transfer ownership');
  // Editing the form clears it.
  await transfer.getByLabel('Recipient Email').fill(recipient.email.toUpperCase());
  await expect(transfer.getByRole('alert')).toHaveCount(0);

  await failCall(page, '/signout-everywhere', 'POST');
  const sessions = page.getByRole('region', { name: 'Sign out of all devices' });
  await sessions.getByRole('button', { name: 'Sign out of all devices' }).click();
  await page.getByRole('dialog', { name: 'Sign out of all devices?' }).getByRole('button', { name: 'Sign Out Everywhere' }).click();
  await expectInline(sessions, page, 'Failed to sign out of all devices');

  await failCall(page, '/account/export', 'GET');
  const download = page.getByRole('region', { name: 'Download my data' });
  await download.getByRole('button', { name: 'Download my data' }).click();
  await expectInline(download, page, 'Something went wrong');
});

test('privacy, digest and undoing a block show a failed save next to the control', async ({ page, stack }) => {
  const cy = await createVerifiedUser(stack, 'Inline Cy');
  const pest = await createVerifiedUser(stack, 'Inline Pest');
  await api(stack, cy, 'POST', `/users/${pest.user.id}/block`);
  await signInAs(page, cy.user);
  await page.goto('/setting');
  const panel = page.getByRole('tabpanel');

  await failCall(page, '/change-saved-liked-blog-visibility', 'PATCH');
  await panel.getByLabel('Show Saved Blogs on Profile').selectOption({ label: 'Visible to everyone' });
  await expect(toast(page, 'Failed to update settings')).toBeVisible();
  await expect(panel.getByRole('alert').filter({ hasText: 'Failed to update settings' })).toHaveCount(1);

  await failCall(page, '/digest-settings', 'PUT');
  const digest = panel.getByLabel('Digest of the authors you follow');
  await expect(digest).toBeEnabled();
  await digest.selectOption('weekly');
  await expect(panel.getByRole('alert').filter({ hasText: 'Failed to update settings' })).toHaveCount(2);

  await failCall(page, `/users/${pest.user.id}/block`, 'DELETE');
  const blocked = page.getByRole('region', { name: 'Blocked' });
  await blocked.getByRole('button', { name: /^Undo: unblock/ }).click();
  await expectInline(blocked, page, 'Could not undo that. Please try again.');
});
