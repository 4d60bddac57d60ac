import { everyBlock } from '../apps/server/test/blogs';
import { createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { createBlog } from './support/reading';

/**
 * Server-rendered pages (issue 13): the whole post without JavaScript, and with JavaScript the
 * app taking the page over without a layout shift or a console error.
 */

const BODY_TEXTS = [
  'Setting up Kysely',
  'query builder',
  'npm i kysely',
  'Configure',
  'new Kysely<DB>',
  'Types all the way down',
  'SqliteDialect',
  'A video',
];

test('a reader with JavaScript disabled reads the whole post, and a missing post is a real 404', async ({ browser, stack }) => {
  const author = await createVerifiedUser(stack, 'Static Reader Author');
  const { blogId, title } = await createBlog(stack, author, {
    title: 'Readable without scripts',
    tags: ['noscript'],
    blocks: everyBlock(),
  });
  const context = await browser.newContext({ baseURL: stack.baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  const res = await page.goto(`/blog/${blogId}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(`${title} · Inkwell`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('link', { name: /Static Reader Author/ })).toBeVisible();
  await expect(page.getByText(/\d+ min read/)).toBeVisible();
  for (const text of BODY_TEXTS) await expect(page.getByText(text, { exact: false }).first(), text).toBeVisible();
  // Links work without the app: the tag page lists the post.
  await page.getByRole('link', { name: '#noscript' }).click();
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  const missing = await page.goto('/blog/not-a-post-000000');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Blog not found' })).toBeVisible();
  await context.close();
});

test('with JavaScript the app takes over the blog and home pages with no layout shift and no console error', async ({ browser, stack }) => {
  const author = await createVerifiedUser(stack, 'Hydration Author');
  const { blogId, title } = await createBlog(stack, author, { title: 'Taken over in place', blocks: everyBlock() });
  const context = await browser.newContext({ baseURL: stack.baseURL });
  await context.addInitScript(() => {
    const w = window as unknown as { cls: number };
    w.cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // The fixture's image and video live on hosts this machine cannot reach.
    if (m.type() === 'error' && !m.text().includes('ERR_NAME_NOT_RESOLVED')) errors.push(m.text());
  });
  for (const url of [`/blog/${blogId}`, '/']) {
    await page.goto(url);
    // The server page gives way to the app's own screen.
    await expect(page.locator('#server-page')).toHaveCount(0);
    await expect(page.locator('#root')).toBeVisible();
    if (url !== '/') {
      await expect(page.getByRole('article', { name: title })).toBeVisible();
      await expect(page.getByRole('button', { name: /Follow/ })).toBeVisible();
    } else {
      await expect(page.getByRole('link', { name: title })).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { cls: number }).cls), url).toBe(0);
  }
  expect(errors).toEqual([]);
  await context.close();
});

test('a draft is a 404 page, and its owner still sees it through the app', async ({ browser, stack }) => {
  const author = await createVerifiedUser(stack, 'Draft Owner');
  const res = await fetch(`${stack.baseURL}/api/v1/blogs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${author.user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Owner-only draft',
      description: 'd',
      tags: [],
      draft: true,
      content: { blocks: [{ type: 'paragraph', data: { text: 'Draft body' } }] },
    }),
  });
  const { blogId } = (await res.json()).blog;
  const context = await browser.newContext({ baseURL: stack.baseURL });
  const page = await context.newPage();
  await signInAs(page, author.user);
  const nav = await page.goto(`/blog/${blogId}`);
  expect(nav?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Owner-only draft' })).toBeVisible();
  await expect(page.getByText('Draft body')).toBeVisible();
  await context.close();
});

test('favicon, touch icon and web app manifest are served', async ({ stack }) => {
  const manifest = await fetch(`${stack.baseURL}/manifest.webmanifest`);
  expect(manifest.status).toBe(200);
  const body = (await manifest.json()) as { name: string; theme_color: string; icons: { src: string; sizes: string }[] };
  expect(body.name).toBe('Inkwell');
  expect(body.theme_color).toMatch(/^#/);
  for (const icon of [...body.icons.map((i) => i.src), '/apple-touch-icon.png', '/favicon-32.png']) {
    const res = await fetch(`${stack.baseURL}${icon}`);
    expect(res.status, icon).toBe(200);
    expect(res.headers.get('content-type'), icon).toMatch(/^image\//);
  }
  const html = await (await fetch(`${stack.baseURL}/`)).text();
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
});
