import { grant } from './support/admin';
import { expectNoBlockingA11y } from './support/axe';
import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';
import { api, createBlog, pageAs, toast } from './support/reading';

/**
 * 'Hidden and suspended' (/moderation?tab=hidden): once a hide has closed its report, the queue no
 * longer offers the post; this tab lists it with who hid it and why, and restores it with a reason.
 */
test('hide a reported post, find it under Hidden and suspended, restore it; an anonymous reader can read it again', async ({
  browser,
  stack,
}) => {
  const reader = await createVerifiedUser(stack, 'Reed Reporter');
  const writer = await createVerifiedUser(stack, 'Wren Writer');
  const moderator = await createVerifiedUser(stack, 'Hedda Hider');
  const post = await createBlog(stack, writer, { title: `A post that gets hidden and comes back ${Date.now()}` });
  const reported = await api(stack, reader.user.token, 'POST', '/reports', { targetType: 'post', targetId: post.blogId, reason: 'spam' });
  expect(reported.status).toBe(201);
  await grant(stack, 'moderator', moderator);

  // On a 320 px phone in the dark theme.
  const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: 'dark', viewport: { width: 320, height: 720 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInAs(page, moderator.user);
  await page.goto('/moderation');
  const card = page.getByRole('article', { name: `Post: ${post.title}` });
  await card.getByRole('button', { name: 'Hide' }).click();
  const hide = page.getByRole('dialog', { name: 'Hide post' });
  await hide.getByLabel('Reason (required)').fill('Link farm');
  await hide.getByRole('button', { name: 'Hide' }).click();
  await expect(toast(page, 'Post hidden')).toBeVisible();
  await expect(card).toHaveCount(0);

  const visitor = await pageAs(browser, stack, null);
  await visitor.goto(`/blog/${post.blogId}`);
  await expect(visitor.getByRole('heading', { name: 'Blog not found' })).toBeVisible();

  // Its author is told why, by the site rather than a named moderator, and the notice leads to the post.
  const author = await pageAs(browser, stack, writer);
  await author.goto('/notifications');
  const notice = author.getByRole('link', { name: /Moderators hid your post: “Link farm”/ });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(post.title);
  await expect(notice).not.toContainText('Hedda');
  await notice.click();
  await expect(author).toHaveURL(new RegExp(`/blog/${post.blogId}$`));
  await expect(author.getByRole('heading', { name: post.title })).toBeVisible();
  await author.context().close();

  // The third tab, by keyboard: arrows move between the tabs.
  await page.getByRole('tab', { name: 'Open reports' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const tab = page.getByRole('tab', { name: 'Hidden and suspended', selected: true });
  await expect(tab).toBeFocused();
  await expect(page).toHaveURL(/\/moderation\?tab=hidden$/);
  await expect(page.getByRole('radio', { name: 'Posts' })).toBeChecked();
  const list = page.getByRole('list', { name: 'Hidden and suspended: Posts' });
  const row = list.getByRole('listitem').filter({ hasText: post.title });
  await expect(row.getByRole('link', { name: post.title })).toHaveAttribute('href', `/blog/${post.blogId}`);
  await expect(row).toContainText('Wren Writer');
  await expect(row).toContainText('Hidden by Hedda Hider');
  await expect(row).toContainText('“Link farm”');
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.screenshot({ path: test.info().outputPath('hidden-dark-320.png'), fullPage: true });
  await expectNoBlockingA11y(page, 'hidden and suspended, dark, 320 px');

  // The segmented choice is radio buttons: arrows switch the list, and the address keeps it.
  await page.getByRole('radio', { name: 'Posts' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Comments' })).toBeChecked();
  await expect(page).toHaveURL(/tab=hidden&kind=comments$/);
  await expect(page.getByRole('list', { name: 'Hidden and suspended: Comments' }).or(page.getByText('Nothing is hidden'))).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Posts' })).toBeChecked();

  // Restore, with the queue's reason dialog: a reason is required.
  await row.getByRole('button', { name: `Restore post “${post.title}”` }).click();
  const restore = page.getByRole('dialog', { name: 'Restore post' });
  await restore.getByRole('button', { name: 'Restore' }).click();
  await expect(restore.getByText('Please give a reason')).toBeVisible();
  await restore.getByLabel('Reason (required)').fill('Appeal accepted');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await restore.getByRole('button', { name: 'Restore' }).click();
  await expect(toast(page, 'Post restored')).toBeVisible();
  await expect(restore).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: post.title })).toHaveCount(0);
  // The focus did not fall back to the top of the page with the removed button.
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);

  // The audit log says so, and the post is readable again by an anonymous reader.
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: `restored the post “${post.title}”` })).toContainText('Appeal accepted');
  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: post.title })).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'Blog not found' })).toHaveCount(0);
  expect(problems).toEqual([]);
  await visitor.context().close();
  await context.close();
});

/** A moderator need not wait for a report: the post page offers Hide to moderators only. */
test('a moderator hides a post from its page without a report; readers never see the button', async ({ browser, stack }) => {
  const writer = await createVerifiedUser(stack, 'Pia Poster');
  const moderator = await createVerifiedUser(stack, 'Otto Overseer');
  const reader = await createVerifiedUser(stack, 'Rita Reader');
  const post = await createBlog(stack, writer, { title: `Hidden from its own page ${Date.now()}` });
  await grant(stack, 'moderator', moderator);

  const readerPage = await pageAs(browser, stack, reader);
  await readerPage.goto(`/blog/${post.blogId}`);
  await expect(readerPage.getByRole('button', { name: 'Report' })).toBeVisible();
  await expect(readerPage.getByRole('button', { name: 'Hide post' })).toHaveCount(0);

  const page = await pageAs(browser, stack, moderator);
  const problems = watchConsole(page);
  await page.goto(`/blog/${post.blogId}`);
  await page.getByRole('button', { name: 'Hide post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Hide post' });
  await expect(dialog).toContainText('Its author is told, with your reason.');
  await dialog.getByLabel('Reason (required)').fill('Copied from another site');
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await expect(toast(page, 'Post hidden')).toBeVisible();
  // The page now says so and offers Restore instead.
  await expect(page.getByRole('note')).toContainText('Other readers no longer see this post');
  await expect(page.getByRole('button', { name: 'Restore post' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide post' })).toHaveCount(0);

  await readerPage.reload();
  await expect(readerPage.getByRole('heading', { name: 'Blog not found' })).toBeVisible();
  await page.goto('/moderation?tab=hidden');
  await expect(page.getByRole('listitem').filter({ hasText: post.title })).toContainText('“Copied from another site”');
  expect(problems).toEqual([]);
  await readerPage.context().close();
  await page.context().close();
});
