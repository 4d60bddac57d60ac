import type { Page } from '@playwright/test';
import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';

/**
 * The buttons of /notifications take their own focus away (disabled while they run, or gone when
 * done): the focus must land on a neighbour, never on <body>, and Tab must go on from there.
 */

/** Fails when the focus fell to <body>, as it does when its element goes away and nothing takes it on. */
async function expectFocusKept(page: Page) {
  expect(await page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body)).toBe(true);
}

test('the notifications page keeps the keyboard focus after Mark as read, Delete, Load more, Mark all read and Clear all', async ({
  page,
  stack,
}) => {
  const alice = await createVerifiedUser(stack, 'Alice Author');
  const bob = await createVerifiedUser(stack, 'Bob Fan');
  const { blog } = await api<{ blog: { blogId: string } }>(stack, alice, 'POST', '/blogs', {
    title: 'Focus matters',
    description: 'Keyboards',
    content: { blocks: [{ type: 'paragraph', data: { text: 'hello' } }] },
    tags: [],
    draft: false,
  });
  // Twelve notifications, newest first: Note 111 ... Note 101, then the like; a page holds ten.
  await api(stack, bob, 'POST', `/blogs/like/${blog.blogId}`);
  for (let i = 101; i <= 111; i++) await api(stack, bob, 'POST', `/blogs/comment/${blog.blogId}`, { comment: `Note ${i}` });

  await signInAs(page, alice.user);
  await page.goto('/notifications');
  const rows = page.getByRole('main').getByRole('listitem');
  await expect(rows).toHaveCount(10);
  const row = (text: string) => rows.filter({ hasText: text });

  // Load more (disabled while it loads): the first new item. Done first: after a change (a delete) the
  // page reads its loaded pages again, and which item comes first on the next page then varies.
  await page.getByRole('button', { name: 'Load more' }).press('Enter');
  await expect(rows).toHaveCount(12);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(row('Note 101').getByRole('link')).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(row('Note 101').getByRole('button', { name: 'Mark as read' })).toBeFocused();

  // Mark as read: the button goes; the focus stays on the item, on its Delete, and Tab goes on to the next item.
  await row('Note 111').getByRole('button', { name: 'Mark as read' }).press('Enter');
  await expect(row('Note 111').getByLabel('Read', { exact: true })).toBeVisible();
  await expect(row('Note 111').getByRole('button', { name: 'Delete notification' })).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(row('Note 110').getByRole('link')).toBeFocused();

  // Delete: the next item.
  await row('Note 110').getByRole('button', { name: 'Delete notification' }).press('Enter');
  await expect(row('Note 110')).toHaveCount(0);
  await expect(row('Note 109').getByRole('link')).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(row('Note 109').getByRole('button', { name: 'Mark as read' })).toBeFocused();

  // Delete the last item: the one before it.
  const like = row('liked your post');
  await like.getByRole('button', { name: 'Delete notification' }).press('Enter');
  await expect(like).toHaveCount(0);
  await expect(row('Note 101').getByRole('link')).toBeFocused();

  // Mark all read (disabled once done): the heading, and Tab goes on to Clear all.
  const heading = page.getByRole('heading', { name: 'Notifications', level: 1 });
  await page.getByRole('button', { name: 'Mark all read' }).press('Enter');
  await expect(page.getByText('You are all caught up')).toBeVisible();
  await expect(heading).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Clear all' })).toBeFocused();

  // Clear all asks first; Escape keeps everything and gives the focus back to the button.
  await page.keyboard.press('Enter');
  const question = page.getByRole('dialog', { name: 'Clear all notifications?' });
  await expect(question).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Clear all' })).toBeFocused();
  await expect(row('Note 101')).toBeVisible();
  // Answered yes, it is disabled once done (as is Mark all read): the heading, and Tab goes on to the filters.
  await page.keyboard.press('Enter');
  await question.getByRole('button', { name: 'Clear all' }).press('Enter');
  await expect(page.getByText('No notifications found')).toBeVisible();
  await expect(question).toHaveCount(0);
  await expect(heading).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('toolbar', { name: 'Filter notifications' }).getByRole('button', { name: 'All' })).toBeFocused();
});
