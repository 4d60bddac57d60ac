import type { Locator, Page } from '@playwright/test';
import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * The comment panel (SPEC.md 2, 4, 5): post, reply, edit, like, delete, paging, closing.
 * Content is created through the API with Bearer tokens; the UI is driven in Chromium.
 */

import { api, commentsButton, createBlog, pageAs } from './support/reading';

test('comments: post, reply, edit, like, delete by the owner and by the blog creator', async ({ page, stack, browser }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Blog Creator');
  const reader = await createVerifiedUser(stack, 'Chatty Reader');
  const post = await createBlog(stack, author);

  // Signed out: a prompt to sign in instead of the box.
  const visitor = await pageAs(browser, stack, null);
  await visitor.goto(`/blog/${post.blogId}`);
  await commentsButton(visitor, post.title).click();
  const visitorPanel = visitor.getByRole('dialog', { name: 'Comments (0)' });
  await expect(visitorPanel.getByRole('link', { name: 'Sign in to comment' })).toHaveAttribute('href', '/signin');
  await expect(visitorPanel.getByPlaceholder('Write a comment...')).toHaveCount(0);
  // Signing in from there comes back to the post.
  await visitorPanel.getByRole('link', { name: 'Sign in to comment' }).click();
  await visitor.getByLabel('Email').fill(reader.email);
  await visitor.getByLabel('Password').fill(reader.password);
  await visitor.getByRole('button', { name: 'Sign In' }).click();
  await expect(visitor).toHaveURL(new RegExp(`/blog/${post.blogId}$`));
  await visitor.context().close();

  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const panel = page.getByRole('dialog', { name: /^Comments \(\d+\)$/ });
  await expect(panel).toHaveAccessibleName('Comments (0)');
  await expect(panel.getByText('No comments yet')).toBeVisible();
  await expect(panel.getByText('Be the first to comment')).toBeVisible();
  const box = panel.getByPlaceholder('Write a comment...');
  await expect(box).toBeFocused();
  const postButton = panel.getByRole('button', { name: 'Post', exact: true });
  await expect(postButton).toBeDisabled();
  await box.fill('   ');
  await expect(postButton).toBeDisabled();
  await box.press('Enter');
  await expect(panel.getByText('No comments yet')).toBeVisible();

  // Enter without Shift posts; Shift+Enter is a new line.
  await box.fill('First line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await box.press('Enter');
  await expect(panel).toHaveAccessibleName('Comments (1)');
  const first = panel.getByRole('article', { name: 'Comment by Chatty Reader' }).first();
  await expect(first).toContainText('First line\nsecond line');
  await expect(first.getByText('Just now')).toBeVisible();
  await expect(box).toHaveValue('');

  await box.fill('A second comment');
  // A double click (or two quick taps) sends it once.
  const posts: string[] = [];
  const countPost = (r: { method(): string; url(): string }) => {
    if (r.method() === 'POST' && r.url().includes('/api/v1/blogs/comment/')) posts.push(r.url());
  };
  page.on('request', countPost);
  await postButton.dblclick();
  const secondPostedAt = Date.now();
  await expect(panel).toHaveAccessibleName('Comments (2)');
  await page.waitForTimeout(300);
  page.off('request', countPost);
  expect(posts).toHaveLength(1);
  const comments = panel.locator('ul[aria-label="Comments"] > li');
  await expect(comments.first()).toContainText('A second comment'); // newest first

  // Reply under the first comment.
  const firstItem = comments.filter({ hasText: 'First line' });
  await firstItem.getByRole('button', { name: 'Reply', exact: true }).first().click();
  const replyBox = firstItem.getByPlaceholder('Write a reply...');
  await expect(replyBox).toBeFocused();
  await replyBox.fill('A reply to the first');
  await firstItem.getByRole('button', { name: 'Post reply' }).click();
  await expect(panel).toHaveAccessibleName('Comments (3)');
  const replies = firstItem.locator('ul[aria-label="Replies to Chatty Reader"] > li');
  await expect(replies).toHaveCount(1);
  await expect(replies.first()).toContainText('A reply to the first');
  await expect(firstItem.getByText('1 reply', { exact: true }).first()).toBeAttached();

  // Edit own comment.
  const second = comments.filter({ hasText: 'A second comment' });
  await second.getByRole('button', { name: 'Comment options' }).click();
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  // While editing, the text lives in the textarea's value (not its text), so find the one open edit box in the panel.
  const editBox = panel.getByRole('textbox', { name: 'Edit comment' });
  await expect(editBox).toHaveValue('A second comment');
  await editBox.fill('A second comment, edited');
  // '(edited)' shows when a comment changed more than a second after it was written: on a fast
  // machine this edit can come sooner, so it waits out the rest of that second.
  await page.waitForTimeout(Math.max(0, secondPostedAt + 1500 - Date.now()));
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(second.getByText('A second comment, edited')).toBeVisible();
  await expect(second.getByText('(edited)')).toBeVisible();

  // Like a comment.
  const secondLike = second.getByRole('button', { name: /^\d+ likes?$/ }).first();
  await secondLike.click();
  await expect(secondLike).toHaveAccessibleName('1 like');
  await expect(secondLike).toHaveAttribute('aria-pressed', 'true');

  // Delete own comment (with its confirmation).
  await second.getByRole('button', { name: 'Comment options' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete comment' });
  await expect(
    confirm.getByText('Are you sure you want to delete this comment? This action cannot be undone.', { exact: true }),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByText('A second comment, edited')).toHaveCount(0);
  await expect(panel).toHaveAccessibleName('Comments (2)');

  // Escape closes the panel and gives the focus back; the footer count is current.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(commentsButton(page, post.title)).toBeFocused();
  await expect(commentsButton(page, post.title)).toHaveAccessibleName('2 comments');

  // Persisted: after a reload the thread is the same.
  await page.reload();
  await commentsButton(page, post.title).click();
  await expect(panel).toHaveAccessibleName('Comments (2)');
  await expect(panel.getByText('A reply to the first')).toBeVisible();
  await expect(panel.getByRole('button', { name: /^\d+ likes?$/ }).first()).toBeVisible();

  // The blog creator may delete any comment, but edit none.
  const creator = await pageAs(browser, stack, author);
  await creator.goto(`/blog/${post.blogId}`);
  await commentsButton(creator, post.title).click();
  const creatorPanel = creator.getByRole('dialog', { name: 'Comments (2)' });
  const target = creatorPanel.locator('ul[aria-label="Comments"] > li').filter({ hasText: 'First line' });
  await target.getByRole('button', { name: 'Comment options' }).first().click();
  await expect(creator.getByRole('menuitem', { name: 'Edit' })).toHaveCount(0);
  await creator.getByRole('menuitem', { name: 'Delete' }).click();
  // The comment has a reply: the question says it goes too.
  await expect(creator.getByRole('dialog', { name: 'Delete comment' })).toContainText('Its replies will be deleted with it.');
  await creator.getByRole('dialog', { name: 'Delete comment' }).getByRole('button', { name: 'Delete' }).click();
  await expect(creator.getByRole('dialog', { name: 'Comments (0)' })).toBeVisible();
  await expect(creator.getByText('No comments yet')).toBeVisible();
  await creator.keyboard.press('Escape');
  await expect(commentsButton(creator, post.title)).toHaveAccessibleName('0 comments');
  await creator.context().close();
  expect(problems).toEqual([]);
});

test('the comment panel pages with Load more comments, and closes when leaving the page', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Popular Author');
  const post = await createBlog(stack, author);
  for (let i = 1; i <= 22; i++) {
    const res = await api(stack, author.user.token, 'POST', `/blogs/comment/${post.blogId}`, { comment: `Comment number ${i}` });
    expect(res.status).toBe(201);
  }
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const panel = page.getByRole('dialog', { name: 'Comments (22)' });
  const items = panel.locator('ul[aria-label="Comments"] > li');
  await expect(items).toHaveCount(20);
  await expect(items.first()).toContainText('Comment number 22');
  await panel.getByRole('button', { name: 'Load more comments' }).click();
  await expect(items).toHaveCount(22);
  await expect(panel.getByRole('button', { name: 'Load more comments' })).toHaveCount(0);

  // Leaving the page closes the panel.
  await panel.getByRole('link', { name: 'Popular Author' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/@${author.user.username}$`));
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

/** Fails when the focus fell to <body>, as it does when its element goes away and nothing takes it on. */
async function expectFocusKept(page: Page) {
  expect(await page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body)).toBe(true);
}

test('keyboard focus stays in the thread after an edit, a reply and a delete', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Thread Author');
  const reader = await createVerifiedUser(stack, 'Keyboard Reader');
  const post = await createBlog(stack, author);
  for (const text of ['Comment A', 'Comment B', 'Comment C']) {
    const res = await api(stack, reader.user.token, 'POST', `/blogs/comment/${post.blogId}`, { comment: text });
    expect(res.status).toBe(201);
  }
  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const panel = page.getByRole('dialog', { name: /^Comments \(\d+\)$/ });
  const items = panel.locator('ul[aria-label="Comments"] > li');
  await expect(items).toHaveCount(3);
  const item = (text: string) => items.filter({ hasText: text });
  const articleOf = (text: string) => item(text).locator(':scope > article');
  const options = (text: string) => item(text).getByRole('button', { name: 'Comment options' }).first();
  // As a keyboard works the menu: its first item has the focus once open, End goes to the last (Delete).
  const choose = async (menuButton: Locator, choice: 'Edit' | 'Delete') => {
    await menuButton.press('Enter');
    await expect(page.getByRole('menuitem').first()).toBeFocused();
    if (choice === 'Delete') await page.keyboard.press('End');
    await expect(page.getByRole('menuitem', { name: choice })).toBeFocused();
    await page.keyboard.press('Enter');
  };
  // The confirm dialog's own first focus (its close button) comes before the key, or it would take the focus from the answer.
  const confirm = page.getByRole('dialog', { name: 'Delete comment' });
  const answer = async (button: 'Cancel' | 'Delete') => {
    await expect(confirm.getByRole('button', { name: 'Close' })).toBeFocused();
    await confirm.getByRole('button', { name: button }).press('Enter');
  };

  // Edit, saved with Enter: the focus goes back to Comment options, where Edit was chosen; Tab goes on to the comment's Like.
  await choose(options('Comment C'), 'Edit');
  const editBox = panel.getByRole('textbox', { name: 'Edit comment' });
  await expect(editBox).toBeFocused();
  await editBox.press('End');
  await editBox.pressSequentially(', edited');
  await editBox.press('Enter');
  await expect(panel.getByText('Comment C, edited')).toBeVisible();
  await expect(options('Comment C')).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(item('Comment C').getByRole('button', { name: '0 likes' })).toBeFocused();

  // Edit cancelled with Escape: the same.
  await choose(options('Comment C'), 'Edit');
  await expect(editBox).toBeFocused();
  await editBox.press('Escape');
  await expect(editBox).toHaveCount(0);
  await expect(options('Comment C')).toBeFocused();

  // Reply cancelled: back to Reply. Reply sent: the new reply has the focus, and Tab reaches its author's link.
  const replyButton = item('Comment B').getByRole('button', { name: 'Reply', exact: true }).first();
  await replyButton.press('Enter');
  const replyBox = panel.getByRole('textbox', { name: 'Reply to Keyboard Reader' });
  await expect(replyBox).toBeFocused();
  await replyBox.press('Escape');
  await expect(replyBox).toHaveCount(0);
  await expect(replyButton).toBeFocused();
  await replyButton.press('Enter');
  await replyBox.fill('A reply to B');
  await replyBox.press('Enter');
  const newReply = item('Comment B').locator('ul[aria-label="Replies to Keyboard Reader"] > li > article');
  await expect(newReply).toContainText('A reply to B');
  await expect(newReply).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(newReply.getByRole('link', { name: 'Keyboard Reader' })).toBeFocused();

  // Delete cancelled: back to Comment options.
  await choose(options('Comment C'), 'Delete');
  await answer('Cancel');
  await expect(confirm).toHaveCount(0);
  await expect(options('Comment C')).toBeFocused();

  const deleteComment = async (text: string) => {
    await choose(options(text), 'Delete');
    await answer('Delete');
    await expect(item(text)).toHaveCount(0);
  };
  // The first comment deleted: the next one has the focus, and Tab goes into it.
  await deleteComment('Comment C, edited');
  await expect(articleOf('Comment B')).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(item('Comment B').getByRole('link', { name: 'Keyboard Reader' }).first()).toBeFocused();
  // The last one: the one before it.
  await deleteComment('Comment A');
  await expect(articleOf('Comment B')).toBeFocused();
  // A reply with no sibling: its parent.
  await choose(newReply.getByRole('button', { name: 'Comment options' }), 'Delete');
  await answer('Delete');
  await expect(newReply).toHaveCount(0);
  await expect(articleOf('Comment B')).toBeFocused();
  // None left: the panel's heading, and Tab goes on to its close button.
  await deleteComment('Comment B');
  await expect(panel.getByText('No comments yet')).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Comments (0)' })).toBeFocused();
  await expectFocusKept(page);
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Close comments' })).toBeFocused();
});

test('the comment box counts its characters near the 5,000 limit and says when a paste was cut', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Limit Author');
  const reader = await createVerifiedUser(stack, 'Long Writer');
  const post = await createBlog(stack, author);
  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const panel = page.getByRole('dialog', { name: 'Comments (0)' });
  const box = panel.getByPlaceholder('Write a comment...');

  await box.fill('a'.repeat(4_400));
  await expect(panel.getByText(/\/5,000$/)).toHaveCount(0);
  await box.fill('a'.repeat(4_600));
  await expect(panel.getByText('4,600/5,000')).toBeVisible();
  await expect(box).toHaveAccessibleDescription('4,600/5,000');

  // A paste longer than the limit stops at it, and the box says so.
  await box.fill('');
  await box.focus();
  await page.keyboard.insertText('b'.repeat(6_000));
  await expect(box).toHaveValue('b'.repeat(5_000));
  await expect(panel.getByText('5,000 characters: the limit')).toBeVisible();
  await panel.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Comments (1)' })).toBeVisible();
  // Said to a screen reader too: the box only empties.
  await expect(page.getByTestId('comment-posted')).toHaveText('Comment posted');
  await expect(page.getByText('5,000 characters: the limit')).toHaveCount(0);
});
