import type { Browser, Page } from '@playwright/test';
import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';
import type { Stack } from './support/stack';

/**
 * The reading side (SPEC.md 2, 4, 5): home cards and Load More, search and tag results,
 * the blog page with every block type, like/save/follow, comments, author Edit/Delete.
 * Content is created through the API with Bearer tokens; the UI is driven in Chromium.
 */

type User = Awaited<ReturnType<typeof createVerifiedUser>>;

async function api(stack: Stack, token: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.baseURL}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

let counter = 0;
async function createBlog(
  stack: Stack,
  author: User,
  fields: { title?: string; description?: string; tags?: string[]; blocks?: unknown[]; image?: string } = {},
): Promise<{ blogId: string; title: string }> {
  const title = fields.title ?? `Reading post ${Date.now()} ${counter++}`;
  const res = await api(stack, author.user.token, 'POST', '/blogs', {
    title,
    description: fields.description ?? 'A short description of the post.',
    tags: fields.tags ?? [],
    draft: false,
    ...(fields.image ? { image: fields.image } : {}),
    content: { blocks: fields.blocks ?? [{ type: 'paragraph', data: { text: 'Hello from the body.' } }] },
  });
  if (res.status !== 201) throw new Error(`create blog ${res.status} ${JSON.stringify(res.body)}`);
  return { blogId: res.body.blog.blogId as string, title };
}

async function pageAs(browser: Browser, stack: Stack, user: User | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.baseURL });
  const page = await context.newPage();
  if (user) await signInAs(page, user.user);
  return page;
}

const article = (page: Page, title: string) => page.getByRole('article', { name: title });
const likeButton = (page: Page, title: string) => article(page, title).getByRole('button', { name: /^\d+ likes?$/ });
const commentsButton = (page: Page, title: string) => article(page, title).getByRole('button', { name: /^\d+ comments?$/ });
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });

