import type { Route } from '@playwright/test';
import { createVerifiedUser, expect, signInAs, test } from './support/fixtures';

/**
 * The app asks /me once per load to refresh the session. An answer the server gave before a change
 * made in this tab (a privacy choice made while /me was still on its way) must not undo the change.
 */
test('a /me answer from before a privacy change does not undo it', async ({ page, stack }) => {
  const ada = await createVerifiedUser(stack, 'Private Ada');
  await signInAs(page, ada.user);
  // The first /me reaches the server at once, but its answer is held until the change is made.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let first = true;
  await page.route('**/api/v1/me', async (route: Route) => {
    if (!first) return route.continue();
    first = false;
    const answer = await route.fetch();
    await held;
    await route.fulfill({ response: answer });
  });
  const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').showSavedBlogs);

  await page.goto('/setting');
  await page.getByLabel('Show Saved Blogs on Profile').selectOption({ label: 'Visible to everyone' });
  await expect(page.getByText('Privacy settings updated successfully')).toBeVisible();
  expect(await stored()).toBe(true);
  const asked = page.waitForResponse('**/api/v1/me');
  release();
  await asked;
  // The held (stale) answer is not applied: the session asks again and keeps the change.
  await page.waitForTimeout(500);
  await expect.poll(stored).toBe(true);
  await expect(page.getByLabel('Show Saved Blogs on Profile')).toHaveValue('public');
});
