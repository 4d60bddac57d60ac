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