test('home shows blog cards; Load More appends the next page, shows Loading..., and hides at the end', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Home Writer');
  const stamp = Date.now();
  const posts: { blogId: string; title: string }[] = [];
  for (let i = 1; i <= 6; i++) {
    posts.push(
      await createBlog(stack, author, {
        title: `Home card ${stamp} number ${i}`,
        description: `Description of card ${i}`,
        tags: ['alpha', 'beta', 'gamma'],
        blocks: Array.from({ length: 6 }, (_, n) => ({ type: 'paragraph', data: { text: `Block ${n}` } })),
      }),
    );
  }
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));

  await page.goto('/');
  const cards = page.locator('main ul > li article');
  await expect(cards).toHaveCount(4);
  // Newest first: posts 6, 5, 4, 3.
  for (const [i, n] of [6, 5, 4, 3].entries()) {
    await expect(cards.nth(i).getByRole('heading')).toHaveText(`Home card ${stamp} number ${n}`);
  }
  const first = cards.first();
  await expect(first.getByRole('link', { name: `Home card ${stamp} number 6` })).toHaveAttribute('href', `/blog/${posts[5]!.blogId}`);
  await expect(first.getByRole('link', { name: 'Home Writer' })).toHaveAttribute('href', `/@${author.user.username}`);
  await expect(first.getByRole('img', { name: 'Home Writer' })).toHaveText('HW');
  await expect(first.getByText('Description of card 6')).toBeVisible();
  await expect(first.getByRole('link', { name: '#alpha' })).toHaveAttribute('href', '/tag/alpha');
  await expect(first.getByRole('link', { name: '#beta' })).toBeVisible();
  await expect(first.getByText('#gamma')).toHaveCount(0);
  await expect(first.getByText('2 min read')).toBeVisible();

  // Hold page 2 so the busy state can be seen.
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/api\/v1\/blogs\?.*page=2/, async (route) => {
    await held;
    await route.continue();
  });
  const loadMore = page.getByRole('button', { name: 'Load More' });
  await loadMore.click();
  const busy = page.getByRole('button', { name: 'Loading...' });
  await expect(busy).toBeDisabled();
  release();
  await expect(page.getByRole('heading', { name: `Home card ${stamp} number 2` })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Home card ${stamp} number 1` })).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(6);
  // Keep loading until the end: then the button is gone.
  for (let i = 0; i < 20 && (await page.getByRole('button', { name: 'Load More' }).isVisible()); i++) {
    const before = await cards.count();
    await page.getByRole('button', { name: 'Load More' }).click();
    await expect.poll(() => cards.count()).toBeGreaterThan(before);
  }
  await expect(page.getByRole('button', { name: 'Load More' })).toHaveCount(0);

  // Neither highlight.js nor the comment panel is part of the home page.
  expect(requested.filter((u) => /\/assets\/(highlight|CommentPanel|BlogPage)-/.test(u))).toEqual([]);
  expect(problems).toEqual([]);
});

test('a card without creator shows Unknown linking to /@unknown; a failed load shows the error', async ({ page }) => {
  await page.route(/\/api\/v1\/blogs\?.*page=1/, (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        success: true,
        hasMore: true,
        blogs: [
          {
            _id: 'x1',
            blogId: 'orphan-post-abc123',
            title: 'Orphan post',
            description: 'Its author is gone',
            image: null,
            tags: [],
            draft: false,
            creator: null,
            readingTime: 1,
            likeCount: 0,
            commentCount: 0,
            saveCount: 0,
            createdAt: new Date().toISOString(),
          },
        ],
      }),
    }),
  );
  await page.route(/\/api\/v1\/blogs\?.*page=2/, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Feed is down' }) }),
  );
  await page.goto('/');
  const card = page.locator('main ul > li article').first();
  await expect(card.getByRole('link', { name: 'Unknown' })).toHaveAttribute('href', '/@unknown');
  await expect(card.getByRole('img', { name: 'Unknown' })).toHaveText('U');
  await page.getByRole('button', { name: 'Load More' }).click();
  await expect(toast(page, 'Feed is down')).toBeVisible();
  await expect(page.getByText('No Blogs Found. Start Writing 😃')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load More' })).toHaveCount(0);
});

test('search and tag pages show Results for the term, cards and Load more', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Search Writer');
  const word = `quokka${Date.now()}`;
  const tag = `tg${Date.now()}`;
  for (let i = 1; i <= 11; i++) {
    await createBlog(stack, author, { title: `About ${word} part ${i}`, tags: [tag, 'misc'] });
  }
  const cards = page.locator('main ul > li article');

  await page.goto(`/search?q=${word}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for ${word}`);
  await expect(cards).toHaveCount(10);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(cards).toHaveCount(11);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  await page.goto(`/tag/${tag}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for ${tag}`);
  await expect(cards).toHaveCount(10);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(cards).toHaveCount(11);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(cards.first().getByRole('link', { name: `#${tag}` })).toHaveAttribute('href', `/tag/${tag}`);

  // The navbar search box leads to the same page.
  await page.getByPlaceholder('Search articles...').first().fill(`${word} part`);
  await page.getByPlaceholder('Search articles...').first().press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for ${word} part`);

  await page.goto('/search?q=nothingmatchesthisxyz');
  await expect(page.getByText('No blogs found')).toBeVisible();
  await page.goto('/tag/no-such-tag-here');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for no-such-tag-here');
  await expect(page.getByText('No blogs found')).toBeVisible();
  expect(problems).toEqual([]);
});

const RICH_BLOCKS = [
  { id: 'h1', type: 'header', data: { text: 'Getting <i>started</i>', level: 2 } },
  {
    id: 'p1',
    type: 'paragraph',
    data: {
      text: 'Some <b>bold</b>, <i>italic</i>, <u>underlined</u>, <mark class="cdx-marker">marked</mark>, <code class="inline-code">inline()</code> and <a href="https://example.com/docs">a link</a>.',
    },
  },
  {
    id: 'l1',
    type: 'list',
    data: {
      style: 'ordered',
      items: [
        { content: 'First <b>item</b>', items: [{ content: 'Nested one', items: [{ content: 'Deeper', items: [] }] }] },
        { content: 'Second item', items: [] },
      ],
    },
  },
  {
    id: 'c1',
    type: 'code',
    data: { code: 'const answer = 42;\nfunction greet(name) {\n  return "hi " + name;\n}', language: 'javascript' },
  },
  {
    id: 'q1',
    type: 'quote',
    data: { text: 'Simplicity is <b>prerequisite</b> for reliability.', caption: 'Edsger Dijkstra', alignment: 'left' },
  },
  { id: 'd1', type: 'delimiter', data: {} },
  {
    id: 't1',
    type: 'table',
    data: {
      withHeadings: true,
      content: [
        ['Language', 'Typing'],
        ['TypeScript', '<b>static</b>'],
        ['Python', 'dynamic'],
      ],
    },
  },
  {
    id: 'e1',
    type: 'embed',
    data: { service: 'youtube', source: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', embed: '', caption: 'A <i>classic</i> video' },
  },
  {
    id: 'i1',
    type: 'image',
    data: {
      file: { url: 'https://images.example.com/diagram.png' },
      caption: 'The <b>architecture</b> diagram',
      withBorder: true,
      withBackground: false,
      stretched: true,
    },
  },
  { id: 'v1', type: 'paragraph', data: { text: 'Remember to back up first.' }, tunes: { textVariant: 'call-out' } },
  { id: 'v2', type: 'paragraph', data: { text: 'Small print details.' }, tunes: { textVariant: 'details' } },
];

test('a blog page renders every block type, with highlight.js loaded only for code', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Rich Author');
  const rich = await createBlog(stack, author, {
    title: `Every block ${Date.now()}`,
    description: 'All the blocks in one post',
    tags: ['react', 'node.js', 'testing'],
    image: 'https://images.example.com/featured.png',
    blocks: RICH_BLOCKS,
  });
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));

  await page.goto(`/blog/${rich.blogId}`);
  const post = article(page, rich.title);
  await expect(post.getByRole('heading', { level: 1 })).toHaveText(rich.title);
  await expect(post.locator('header img').first()).toHaveAttribute('src', 'https://images.example.com/featured.png');
  await expect(post.getByRole('link', { name: 'Rich Author' })).toHaveAttribute('href', `/@${author.user.username}`);
  await expect(post.getByText('3 min read')).toBeVisible(); // 11 blocks / 5, rounded up
  await expect(post.locator('time').first()).toHaveText(/ago$/);
  await expect(post.getByRole('link', { name: '#node.js' })).toHaveAttribute('href', '/tag/node.js');
  await expect(post.getByRole('button', { name: 'Follow' })).toBeVisible(); // signed out: shown, asks to sign in

  const content = post.locator('[data-blog-content]');
  await expect(content.getByRole('heading', { level: 2 })).toHaveText('Getting started');
  await expect(content.locator('h2 i')).toHaveText('started');
  const paragraph = content.locator('p', { hasText: 'Some bold' });
  await expect(paragraph.locator('b')).toHaveText('bold');
  await expect(paragraph.locator('i')).toHaveText('italic');
  await expect(paragraph.locator('u')).toHaveText('underlined');
  await expect(paragraph.locator('mark')).toHaveText('marked');
  await expect(paragraph.locator('code')).toHaveText('inline()');
  const link = paragraph.getByRole('link', { name: 'a link' });
  await expect(link).toHaveAttribute('href', 'https://example.com/docs');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');

  await expect(content.locator('ol > li').first()).toContainText('First item');
  await expect(content.locator('ol > li > ol > li').first()).toContainText('Nested one');
  await expect(content.locator('ol > li > ol > li > ol > li')).toHaveText('Deeper');

  await expect(content.locator('pre code')).toContainText('const answer = 42;');
  await expect(content.locator('pre code .hljs-keyword').first()).toBeVisible(); // highlighted after the lazy load
  await expect(content.getByText('JavaScript', { exact: true })).toBeVisible();

  await expect(content.locator('blockquote')).toContainText('Simplicity is prerequisite for reliability.');
  await expect(content.locator('figure figcaption', { hasText: 'Edsger Dijkstra' })).toBeVisible();
  await expect(content.locator('hr')).toHaveCount(1);

  await expect(content.locator('table thead th')).toHaveText(['Language', 'Typing']);
  await expect(content.locator('table tbody tr')).toHaveCount(2);
  await expect(content.locator('table tbody td b')).toHaveText('static');

  const iframe = content.locator('iframe');
  await expect(iframe).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups allow-presentation');
  await expect(content.locator('figcaption', { hasText: 'A classic video' })).toBeVisible();

  const image = content.locator('figure[data-stretched][data-with-border] img');
  await expect(image).toHaveAttribute('src', 'https://images.example.com/diagram.png');
  await expect(image).toHaveAttribute('alt', 'The architecture diagram');
  await expect(content.locator('figcaption b', { hasText: 'architecture' })).toBeVisible();

  await expect(content.locator('[data-variant="call-out"]')).toHaveText('Remember to back up first.');
  await expect(content.locator('[data-variant="details"]')).toHaveText('Small print details.');

  expect(requested.some((u) => /\/assets\/highlight-/.test(u))).toBe(true);

  // A blog without code blocks never downloads highlight.js.
  const plain = await createBlog(stack, author, { title: `No code ${Date.now()}` });
  const context = await page.context().browser()!.newContext({ baseURL: stack.baseURL });
  const fresh = await context.newPage();
  const freshRequests: string[] = [];
  fresh.on('request', (r) => freshRequests.push(r.url()));
  await fresh.goto(`/blog/${plain.blogId}`);
  await expect(fresh.getByText('Hello from the body.')).toBeVisible();
  expect(freshRequests.filter((u) => /\/assets\/(highlight|CommentPanel)-/.test(u))).toEqual([]);
  await context.close();
  expect(problems).toEqual([]);
});

test('unknown blocks render the Error stub', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Stub Author');
  const post = await createBlog(stack, author, { title: `Stub ${Date.now()}` });
  // The server refuses unknown block types, so an older or foreign block is simulated.
  await page.route(`**/api/v1/blogs/${post.blogId}`, async (route) => {
    const res = await route.fetch();
    const json = await res.json();
    json.blog.content.blocks.push({ type: 'warning', data: { title: 'x', message: 'y' } }, { type: 'list', data: { items: 'broken' } });
    await route.fulfill({ response: res, json });
  });
  await page.goto(`/blog/${post.blogId}`);
  await expect(page.getByText('Hello from the body.')).toBeVisible();
  await expect(page.getByText('The block can not be displayed correctly.')).toHaveCount(2);
  await expect(page.getByText('Error', { exact: true })).toHaveCount(2);
});

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
  await postButton.click();
  await expect(panel).toHaveAccessibleName('Comments (2)');
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
  await expect(confirm.getByText('Are you sure you want to delete this comment? This action cannot be undone.')).toBeVisible();
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
