import type { Page, Request } from '@playwright/test';
import { api, createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * Resolves once the page's socket has sent `register` and the notifications the app re-reads on
 * connect have arrived (by then the server has put the socket in the user's room).
 */
function realtimeReady(page: Page): Promise<void> {
  return new Promise((resolve) => {
    let registered = false;
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framesent', (frame) => {
        if (String(frame.payload).includes('"register"')) registered = true;
      });
    });
    // Stops listening once ready: a later list read still waiting for its answer when the test ends
    // rejected 'Test ended' (a test that reads the lists again at its very end was flaky in CI).
    const onRequest = (request: Request) => {
      if (!registered || request.method() !== 'GET' || !request.url().includes('/api/v1/notifications?')) return;
      page.off('request', onRequest);
      void request.response().then(
        () => resolve(),
        () => resolve(),
      );
    };
    page.on('request', onRequest);
  });
}

test('realtime badge, dropdown mark-read and mark-all, then the notifications page', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const alice = await createVerifiedUser(stack, 'Alice Author');
  const bob = await createVerifiedUser(stack, 'Bob Fan');
  const created = await api<{ blog: { blogId: string } }>(stack, alice, 'POST', '/blogs', {
    title: 'Realtime matters',
    description: 'Sockets',
    content: { blocks: [{ type: 'paragraph', data: { text: 'hello' } }] },
    tags: [],
    draft: false,
  });
  const blogId = created.blog.blogId;

  await signInAs(page, alice.user);
  const ready = realtimeReady(page);
  await page.goto('/');
  await ready;
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');

  // Bob likes, comments and follows while Alice's page stays open: the badge rises without a reload.
  await api(stack, bob, 'POST', `/blogs/like/${blogId}`);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await expect(bell.getByText('1', { exact: true })).toBeVisible();
  await api(stack, bob, 'POST', `/blogs/comment/${blogId}`, { comment: 'Great read' });
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(bell).toHaveAccessibleName('Notifications, 3 unread');

  // The dropdown: newest first, unread highlighted with 'Mark as read'.
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  const items = panel.getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Bob Fan started following you');
  await expect(items.nth(1)).toContainText('Bob Fan commented on your post');
  await expect(items.nth(1)).toContainText('Realtime matters');
  await expect(items.nth(2)).toContainText('Bob Fan liked your post');
  await expect(items.nth(0)).toContainText('Just now');
  await expect(panel.getByRole('button', { name: 'Mark as read' })).toHaveCount(3);

  await items.nth(2).getByRole('button', { name: 'Mark as read' }).click();
  await expect(page.getByText('Marked Read Successfully')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await expect(items.nth(2).getByLabel('Read', { exact: true })).toBeVisible();
  await expect(items.nth(2)).not.toHaveAttribute('data-unread');

  await panel.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByText('All are Marked Read Successfully')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(panel.getByRole('button', { name: 'Mark all read' })).toBeHidden();
  await expect(panel.getByLabel('Read', { exact: true })).toHaveCount(3);

  // Escape closes; a realtime item goes to the front of the (re)opened dropdown.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await api(stack, bob, 'POST', `/blogs/comment/${blogId}`, { comment: 'One more thing' });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Bob Fan commented on your post');
  await expect(items.nth(0)).toHaveAttribute('data-unread', 'true');

  // An outside click closes it; clicking an item opens its blog, and reads it.
  await page.mouse.click(10, 400);
  await expect(panel).toBeHidden();
  await bell.click();
  await items.nth(0).getByRole('button').first().click();
  await expect(page).toHaveURL(new RegExp(`/blog/${blogId}$`));
  await expect(panel).toBeHidden();
  await expect(bell).toHaveAccessibleName('Notifications');

  // Ten more comments: the badge caps at '9+'.
  for (let i = 0; i < 10; i++) await api(stack, bob, 'POST', `/blogs/comment/${blogId}`, { comment: `Comment ${i}` });
  // The name says what the badge shows (WCAG 2.5.3, label in name).
  await expect(bell).toHaveAccessibleName('Notifications, 9+ unread');
  await expect(bell.getByText('9+')).toBeVisible();

  // 'View all' goes to the page.
  await bell.click();
  await panel.getByRole('link', { name: 'View all' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const list = page.getByRole('main').getByRole('listitem');
  await expect(list).toHaveCount(10);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(list).toHaveCount(14);

  const filters = page.getByRole('toolbar', { name: 'Filter notifications' });
  await filters.getByRole('button', { name: 'Follows' }).click();
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText('started following you');
  await filters.getByRole('button', { name: 'Likes' }).click();
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText('liked your post');

  // Per-item delete.
  await list.first().getByRole('button', { name: 'Delete notification' }).click();
  await expect(page.getByText('Notification deleted')).toBeVisible();
  await expect(page.getByText("You don't have any notifications in this category")).toBeVisible();

  // Unread: the 10 comments (the one opened above is read); mark one read (silently), then all.
  await filters.getByRole('button', { name: 'Unread' }).click();
  await expect(list).toHaveCount(10);
  await list.first().getByRole('button', { name: 'Mark as read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications, 9 unread');
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByText('All notifications marked as read')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');
  await page.reload();
  await expect(page.getByText("You don't have any unread notifications")).toBeVisible();

  // Clear all.
  await filters.getByRole('button', { name: 'All' }).click();
  await expect(list).toHaveCount(10);
  await page.getByRole('button', { name: 'Clear all' }).click();
  const question = page.getByRole('dialog', { name: 'Clear all notifications?' });
  await expect(question).toContainText('Every notification will be deleted, read or unread, in every filter.');
  await question.getByRole('button', { name: 'Clear all' }).click();
  await expect(page.getByText('All notifications cleared')).toBeVisible();
  await expect(page.getByText('No notifications found')).toBeVisible();
  await bell.click();
  await expect(panel.getByText('No notifications yet')).toBeVisible();
  expect(problems).toEqual([]);
});

test('mobile: the bell sits in the compact bar and its dropdown fits the screen', async ({ browser, stack }) => {
  const alice = await createVerifiedUser(stack, 'Mobile Alice');
  const bob = await createVerifiedUser(stack, 'Mobile Bob');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signInAs(page, alice.user);
  const ready = realtimeReady(page);
  await page.goto('/');
  await ready;
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByText('Mobile Bob started following you')).toBeVisible();
  const box = await panel.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  // Tab out of it closes it: spanning the screen, it hid the link the focus had gone to.
  await panel.getByRole('link', { name: /View all/ }).focus();
  await page.keyboard.press('Tab');
  await expect(panel).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') === null)).toBe(true);
  await bell.click();
  // No blog: the item leads to the sender's profile.
  await panel.getByRole('listitem').first().getByRole('button').first().click();
  await expect(page).toHaveURL(new RegExp(`/@${bob.user.username}$`));
  await context.close();
});

test('an open dropdown follows what other tabs and taken-back actions did: no duplicate after undo and redo, read in another tab shown read', async ({
  page,
  stack,
}) => {
  const alice = await createVerifiedUser(stack, 'Tabbed Alice');
  const bob = await createVerifiedUser(stack, 'Toggling Bob');
  await signInAs(page, alice.user);
  const ready = realtimeReady(page);
  await page.goto('/');
  await ready;
  // The other tab only acts (over HTTP): it needs no socket of its own.
  const second = await page.context().newPage();
  await second.goto('/');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  const panel = page.getByRole('dialog', { name: 'Notifications' });

  // Follow, unfollow, follow: one notice on the server, and one row in the open tab.
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(bell).toHaveAccessibleName('Notifications');
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  await expect(panel.getByText('Toggling Bob started following you')).toHaveCount(1);
  await expect(panel.getByRole('button', { name: 'Mark as read' })).toHaveCount(1);

  // Read in the other tab: this tab's open list shows it read, not only its badge.
  const otherBell = second.getByRole('button', { name: /^Notifications/ });
  await otherBell.click();
  await second.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: 'Mark all read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(panel.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(panel.getByLabel('Read', { exact: true })).toHaveCount(1);
  await second.close();
});

test('a notification already read and then taken back leaves the open page, and its redo shows once', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const alice = await createVerifiedUser(stack, 'Read Alice');
  const bob = await createVerifiedUser(stack, 'Undoing Bob');
  await signInAs(page, alice.user);
  const ready = realtimeReady(page);
  await page.goto('/notifications');
  await ready;
  const main = page.getByRole('main');
  const rows = main.getByText('Undoing Bob started following you');

  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(rows).toHaveCount(1);
  await main.getByRole('button', { name: 'Mark all read' }).click();
  await expect(main.getByText('You are all caught up')).toBeVisible();
  // Unfollow: the notice was read, so the unread count does not move; the page drops it all the same.
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(rows).toHaveCount(0);
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(main.getByText('1 unread')).toBeVisible();
  await expect(rows).toHaveCount(1);

  // Read here, then deleted in another tab (a read notice's deletion moves no count): Delete on the
  // row that is still shown removes it, rather than failing with 'Failed to delete notification'.
  await main.getByRole('button', { name: 'Mark all read' }).click();
  await expect(main.getByText('You are all caught up')).toBeVisible();
  const { notifications } = await api<{ notifications: { _id: string }[] }>(stack, alice, 'GET', '/notifications?limit=5');
  await api(stack, alice, 'DELETE', `/notifications/${notifications[0]!._id}`);
  await main
    .getByRole('listitem')
    .filter({ hasText: 'Undoing Bob started following you' })
    .getByRole('button', { name: 'Delete notification' })
    .click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('Failed to delete notification')).toHaveCount(0);
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await expect(rows).toHaveCount(1);

  // Opening it reads it: the follower's profile, and no unread notice left.
  await rows.click();
  await expect(page).toHaveURL(new RegExp(`/@${bob.user.username}$`));
  await expect(page.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName('Notifications');
  expect(problems).toEqual([]);
});

test('signed-out visitors of / never download socket.io', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text().catch(() => ''));
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.some((s) => s.includes('engine.io') || s.includes('socket.io-client'))).toBe(false);
  expect(scripts.some((s) => s.includes('"register"'))).toBe(false);
});

