import { grant } from './support/admin';
import { expectNoBlockingA11y } from './support/axe';
import { createVerifiedUser, expect, signInAs, test, waitForApp, watchConsole } from './support/fixtures';
import { api, commentsButton, createBlog, pageAs, toast } from './support/reading';

/**
 * Reports and moderation (issue 15): a reader reports a comment, a moderator (made by the
 * operator's command line, as on a real site) hides it from /moderation with a reason; a third
 * reader no longer sees it, its author sees it marked, and the audit log shows the action.
 */

test('report a comment, hide it as a moderator; gone for a third reader, marked for its author, in the audit log', async ({
  page,
  stack,
  browser,
}) => {
  const problems = watchConsole(page);
  const reader = await createVerifiedUser(stack, 'Rae Reporter');
  const spammer = await createVerifiedUser(stack, 'Sam Spammer');
  const third = await createVerifiedUser(stack, 'Theo Third');
  const moderator = await createVerifiedUser(stack, 'Mo Derator');
  // The post is the third reader's: even the post's own author stops seeing the hidden comment.
  const post = await createBlog(stack, third);
  const spam = 'Buy cheap pills at my totally real shop';
  const commented = await api(stack, spammer.user.token, 'POST', `/blogs/comment/${post.blogId}`, { comment: spam });
  expect(commented.status).toBe(201);
  await grant(stack, 'moderator', moderator);

  // The reader reports the comment from its menu: Other needs a description, counted to the limit.
  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const panel = page.getByRole('dialog', { name: 'Comments (1)' });
  const comment = panel.getByRole('article', { name: 'Comment by Sam Spammer' });
  await comment.getByRole('button', { name: 'Comment options' }).click();
  await expect(comment.getByRole('menuitem', { name: 'Report' })).toBeFocused();
  await expect(comment.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await comment.getByRole('menuitem', { name: 'Report' }).click();
  const report = page.getByRole('dialog', { name: 'Report comment by Sam Spammer' });
  await report.getByRole('radio', { name: /^Other/ }).check();
  await report.getByRole('button', { name: 'Send' }).click();
  await expect(report.getByRole('alert')).toHaveText('Please describe the problem');
  await report.getByLabel('Details (required)').fill('Advertising in every thread');
  await expect(report.getByText('27/1000')).toBeVisible();
  await report.getByRole('radio', { name: /^Spam/ }).check();
  await expectNoBlockingA11y(page, 'report dialog');
  await report.getByRole('button', { name: 'Send' }).click();
  await expect(toast(page, 'A moderator will look at your report')).toBeVisible();
  await expect(report).toHaveCount(0);
  await expect(comment.getByRole('button', { name: 'Comment options' })).toBeFocused();

  // The same report again: the server's 409 stays readable in the dialog.
  await comment.getByRole('button', { name: 'Comment options' }).click();
  await comment.getByRole('menuitem', { name: 'Report' }).click();
  await report.getByRole('radio', { name: /^Harassment/ }).check();
  await report.getByRole('button', { name: 'Send' }).click();
  await expect(report.getByRole('alert')).toContainText('already reported');
  await report.getByRole('button', { name: 'Cancel' }).click();
  await expect(report).toHaveCount(0);

  // The moderator finds Moderation in the account menu, and the report in the queue.
  const mod = await pageAs(browser, stack, moderator);
  await mod.goto('/');
  await waitForApp(mod);
  await mod.getByRole('button', { name: 'Account menu' }).click();
  await mod.getByRole('menuitem', { name: 'Moderation' }).click();
  await expect(mod).toHaveURL(/\/moderation$/);
  await expect(mod).toHaveTitle(/^Moderation/);
  await expect(mod.getByRole('tab', { name: 'Open reports', selected: true })).toBeVisible();
  const item = mod.getByRole('article', { name: `Comment: ${spam}` });
  await expect(item).toContainText('Sam Spammer');
  await expect(item).toContainText('Spam');
  await expect(item).toContainText('Advertising in every thread');
  await expect(item).toContainText('Rae Reporter');
  await expectNoBlockingA11y(mod, 'moderation queue');
  // The item's link opens the post with its comment panel.
  await item.getByRole('link', { name: spam }).click();
  await expect(mod).toHaveURL(new RegExp(`/blog/${post.blogId}#comment-`));
  await expect(mod.getByRole('dialog', { name: 'Comments (1)' }).getByText(spam)).toBeVisible();
  await mod.goBack();

  await item.getByRole('button', { name: 'Hide' }).click();
  const hide = mod.getByRole('dialog', { name: 'Hide comment' });
  await hide.getByRole('button', { name: 'Hide' }).click();
  await expect(hide.getByRole('alert')).toHaveText('Please give a reason');
  await hide.getByLabel('Reason (required)').fill('Spam link');
  await hide.getByRole('button', { name: 'Hide' }).click();
  await expect(toast(mod, 'Comment hidden')).toBeVisible();
  // Hiding closes the item's reports: the queue is empty, and the focus is on the list, not lost.
  await expect(item).toHaveCount(0);
  await expect(mod.getByRole('tabpanel', { name: 'Open reports' })).toBeFocused();
  await expect(mod.getByText('No open reports. All caught up.')).toBeVisible();

  // The audit log (keyboard: the arrow moves to the second tab) shows who, what and why.
  await mod.getByRole('tab', { name: 'Open reports' }).focus();
  await mod.keyboard.press('ArrowRight');
  await expect(mod.getByRole('tab', { name: 'Audit log', selected: true })).toBeFocused();
  const log = mod.getByRole('list', { name: 'Audit log' });
  await expect(log.getByRole('listitem').first()).toContainText(`Mo Derator hid the comment “${spam}”`);
  await expect(log.getByRole('listitem').first()).toContainText('Spam link');
  await expectNoBlockingA11y(mod, 'audit log');
  await mod.context().close();

  // A third reader does not get the comment at all.
  const other = await pageAs(browser, stack, third);
  await other.goto(`/blog/${post.blogId}`);
  await commentsButton(other, post.title).click();
  const otherPanel = other.getByRole('dialog', { name: 'Comments (0)' });
  await expect(otherPanel).toBeVisible();
  await expect(otherPanel.getByText(spam)).toHaveCount(0);
  await other.context().close();

  // Its author still sees it, marked.
  const author = await pageAs(browser, stack, spammer);
  await author.goto(`/blog/${post.blogId}`);
  await commentsButton(author, post.title).click();
  const own = author.getByRole('article', { name: 'Comment by Sam Spammer' });
  await expect(own).toContainText(spam);
  await expect(own).toContainText('Hidden by a moderator');
  // Nobody can reply to a hidden comment: no Reply button that would only fail.
  await expect(own.getByRole('button', { name: 'Reply', exact: true })).toHaveCount(0);
  // One's own comment has Edit and Delete, never Report.
  await own.getByRole('button', { name: 'Comment options' }).click();
  await expect(own.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await expect(own.getByRole('menuitem', { name: 'Report' })).toHaveCount(0);
  await author.context().close();
  expect(problems).toEqual([]);
});

test('a plain user gets no Moderation link and a no-access page; a visitor is sent to sign in; visitors never see Report', async ({
  page,
  stack,
  browser,
}) => {
  const user = await createVerifiedUser(stack, 'Plain Person');
  const writer = await createVerifiedUser(stack, 'Wren Writer');
  const post = await createBlog(stack, writer);

  const visitor = await pageAs(browser, stack, null);
  await visitor.goto('/moderation');
  await expect(visitor).toHaveURL(/\/signin$/);
  await visitor.goto(`/blog/${post.blogId}`);
  await expect(visitor.getByRole('heading', { name: post.title })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Report' })).toHaveCount(0);
  await visitor.context().close();

  await signInAs(page, user.user);
  await page.goto('/');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Moderation' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.goto('/moderation');
  await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
  await expect(page).toHaveTitle(/^Moderation/);
  const res = await api(stack, user.user.token, 'GET', '/moderation/reports');
  expect(res.status).toBe(403);
});

test('report a post from its page and a profile from its menu; on a 320 px phone in the dark theme', async ({ browser, stack }) => {
  const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: 'dark', viewport: { width: 320, height: 700 } });
  const page = await context.newPage();
  const reader = await createVerifiedUser(stack, 'Pat Phone');
  const writer = await createVerifiedUser(stack, 'Quinn Questionable');
  const post = await createBlog(stack, writer);
  await signInAs(page, reader.user);

  await page.goto(`/blog/${post.blogId}`);
  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report post' });
  await dialog.getByRole('radio', { name: /^Illegal/ }).check();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.screenshot({ path: test.info().outputPath('report-dialog-dark-320.png') });
  await expectNoBlockingA11y(page, 'report dialog, dark, 320 px');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(toast(page, 'A moderator will look at your report')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Report' })).toBeFocused();

  await page.goto(`/@${writer.user.username}`);
  await page.getByRole('button', { name: 'More actions for Quinn Questionable' }).click();
  await page.getByRole('menuitem', { name: 'Report' }).click();
  const profileDialog = page.getByRole('dialog', { name: 'Report Quinn Questionable' });
  // The dialog's code loads on first use: Escape once it is open and holds the focus.
  await expect(profileDialog).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(profileDialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'More actions for Quinn Questionable' })).toBeFocused();

  // The author's own post has no Report.
  const own = await pageAs(browser, stack, writer);
  await own.goto(`/blog/${post.blogId}`);
  await expect(own.getByRole('heading', { name: post.title })).toBeVisible();
  await expect(own.getByRole('button', { name: 'Report' })).toHaveCount(0);
  await own.context().close();
  await context.close();
});

