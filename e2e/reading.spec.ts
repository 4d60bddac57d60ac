import { createVerifiedUser, expect, test, watchConsole } from './support/fixtures';

/**
 * The reading side (SPEC.md 2, 4, 5): home cards and Load More, search and tag results, and
 * the blog page with every block type. Content is created through the API with Bearer tokens.
 */

import { article, createBlog, toast } from './support/reading';

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
  // From the keyboard: the disabled button loses the focus, which goes to the first new card.
  await loadMore.focus();
  await page.keyboard.press('Enter');
  const busy = page.getByRole('button', { name: 'Loading...' });
  await expect(busy).toBeDisabled();
  release();
  await expect(page.getByRole('heading', { name: `Home card ${stamp} number 2` })).toBeVisible();
  await expect(cards.nth(4).getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(cards.nth(4).getByRole('link', { name: `Home card ${stamp} number 2` })).toBeFocused();
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
  // SPEC.md 8 clears the list; what is left says the read failed, not that there are no posts.
  await expect(page.getByText('The posts could not be loaded.')).toBeVisible();
  await expect(page.getByText('No Blogs Found. Start Writing 😃')).toHaveCount(0);
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

  // Pasted text longer than a search takes (200 characters) is cut to it, not refused with a
  // validation message and a Try again that cannot succeed; so is a hand-made address.
  const long = `${word} ${'verbose '.repeat(75)}`;
  await page.getByPlaceholder('Search articles...').first().fill(long);
  await page.getByPlaceholder('Search articles...').first().press('Enter');
  const settled = page.getByText('No blogs found').or(cards.first());
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Results for ${word} verbose`);
  await expect(settled.first()).toBeVisible();
  await expect(page.getByText('The posts could not be loaded.')).toHaveCount(0);
  await page.goto(`/search?q=${encodeURIComponent(long)}`);
  await expect(settled.first()).toBeVisible();
  await expect(page.getByText('The posts could not be loaded.')).toHaveCount(0);
  await expect(page.getByText(/Too big/)).toHaveCount(0);
  await page.goto('/tag/no-such-tag-here');
  await expect(page).toHaveURL(/\/tag\/nosuchtaghere$/); // the canonical form of the tag
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for nosuchtaghere');
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
  await expect(post.getByRole('link', { name: '#nodejs' })).toHaveAttribute('href', '/tag/nodejs'); // canonical form
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
