import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * Acting on a blog (SPEC.md 2, 4, 5): like, save and follow toggles, the author's Edit and Delete.
 * Content is created through the API with Bearer tokens; the UI is driven in Chromium.
 */

import { api, article, createBlog, likeButton, pageAs, toast } from './support/reading';

test('like, save and follow toggle for a second user and survive a reload; signed out asks to sign in', async ({
  page,
  stack,
  browser,
}) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Toggle Author');
  const reader = await createVerifiedUser(stack, 'Toggle Reader');
  const post = await createBlog(stack, author);

  // Signed out: every toggle asks to sign in and nothing changes.
  const visitor = await pageAs(browser, stack, null);
  await visitor.goto(`/blog/${post.blogId}`);
  await likeButton(visitor, post.title).click();
  await expect(toast(visitor, 'Please sign in to like this blog')).toBeVisible();
  await article(visitor, post.title).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(visitor, 'Please sign in to save this blog')).toBeVisible();
  await article(visitor, post.title).getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(toast(visitor, 'Please sign in to follow this creator')).toBeVisible();
  await expect(likeButton(visitor, post.title)).toHaveAccessibleName('0 likes');
  await visitor.context().close();

  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  const like = likeButton(page, post.title);
  await expect(like).toHaveAccessibleName('0 likes');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAccessibleName('1 like');
  await expect(like).toHaveAttribute('aria-pressed', 'true');

  const save = article(page, post.title).getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(article(page, post.title).getByRole('button', { name: 'Saved', exact: true })).toHaveAttribute('aria-pressed', 'true');

  await article(page, post.title).getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(article(page, post.title).getByRole('button', { name: 'Following', exact: true })).toBeVisible();
  // The session's following list follows the server's answer.
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').following)).toContain(author.user.id);

  await page.reload();
  await expect(likeButton(page, post.title)).toHaveAccessibleName('1 like');
  await expect(article(page, post.title).getByRole('button', { name: 'Saved', exact: true })).toBeVisible();
  await expect(article(page, post.title).getByRole('button', { name: 'Following', exact: true })).toBeVisible();
  const fromApi = await api(stack, reader.user.token, 'GET', `/blogs/${post.blogId}`);
  expect(fromApi.body.blog).toMatchObject({ isLiked: true, isSaved: true, isFollowing: true, likeCount: 1, saveCount: 1 });

  // Toggling back.
  await likeButton(page, post.title).click();
  await expect(likeButton(page, post.title)).toHaveAccessibleName('0 likes');
  await article(page, post.title).getByRole('button', { name: 'Saved', exact: true }).click();
  await expect(article(page, post.title).getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await article(page, post.title).getByRole('button', { name: 'Following', exact: true }).click();
  await expect(article(page, post.title).getByRole('button', { name: 'Follow', exact: true })).toBeVisible();

  // A failing toggle reverts and shows the server's message.
  await page.route(`**/api/v1/blogs/like/${post.blogId}`, (route) =>
    route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Slow down' }) }),
  );
  await likeButton(page, post.title).click();
  await expect(toast(page, 'Slow down')).toBeVisible();
  await expect(likeButton(page, post.title)).toHaveAccessibleName('0 likes');
  await expect(likeButton(page, post.title)).toHaveAttribute('aria-pressed', 'false');

  // The author sees no Follow button.
  const own = await pageAs(browser, stack, author);
  await own.goto(`/blog/${post.blogId}`);
  await expect(article(own, post.title).getByRole('link', { name: 'Edit' })).toBeVisible();
  await expect(article(own, post.title).getByRole('button', { name: /^Follow/ })).toHaveCount(0);
  await own.context().close();
  expect(problems).toEqual([]);
});

test('the author edits and deletes with confirmation; a missing blog says Blog not found', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Deleting Author');
  const post = await createBlog(stack, author, { tags: ['cleanup'] });
  await signInAs(page, author.user);

  // Leaving for the edit page keeps the cached blog; leaving elsewhere clears it.
  await page.goto(`/blog/${post.blogId}`);
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('selectedBlog') ?? 'null')?.blogId)).toBe(post.blogId);
  await article(page, post.title).getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/edit/${post.blogId}$`));
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('selectedBlog') ?? 'null')?.blogId)).toBe(post.blogId);
  await page.goto(`/blog/${post.blogId}`);
  await article(page, post.title).getByRole('link', { name: '#cleanup' }).click();
  await expect(page).toHaveURL(/\/tag\/cleanup$/);
  // The blog page unmounts once the tag page has loaded (the router navigates in a transition).
  await expect(page.getByRole('heading', { name: 'Results for cleanup' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('selectedBlog'))).toBeNull();

  await page.goto(`/blog/${post.blogId}`);
  const post$ = article(page, post.title);
  await expect(post$.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/edit/${post.blogId}`);
  await post$.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete blog' });
  await expect(dialog.getByText('Are you sure you want to delete this blog? This action cannot be undone.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(post$).toBeVisible();

  await post$.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete blog' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Blog deleted successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect((await api(stack, null, 'GET', `/blogs/${post.blogId}`)).status).toBe(404);

  await page.goto(`/blog/${post.blogId}`);
  await expect(page.getByRole('heading', { name: 'Blog not found' })).toBeVisible();
  await page.getByRole('button', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/$/);

  // A failed delete shows the server's message and stays.
  const other = await createBlog(stack, author);
  await page.route(`**/api/v1/blogs/${other.blogId}`, (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false }) })
      : route.continue(),
  );
  await page.goto(`/blog/${other.blogId}`);
  await article(page, other.title).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete blog' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Failed to delete blog')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/blog/${other.blogId}$`));
  expect(problems).toEqual([]);
});