test('the queue on a 320 px phone in the dark theme: hide a reported post; its author sees the banner and the badge', async ({
  browser,
  stack,
}) => {
  const reader = await createVerifiedUser(stack, 'Ria Reader');
  const writer = await createVerifiedUser(stack, 'Hal Hidden');
  const moderator = await createVerifiedUser(stack, 'Pip Phonemod');
  const post = await createBlog(stack, writer, { title: 'A post with a rather long title that has to wrap on a small phone' });
  const reported = await api(stack, reader.user.token, 'POST', '/reports', { targetType: 'post', targetId: post.blogId, reason: 'spam' });
  expect(reported.status).toBe(201);
  await grant(stack, 'moderator', moderator);

  const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: 'dark', viewport: { width: 320, height: 700 } });
  const page = await context.newPage();
  await signInAs(page, moderator.user);
  await page.goto('/moderation');
  const item = page.getByRole('article', { name: `Post: ${post.title}` });
  await expect(item.getByRole('link', { name: post.title })).toHaveAttribute('href', `/blog/${post.blogId}`);
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.screenshot({ path: test.info().outputPath('moderation-dark-320.png'), fullPage: true });
  await expectNoBlockingA11y(page, 'moderation queue, dark, 320 px');
  await item.getByRole('button', { name: 'Hide' }).click();
  const dialog = page.getByRole('dialog', { name: 'Hide post' });
  await dialog.getByLabel('Reason (required)').fill('Spam');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectNoBlockingA11y(page, 'hide dialog, dark, 320 px');
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await expect(toast(page, 'Post hidden')).toBeVisible();
  // The moderator may still read it, with no like, save or comment buttons that would only fail.
  await page.goto(`/blog/${post.blogId}`);
  await expect(page.getByRole('note')).toContainText('Hidden by a moderator');
  await expect(page.getByText('Likes, saves and comments are closed while this post is hidden.')).toBeVisible();
  await expect(page.getByRole('button', { name: /comments?$/ })).toHaveCount(0);
  // Its report was closed by the hide, so the queue no longer offers it: the page does.
  await page.goto('/moderation');
  await expect(page.getByRole('article', { name: `Post: ${post.title}` })).toHaveCount(0);
  await page.goto(`/blog/${post.blogId}`);
  await page.getByRole('button', { name: 'Restore post' }).click();
  const restore = page.getByRole('dialog', { name: 'Restore post' });
  await restore.getByRole('button', { name: 'Restore' }).click();
  await expect(restore.getByText('Please give a reason')).toBeVisible();
  await restore.getByLabel('Reason (required)').fill('Appeal accepted');
  await restore.getByRole('button', { name: 'Restore' }).click();
  await expect(toast(page, 'Post restored')).toBeVisible();
  await expect(page.getByRole('note')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /comments?$/ })).toBeVisible();
  // Hidden again, for the author's and the other reader's checks below.
  expect((await api(stack, moderator.user.token, 'POST', `/moderation/posts/${post.blogId}/hide`, { reason: 'Spam' })).status).toBe(200);
  await context.close();

  const author = await pageAs(browser, stack, writer);
  await author.goto(`/blog/${post.blogId}`);
  await expect(author.getByRole('note')).toContainText('Hidden by a moderator');
  await author.goto(`/@${writer.user.username}`);
  await expect(author.getByRole('article').filter({ hasText: post.title })).toContainText('Hidden by a moderator');
  await author.context().close();

  const other = await pageAs(browser, stack, reader);
  await other.goto(`/blog/${post.blogId}`);
  await expect(other.getByRole('heading', { name: 'Blog not found' })).toBeVisible();
  await other.context().close();
});

