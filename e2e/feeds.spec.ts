import { api, createVerifiedUser, expect, test, watchConsole } from './support/fixtures';

/** Issue 13: the visible RSS links of profile and tag pages lead to real feeds, served beside the web app. */
test('profile and tag pages link their feeds, and feeds, sitemap and robots.txt are served by the built app', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Feed Writer');
  const tag = `feedtag${Date.now()}`;
  await api(stack, author, 'POST', '/blogs', {
    title: 'Subscribed reading',
    description: 'A post for feed readers',
    content: { blocks: [{ type: 'header', data: { text: 'Hello feeds', level: 2 } }] },
    tags: [tag],
    draft: false,
  });
  await api(stack, author, 'POST', '/blogs', {
    title: 'Unfinished draft',
    description: 'Never in a feed',
    content: { blocks: [{ type: 'paragraph', data: { text: 'secret' } }] },
    tags: [tag],
    draft: true,
  });

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/@${author.user.username}`);
    const rss = page.getByRole('region', { name: 'Profile' }).getByRole('link', { name: "Subscribe to Feed Writer's posts: RSS feed" });
    await expect(rss).toBeVisible();
    await expect(rss).toHaveAttribute('href', `/@${author.user.username}/feed.xml`);
    await page.screenshot({ path: `test-results/feeds-profile-${width}.png` });

    await page.goto(`/tag/${tag}`);
    const tagRss = page.getByRole('link', { name: `Subscribe to posts tagged #${tag}: RSS feed` });
    await expect(tagRss).toBeVisible();
    await expect(tagRss).toHaveAttribute('href', `/tag/${tag}/feed.xml`);
    await page.screenshot({ path: `test-results/feeds-tag-${width}.png` });
  }

  // The links lead to the server's feed documents, not to the web app's not-found screen.
  const feed = await page.request.get(`/tag/${tag}/feed.xml`);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
  const body = await feed.text();
  expect(body).toContain('<title type="text">Subscribed reading</title>');
  expect(body).toContain('&lt;h2&gt;Hello feeds&lt;/h2&gt;');
  expect(body).not.toContain('Unfinished draft');
  const author2 = await page.request.get(`/@${author.user.username}/rss.xml`);
  expect(author2.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');

  const robots = await page.request.get('/robots.txt');
  expect(await robots.text()).toContain('Disallow: /api/');
  const sitemap = await page.request.get('/sitemap.xml');
  expect(await sitemap.text()).toContain('<sitemapindex');
  expect(problems).toEqual([]);
});
