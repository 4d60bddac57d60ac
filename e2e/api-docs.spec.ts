import { expect, test, watchConsole } from './support/fixtures';

/** The API reference (/api/docs): rendered from our own files under its CSP, nothing from elsewhere. */
test('the API reference lists the routes with no CSP violation and no request to another origin', async ({ page, baseURL }) => {
  const problems = watchConsole(page);
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(baseURL) && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  await page.goto('/api/docs');
  // Swagger UI parses and renders the whole spec (every route's schemas) before its heading shows.
  // On a slow 2-core host, beside the axe suite in the other worker, that once took just over the
  // default 10 s: the failure screenshot showed the finished page.
  await expect(page.getByRole('heading', { name: /Inkwell API/ })).toBeVisible({ timeout: 30_000 });
  const createBlog = page.locator('.opblock-post', { hasText: '/api/v1/blogs' }).first();
  await expect(createBlog).toBeVisible();
  await createBlog.locator('.opblock-summary').click();
  await expect(createBlog.getByText('Request body')).toBeVisible();
  expect(elsewhere).toEqual([]);
  expect(problems).toEqual([]);
});
