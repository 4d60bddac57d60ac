import { grant } from './support/admin';
import { expectNoBlockingA11y } from './support/axe';
import { createVerifiedUser, expect, signInAs, test, waitForApp } from './support/fixtures';
import { api, createBlog, pageAs, toast } from './support/reading';

/**
 * The moderation queue over time (issue 15): paging, roles given from the Roles tab, and two
 * moderators at once. Reports are made through the API; moderators by the operator's command line.
 */

test('the queue pages with Load more, newest group first', async ({ page, stack }) => {
  const reader = await createVerifiedUser(stack, 'Lou Loader');
  const writer = await createVerifiedUser(stack, 'Many Posts');
  const moderator = await createVerifiedUser(stack, 'Page Moderator');
  // One more reported item than a page holds (MODERATION_PAGE_SIZE, 20).
  const posts: { blogId: string; title: string }[] = [];
  for (let i = 0; i < 21; i++) {
    const post = await createBlog(stack, writer, { title: `Paged report ${i} ${Date.now()}` });
    expect(
      (await api(stack, reader.user.token, 'POST', '/reports', { targetType: 'post', targetId: post.blogId, reason: 'spam' })).status,
    ).toBe(201);
    posts.push(post);
  }
  await grant(stack, 'moderator', moderator);

  await signInAs(page, moderator.user);
  await page.goto('/moderation');
  const newest = page.getByRole('article', { name: `Post: ${posts[20]!.title}` });
  const oldest = page.getByRole('article', { name: `Post: ${posts[0]!.title}` });
  await expect(newest).toBeVisible();
  await expect(oldest).toHaveCount(0);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(oldest).toBeVisible();
  // Newest first: the last reported post comes before the first one.
  const titles = await page.getByRole('article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));
  expect(titles.indexOf(`Post: ${posts[20]!.title}`)).toBeLessThan(titles.indexOf(`Post: ${posts[0]!.title}`));

  // The worker's other moderation tests share this site and expect an empty queue once they are done.
  await dismissReportsBy(stack, moderator.user.token, reader.user.username);
});

/** Dismisses every open report `reporter` made, through the API. */
async function dismissReportsBy(stack: Parameters<typeof api>[0], token: string, reporter: string): Promise<void> {
  for (;;) {
    const queue = (await api(stack, token, 'GET', '/moderation/reports')).body as {
      items: { reports: { id: string; reporter: { username: string } }[] }[];
    };
    const mine = queue.items.flatMap((group) => group.reports).filter((r) => r.reporter.username === reporter);
    if (!mine.length) return;
    for (const report of mine) expect((await api(stack, token, 'POST', `/moderation/reports/${report.id}/dismiss`, {})).status).toBe(200);
  }
}

test('an admin makes a moderator from the Roles tab; moderators have no Roles tab', async ({ page, stack, browser }) => {
  const admin = await createVerifiedUser(stack, 'Ada Admin');
  const helper = await createVerifiedUser(stack, 'Hugo Helper');
  await grant(stack, 'admin', admin);

  await signInAs(page, admin.user);
  await page.goto('/moderation');
  await page.getByRole('tab', { name: 'Roles' }).click();
  await expect(page).toHaveURL(/\?tab=roles$/);
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a username');
  await page.getByLabel('Username').fill('@no-such-person-here');
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByRole('alert')).toHaveText('User not found');
  await page.getByLabel('Username').fill(`@${helper.user.username}`);
  await expect(page.getByLabel('Role', { exact: true })).toHaveValue('moderator');
  await expectNoBlockingA11y(page, 'roles tab');
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(toast(page, 'Role changed')).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue('');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.getByRole('list', { name: 'Audit log' }).getByRole('listitem').first()).toContainText(
    `Ada Admin granted a role to “${helper.user.username} (moderator)”`,
  );

  // The new moderator finds Moderation in their menu, without the Roles tab.
  const mod = await pageAs(browser, stack, helper);
  await mod.goto('/');
  await waitForApp(mod);
  await mod.getByRole('button', { name: 'Account menu' }).click();
  await mod.getByRole('menuitem', { name: 'Moderation' }).click();
  await expect(mod.getByRole('tab', { name: 'Open reports', selected: true })).toBeVisible();
  await expect(mod.getByRole('tab', { name: 'Roles' })).toHaveCount(0);
  await mod.context().close();
});

test('a second moderator acting on a card another one already handled is told so and gets the queue as it is now', async ({
  page,
  stack,
}) => {
  const [author, reader, otherModerator, moderator] = [
    await createVerifiedUser(stack, 'Ada Author'),
    await createVerifiedUser(stack, 'Rex Reader'),
    await createVerifiedUser(stack, 'Olga Othermod'),
    await createVerifiedUser(stack, 'Max Moderator'),
  ];
  const post = await createBlog(stack, author, { title: 'Handled by two moderators at once' });
  expect(
    (await api(stack, reader.user.token, 'POST', '/reports', { targetType: 'post', targetId: post.blogId, reason: 'spam' })).status,
  ).toBe(201);
  await grant(stack, 'moderator', moderator);
  await grant(stack, 'moderator', otherModerator);

  await signInAs(page, moderator.user);
  await page.goto('/moderation');
  const item = page.getByRole('article', { name: `Post: ${post.title}` });
  await expect(item).toBeVisible();
  // Meanwhile, in another tab of another moderator:
  expect((await api(stack, otherModerator.user.token, 'POST', `/moderation/posts/${post.blogId}/hide`, { reason: 'Spam' })).status).toBe(
    200,
  );
  await item.getByRole('button', { name: 'Hide' }).click();
  const dialog = page.getByRole('dialog', { name: 'Hide post' });
  await dialog.getByLabel('Reason (required)').fill('Spam too');
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await expect(toast(page, 'This post is already hidden')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // The hide closed its report: the card leaves without a reload.
  await expect(item).toHaveCount(0);
});
