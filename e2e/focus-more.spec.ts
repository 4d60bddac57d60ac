import type { Page } from '@playwright/test';
import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { api as apiAs, commentsButton, createBlog } from './support/reading';

/**
 * Buttons that take their own focus away (disabled while they run, or gone when done) must hand it
 * on, never let it fall to <body>: the comment panel's Load more comments, and the bell dropdown's
 * Mark as read and Mark all read. Driven with the keyboard; Tab must go on from where it lands.
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

test('the bell dropdown keeps the keyboard focus inside it after Mark as read and Mark all read', async ({ page, stack }) => {
  const alice = await createVerifiedUser(stack, 'Alice Author');
  const bob = await createVerifiedUser(stack, 'Bob Fan');
  const { blog } = await api<{ blog: { blogId: string } }>(stack, alice, 'POST', '/blogs', {
    title: 'Bell focus',
    description: 'Keyboards',
    content: { blocks: [{ type: 'paragraph', data: { text: 'hello' } }] },
    tags: [],
    draft: false,
  });
  // Three unread notices, newest first in the dropdown: the follow, the comment, the like.
  await api(stack, bob, 'POST', `/blogs/like/${blog.blogId}`);
  await api(stack, bob, 'POST', `/blogs/comment/${blog.blogId}`, { comment: 'Great read' });
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);

  await signInAs(page, alice.user);
  await page.goto('/');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications, 3 unread');
  await bell.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  const items = panel.getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(1)).toContainText('commented on your post');
  const itemButton = (index: number) => items.nth(index).getByRole('button').first();
  const markAll = panel.getByRole('button', { name: 'Mark all read' });

  // Tab from the bell into the dropdown: Mark all read, then each item and its Mark as read.
  await page.keyboard.press('Tab');
  await expect(markAll).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(itemButton(0)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(items.nth(0).getByRole('button', { name: 'Mark as read' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(itemButton(1)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(items.nth(1).getByRole('button', { name: 'Mark as read' })).toBeFocused();

  // Mark as read (the button goes): the focus stays on that item, the dropdown stays open, and Tab goes on to the next item.
  await page.keyboard.press('Enter');
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await expect(items.nth(1).getByLabel('Read', { exact: true })).toBeVisible();
  await expect(items.nth(1).getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expectFocusKept(page);
  await expect(itemButton(1)).toBeFocused();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(itemButton(2)).toBeFocused();

  // Back to the first item's Mark as read with Shift+Tab. When it fails, it keeps the focus (it was disabled while it ran).
  const firstMark = items.nth(0).getByRole('button', { name: 'Mark as read' });
  for (const expected of [itemButton(1), firstMark]) {
    await page.keyboard.press('Shift+Tab');
    await expect(expected).toBeFocused();
  }
  await page.route('**/api/v1/notifications/*/read', (route) => route.fulfill({ status: 500, json: { message: 'Marking broke' } }));
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Marking broke' })).toBeVisible();
  await expect(firstMark).toBeEnabled();
  await expectFocusKept(page);
  await expect(firstMark).toBeFocused();
  await page.unrouteAll();

  // On up to Mark all read.
  for (const expected of [itemButton(0), markAll]) {
    await page.keyboard.press('Shift+Tab');
    await expect(expected).toBeFocused();
  }

  // Mark all read (the button goes, nothing being unread): the dropdown's heading, still open, and Tab goes on to the first item.
  await page.keyboard.press('Enter');
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(markAll).toHaveCount(0);
  await expect(panel.getByLabel('Read', { exact: true })).toHaveCount(3);
  await expectFocusKept(page);
  await expect(panel.getByRole('heading', { name: 'Notifications' })).toBeFocused();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(itemButton(0)).toBeFocused();

  // Escape still closes it and gives the focus back to the bell.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(bell).toBeFocused();
});