test('a notifications page that cannot be read says so with Try again, not that there are none', async ({ page, stack }) => {
  const alice = await createVerifiedUser(stack, 'Alice Unreadable');
  const bob = await createVerifiedUser(stack, 'Bob Follower');
  await api(stack, bob, 'PATCH', `/follow/${alice.user.id}`);
  await signInAs(page, alice.user);
  // No socket: its connect re-reads the list, which would mend the page before Try again.
  await page.routeWebSocket(/\/socket\.io\//, () => {});
  let failing = true;
  await page.route(/\/api\/v1\/notifications\?/, (route) =>
    failing
      ? route.fulfill({ status: 503, json: { success: false, message: 'Service temporarily unavailable. Please try again.' } })
      : route.fallback(),
  );
  await page.goto('/notifications');
  const main = page.getByRole('main');
  await expect(main.getByRole('alert')).toHaveText('Service temporarily unavailable. Please try again.');
  await expect(main.getByText('No notifications found')).toHaveCount(0);
  // Nor that everything is read: the count came with the list that failed.
  await expect(main.getByText('You are all caught up')).toHaveCount(0);
  failing = false;
  await main.getByRole('button', { name: 'Try again' }).click();
  await expect(main.getByText('Bob Follower', { exact: false }).first()).toBeVisible();
  await expect(main.getByText('1 unread')).toBeVisible();
  await expect(main.getByRole('alert')).toHaveCount(0);
});
