import type { Page } from '@playwright/test';
import { createVerifiedUser, expect, test } from './support/fixtures';
import { api as apiAs, commentsButton, createBlog } from './support/reading';

/**
 * Buttons that take their own focus away (disabled while they run, or gone when done) must hand it
 * on, never let it fall to <body>: the comment panel's Load more comments. Driven with the
 * keyboard; Tab must go on from where it lands.
 */

/**
 * Fails when the focus fell to <body>, as it does when its element goes away and nothing takes it on
 * (waits a moment first: the focus moves on once the outcome shows).
 */
async function expectFocusKept(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.tagName ?? 'none'), { message: 'document.activeElement is not <body>' })
    .not.toMatch(/^(BODY|none)$/);
}

test('Load more comments hands the keyboard focus to the first newly loaded comment', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Paging Author');
  const post = await createBlog(stack, author);
  // 45 comments, newest first: the pages hold 45..26, 25..6, then 5..1.
  for (let i = 1; i <= 45; i++) {
    const res = await apiAs(stack, author.user.token, 'POST', `/blogs/comment/${post.blogId}`, { comment: `Comment number ${i}` });
    expect(res.status).toBe(201);
  }
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).press('Enter');
  const panel = page.getByRole('dialog', { name: 'Comments (45)' });
  const items = panel.locator('ul[aria-label="Comments"] > li');
  await expect(items).toHaveCount(20);
  const loadMore = panel.getByRole('button', { name: 'Load more comments' });
  const articleAt = (index: number) => items.nth(index).locator(':scope > article');

  // A second page follows, so the button stays. Its answer is held until the button shows it is
  // loading (disabled, which takes the focus from it); then the first new comment has the focus.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/v1\/blogs\/[^/]+\/comments\?(.*&)?page=2(&|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await loadMore.press('Enter');
  await expect(panel.getByRole('button', { name: 'Loading...' })).toBeDisabled();
  release();
  await expect(items).toHaveCount(40);
  await expect(loadMore).toBeEnabled();
  await expect(articleAt(20)).toContainText('Comment number 25');
  await expectFocusKept(page);
  await expect(articleAt(20)).toBeFocused();
  // Tab goes on into that comment: its author's name.
  await page.keyboard.press('Tab');
  await expect(articleAt(20).getByRole('link', { name: 'Paging Author' })).toBeFocused();

  // The last page, answered at once: the button goes, and the first new comment has the focus.
  await loadMore.press('Enter');
  await expect(items).toHaveCount(45);
  await expect(loadMore).toHaveCount(0);
  await expect(articleAt(40)).toContainText('Comment number 5');
  await expectFocusKept(page);
  await expect(articleAt(40)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(articleAt(40).getByRole('link', { name: 'Paging Author' })).toBeFocused();
  // Still inside the panel, which is still open.
  await expect(panel).toBeVisible();
});