test('dismiss one report, suspend the author from the queue; the profile report closes, the badge shows, the log says so', async ({
  page,
  stack,
}) => {
  const [first, second, pest, moderator] = [
    await createVerifiedUser(stack, 'Fay First'),
    await createVerifiedUser(stack, 'Sid Second'),
    await createVerifiedUser(stack, 'Pete Pest'),
    await createVerifiedUser(stack, 'Meg Moderator'),
  ];
  const post = await createBlog(stack, first);
  const text = `Follow me for free money ${Date.now()}`;
  const { body } = await api(stack, pest.user.token, 'POST', `/blogs/comment/${post.blogId}`, { comment: text });
  const commentId = body.newComment._id as string;
  for (const [who, reason] of [
    [first, 'spam'],
    [second, 'harassment'],
  ] as const) {
    expect((await api(stack, who.user.token, 'POST', '/reports', { targetType: 'comment', targetId: commentId, reason })).status).toBe(201);
  }
  const profileReport = { targetType: 'user', targetId: pest.user.id, reason: 'other', text: 'Spam account' };
  expect((await api(stack, first.user.token, 'POST', '/reports', profileReport)).status).toBe(201);
  await grant(stack, 'moderator', moderator);

  await signInAs(page, moderator.user);
  await page.goto('/moderation');
  const item = page.getByRole('article', { name: `Comment: ${text}` });
  const profile = page.getByRole('article', { name: 'Profile: Pete Pest' });
  await expect(item).toContainText('2 open reports');
  await expect(profile).toContainText('Spam account');

  // Dismiss Sid's report: its reason may stay empty.
  await item.getByRole('button', { name: 'Dismiss report by Sid Second' }).click();
  const dismiss = page.getByRole('dialog', { name: 'Dismiss report' });
  await expect(dismiss.getByLabel('Reason (optional)')).toBeVisible();
  await dismiss.getByRole('button', { name: 'Dismiss' }).click();
  await expect(toast(page, 'Report dismissed')).toBeVisible();
  await expect(item).toContainText('1 open report');
  await expect(item.getByRole('button', { name: 'Dismiss report by Sid Second' })).toHaveCount(0);

  // Suspend the author from the comment's group: the reason is asked for, the profile's report closes.
  await item.getByRole('button', { name: 'Suspend author' }).click();
  const suspend = page.getByRole('dialog', { name: 'Suspend Pete Pest' });
  await suspend.getByLabel('Reason (required)').fill('Spam account');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(toast(page, 'User suspended')).toBeVisible();
  await expect(item.getByText('Suspended', { exact: true })).toBeVisible();
  await expect(item.getByRole('button', { name: 'Unsuspend author' })).toBeVisible();
  await expect(profile).toHaveCount(0);

  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\?tab=audit$/);
  const log = page.getByRole('list', { name: 'Audit log' });
  await expect(log.getByRole('listitem').nth(0)).toContainText(`Meg Moderator suspended “${pest.user.username}”`);
  await expect(log.getByRole('listitem').nth(1)).toContainText('Meg Moderator dismissed a report on');
  // The suspended author's session is gone at once.
  expect((await api(stack, pest.user.token, 'GET', '/me')).status).toBe(401);
});
