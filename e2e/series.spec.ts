import { axeScan, formatFindings, isBlocking } from './support/axe';
import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { createBlog } from './support/reading';

/** Series (issue 16): 'Part n of m' on each post's page, the other parts one link away. */
test('a post in a series shows Part 2 of 2 and links to part 1', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Series Writer');
  const stamp = Date.now();
  const first = await createBlog(stack, author, { title: `Series basics ${stamp}` });
  const second = await createBlog(stack, author, { title: `Series follow-up ${stamp}` });
  const { series } = await api(stack, author, 'POST', '/series', { title: `Learning series ${stamp}` });
  await api(stack, author, 'PUT', `/series/${series.id}/posts`, { blogIds: [first.blogId, second.blogId] });

  await page.goto(`/blog/${second.blogId}`);
  const box = page.getByRole('navigation', { name: `Series: Learning series ${stamp}` });
  await expect(box).toContainText('Part 2 of 2');
  await expect(box.getByText(second.title)).toHaveAttribute('aria-current', 'page');
  const findings = await axeScan(page, 'blog page with a series');
  expect(findings.filter(isBlocking), formatFindings(findings)).toEqual([]);

  await box.getByRole('link', { name: first.title }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${first.blogId}$`));
  await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
  await expect(page.getByRole('navigation', { name: `Series: Learning series ${stamp}` })).toContainText('Part 1 of 2');
});

test("the editor's Series select starts a new series and adds the post to the end of one", async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Series Editor');
  const stamp = Date.now();
  const first = await createBlog(stack, author, { title: `Editor part one ${stamp}` });
  const second = await createBlog(stack, author, { title: `Editor part two ${stamp}` });
  await signInAs(page, author.user);

  await page.goto(`/edit/${first.blogId}`);
  const select = page.getByLabel('Series', { exact: true });
  await expect(select).toBeEnabled();
  await select.selectOption({ label: 'New series…' });
  await page.getByLabel('New series title').fill(`Editor series ${stamp}`);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(select.locator('option:checked')).toHaveText(`Editor series ${stamp}`);

  await page.goto(`/edit/${second.blogId}`);
  await expect(page.getByLabel('Series', { exact: true })).toBeEnabled();
  await page.getByLabel('Series', { exact: true }).selectOption({ label: `Editor series ${stamp}` });
  await expect(page.getByLabel('Series', { exact: true }).locator('option:checked')).toHaveText(`Editor series ${stamp}`);

  await page.goto(`/blog/${second.blogId}`);
  await expect(page.getByRole('navigation', { name: `Series: Editor series ${stamp}` })).toContainText('Part 2 of 2');
});

test("the editor's Series select loads a writer's series a page at a time", async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Many Series');
  const stamp = Date.now();
  const post = await createBlog(stack, author, { title: `Paged series post ${stamp}` });
  // One more than a page (SERIES_PAGE_SIZE is 50); the post is in the last, which is on page 2.
  let last = '';
  for (let i = 1; i <= 51; i++) last = (await api(stack, author, 'POST', '/series', { title: `Series ${i} ${stamp}` })).series.id;
  await api(stack, author, 'PUT', `/series/${last}/posts`, { blogIds: [post.blogId] });
  await signInAs(page, author.user);

  await page.goto(`/edit/${post.blogId}`);
  const select = page.getByLabel('Series', { exact: true });
  await expect(select).toBeEnabled();
  // The post's own series shows even before its page is loaded.
  await expect(select.locator('option:checked')).toHaveText(`Series 51 ${stamp}`);
  await expect(select.locator('option', { hasText: `Series 50 ${stamp}` })).toHaveCount(1);
  await select.selectOption({ label: 'More series…' });
  await expect(select.locator('option', { hasText: 'More series…' })).toHaveCount(0);
  await expect(select.locator('option', { hasText: `Series 51 ${stamp}` })).toHaveCount(1);
  await expect(select.locator('option:checked')).toHaveText(`Series 51 ${stamp}`);
  // Choosing a series of the first page still works.
  await select.selectOption({ label: `Series 2 ${stamp}` });
  await expect(select.locator('option:checked')).toHaveText(`Series 2 ${stamp}`);
  expect((await api(stack, author, 'GET', `/blogs/${post.blogId}/series`)).seriesId).not.toBe(last);
});
