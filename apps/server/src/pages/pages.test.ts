import { DomUtils } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { createPagesApp, readPage } from '../../test/pages';

let t: TestApp;
let author: TestUser;
let blogId: string;
let blogDbId: string;
let draftId: string;

beforeAll(async () => {
  t = await createPagesApp();
  author = await createUser(t, { name: 'Ada Writer' });
  const res = await createBlog(t, author, {
    title: 'Server pages with Kysely',
    description: 'Head tags, JSON-LD and HTML',
    tags: ['kysely', 'seo'],
  });
  blogId = res.blogId;
  blogDbId = res._id;
  draftId = (await createBlog(t, author, { title: 'A secret draft', draft: true })).blogId;
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('blog page', () => {
  it('has its own head: title, description, canonical, Open Graph, Twitter card and BlogPosting JSON-LD', async () => {
    const res = await get(`/blog/${blogId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const page = readPage(res.body);
    expect(page.titles).toEqual(['Server pages with Kysely · Inkwell']);
    expect(page.meta('description')).toBe('Head tags, JSON-LD and HTML');
    const url = `http://localhost:3000/blog/${blogId}`;
    expect(page.canonical).toBe(url);
    expect(page.meta('og:type')).toBe('article');
    expect(page.meta('og:title')).toBe('Server pages with Kysely · Inkwell');
    expect(page.meta('og:url')).toBe(url);
    expect(page.meta('og:site_name')).toBe('Inkwell');
    expect(page.meta('og:image')).toMatch(/^http:\/\/localhost:3000\/uploads\/cards\/.+\.png$/);
    expect(page.meta('og:image:width')).toBe('1200');
    expect(page.meta('og:image:height')).toBe('630');
    expect(page.meta('article:published_time')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.meta('article:modified_time')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.meta('article:author')).toBe(`http://localhost:3000/@${author.username}`);
    expect(page.metaAll('article:tag')).toEqual(['kysely', 'seo']);
    expect(page.meta('twitter:card')).toBe('summary_large_image');
    expect(page.meta('robots')).toBeUndefined();
    const [ld] = page.jsonLd;
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Server pages with Kysely',
      keywords: 'kysely, seo',
      author: { '@type': 'Person', name: 'Ada Writer', url: `http://localhost:3000/@${author.username}` },
      image: [page.meta('og:image')],
    });
    expect(typeof ld?.datePublished).toBe('string');
    expect(typeof ld?.dateModified).toBe('string');
  });

  it('carries the whole article in the first HTML: title, author, date, reading time and every block', async () => {
    const page = readPage((await get(`/blog/${blogId}`)).body);
    expect(page.elements('h1').map((h) => h.attribs.id)).toEqual(['server-blog-title']);
    for (const text of [
      'Server pages with Kysely',
      'Ada Writer',
      'min read',
      'Setting up Kysely',
      'query builder',
      'npm i kysely',
      'Types all the way down',
      'SqliteDialect',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    ]) {
      expect(page.bodyText).toContain(text);
    }
    for (const tag of ['h2', 'ol', 'pre', 'code', 'blockquote', 'table', 'hr', 'figure', 'figcaption', 'time']) {
      expect(page.elements(tag).length, tag).toBeGreaterThan(0);
    }
    // The date as the app writes a post's day (SPEC.md 9, postDay), so it reads the same when the app takes over.
    expect(page.bodyText).toMatch(
      /\b\d{1,2}(st|nd|rd|th) (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/,
    );
    // The app renders into a hidden #root and replaces the server page when its screen is ready.
    expect(page.root?.attribs.hidden).toBeDefined();
    expect(page.runnableScripts.every((s) => s.attribs.src !== undefined)).toBe(true);
  });

  it('shows the series box of a post in a series, with links to the other parts', async () => {
    const other = await createBlog(t, author, { title: 'Series part <one>' });
    const series = (
      await t.app.inject({ method: 'POST', url: '/api/v1/series', headers: bearer(author.token), payload: { title: 'Kysely & friends' } })
    ).json().series;
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/series/${series.id}/posts`,
      headers: bearer(author.token),
      payload: { blogIds: [other.blogId, blogId] },
    });
    expect(set.statusCode).toBe(200);
    const page = readPage((await get(`/blog/${blogId}`)).body);
    expect(page.bodyText).toContain('Kysely & friends (Part 2 of 2)');
    expect(page.bodyText).toContain('Series part <one>');
    expect(page.elements('a').some((a) => a.attribs.href === `/blog/${other.blogId}`)).toBe(true);
    expect(page.elements('span').some((s) => s.attribs['aria-current'] === 'page')).toBe(true);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/series/${series.id}`, headers: bearer(author.token) });
  });

  it('draws the social card once and serves it from storage as a 1200x630 PNG', async () => {
    const image = readPage((await get(`/blog/${blogId}`)).body).meta('og:image')!;
    const png = await get(new URL(image).pathname);
    expect(png.statusCode).toBe(200);
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(png.rawPayload.readUInt32BE(16)).toBe(1200);
    expect(png.rawPayload.readUInt32BE(20)).toBe(630);
    const rows = await t.database.db
      .selectFrom('uploads')
      .select('storage_key')
      .where('blog_id', '=', blogDbId)
      .where('kind', '=', 'card')
      .execute();
    expect(rows).toHaveLength(1);
    expect(image.endsWith(rows[0]!.storage_key)).toBe(true);
  });

  it('draws the card of a title with characters XML cannot carry (U+FFFF, controls)', async () => {
    const odd = await createBlog(t, author, { title: 'Odd \uffff title \u0001 here <&>' });
    const image = readPage((await get(`/blog/${odd.blogId}`)).body).meta('og:image');
    // The post's own card, not the site's card the page falls back to when drawing fails.
    expect(image).toMatch(/\/uploads\/cards\/.+\.png$/);
    expect(image).not.toContain('/cards/site-');
    const png = await get(new URL(image!).pathname);
    expect(png.statusCode).toBe(200);
    expect(png.rawPayload.readUInt32BE(16)).toBe(1200);
  });

  it('a new version of the post gets a new card; the old one is removed', async () => {
    const first = readPage((await get(`/blog/${blogId}`)).body).meta('og:image')!;
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(author.token),
      payload: {
        title: 'Server pages with Kysely, revised',
        description: 'Head tags, JSON-LD and HTML',
        tags: ['kysely', 'seo'],
        content: { blocks: [{ type: 'paragraph', data: { text: 'Short now' } }] },
        draft: false,
      },
    });
    expect(edit.statusCode).toBe(200);
    const page = readPage((await get(`/blog/${blogId}`)).body);
    expect(page.titles[0]).toBe('Server pages with Kysely, revised · Inkwell');
    const second = page.meta('og:image')!;
    expect(second).not.toBe(first);
    expect((await get(new URL(first).pathname)).statusCode).toBe(404);
    expect((await get(new URL(second).pathname)).statusCode).toBe(200);
  });

  it('uses the featured image when the post has one', async () => {
    const res = await createBlog(t, author, { title: 'With a picture', image: 'https://images.example.com/cover.png' });
    const page = readPage((await get(`/blog/${res.blogId}`)).body);
    expect(page.meta('og:image')).toBe('https://images.example.com/cover.png');
    expect(page.meta('twitter:image')).toBe('https://images.example.com/cover.png');
  });
});

describe('status codes', () => {
  it('a missing post is 404 with the not-found screen and the app shell', async () => {
    const res = await get('/blog/no-such-post-abc123');
    expect(res.statusCode).toBe(404);
    const page = readPage(res.body);
    expect(page.bodyText).toContain('Blog not found');
    expect(page.meta('robots')).toBe('noindex, follow');
    expect(page.root).not.toBeNull();
  });

  it('a draft is 404 with nothing of it in the page, even with its owner token (a navigation has none)', async () => {
    for (const headers of [{}, bearer(author.token)]) {
      const res = await get(`/blog/${draftId}`, headers);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('A secret draft');
    }
  });

  it('drafts are absent from the home, tag and profile pages', async () => {
    for (const url of ['/', '/tag/kysely', `/@${author.username}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('A secret draft');
      expect(res.body, url).not.toContain(draftId);
    }
  });

  it('a missing profile, an unknown tab, a tag no post carries and an unknown path are 404', async () => {
    for (const url of ['/@nobody-here', `/@${author.username}/nothing`, '/tag/nosuchtag', '/no/such/page', '/nope']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('app-only screens answer 200 with the shell, not listed by search engines', async () => {
    for (const url of ['/signin', '/forgot-password', '/reset-password/abc', '/add-blog', '/setting', '/moderation', `/edit/${blogId}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      const page = readPage(res.body);
      expect(page.meta('robots'), url).toBe('noindex, follow');
      // These screens do need JavaScript: index.html's note stays.
      expect(DomUtils.getElementsByTagName('noscript', page.doc), url).toHaveLength(1);
    }
  });

  it('old addresses answer 301 to the one address: the internal id, a trailing slash, capitals', async () => {
    const byId = await get(`/blog/${blogDbId}`);
    expect(byId.statusCode).toBe(301);
    expect(byId.headers.location).toBe(`/blog/${blogId}`);
    const slash = await get(`/blog/${blogId}/`);
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe(`/blog/${blogId}`);
    const profile = await get(`/@${author.username.toUpperCase()}`);
    expect(profile.statusCode).toBe(301);
    expect(profile.headers.location).toBe(`/@${author.username}`);
    const profileSlash = await get(`/@${author.username}/?x=1`);
    expect(profileSlash.statusCode).toBe(301);
    expect(profileSlash.headers.location).toBe(`/@${author.username}?x=1`);
    const tag = await get('/tag/KYSELY?x=1');
    expect(tag.statusCode).toBe(301);
    expect(tag.headers.location).toBe('/tag/kysely?x=1');
    // Never a redirect to another site.
    const offsite = await get('//evil.example/');
    expect(String(offsite.headers.location ?? '')).not.toMatch(/^(\/\/|https?:)/);
  });

  it('feeds, sitemap and robots.txt keep their routes beside the pages', async () => {
    for (const url of ['/feed.xml', `/@${author.username}/feed.xml`, '/tag/kysely/feed.xml', '/sitemap.xml', '/robots.txt']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).not.toMatch(/^text\/html/);
    }
  });

  it('an address the router cannot read is the 404 page with its security headers, not a framework JSON', async () => {
    for (const url of ['/blog/%FF', `/blog/${'x'.repeat(200)}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(readPage(res.body).root, url).not.toBeNull();
      expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'");
      expect(res.headers['x-request-id'], url).toBeTruthy();
    }
  });

  it('the API and uploads keep their JSON 404', async () => {
    const res = await get('/api/v1/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json().success).toBe(false);
  });
});

describe('list and profile pages', () => {
  it('home: WebSite JSON-LD with a SearchAction and the newest posts as plain links', async () => {
    const page = readPage((await get('/')).body);
    expect(page.titles).toEqual(['Discover & Share Knowledge · Inkwell']);
    expect(page.canonical).toBe('http://localhost:3000/');
    expect(page.meta('og:type')).toBe('website');
    expect(page.meta('og:image:width')).toBe('1200');
    expect(page.jsonLd[0]).toMatchObject({
      '@type': 'WebSite',
      potentialAction: { '@type': 'SearchAction', 'query-input': 'required name=search_term_string' },
    });
    const hrefs = page.elements('a').map((a) => a.attribs.href);
    expect(hrefs).toContain(`/blog/${blogId}`);
    // Feed readers find the site's feeds; the page is readable, so no 'needs JavaScript' note.
    const alternates = DomUtils.getElementsByTagName('link', page.doc).filter((l) => l.attribs.rel === 'alternate');
    expect(alternates.map((l) => l.attribs.href)).toEqual(['/feed.xml', '/rss.xml', '/feed.json']);
    expect(DomUtils.getElementsByTagName('noscript', page.doc)).toHaveLength(0);
  });

  it('profile: Person JSON-LD, the author posts as links', async () => {
    const page = readPage((await get(`/@${author.username}`)).body);
    expect(page.titles[0]).toBe(`Ada Writer (@${author.username}) · Inkwell`);
    expect(page.meta('og:type')).toBe('profile');
    expect(page.meta('profile:username')).toBe(author.username);
    expect(page.jsonLd[0]).toMatchObject({ '@type': 'ProfilePage', mainEntity: { '@type': 'Person', name: 'Ada Writer' } });
    expect(page.elements('a').map((a) => a.attribs.href)).toContain(`/blog/${blogId}`);
    // A tab its owner keeps private: the profile without the list, not for search engines.
    const saved = readPage((await get(`/@${author.username}/saved-blogs`)).body);
    expect(saved.meta('robots')).toBe('noindex, follow');
    expect(saved.canonical).toBe(`http://localhost:3000/@${author.username}`);
  });

  it('tag and search pages list their results; search is not indexed', async () => {
    const tag = readPage((await get('/tag/kysely')).body);
    expect(tag.titles[0]).toBe('#kysely · Inkwell');
    expect(tag.canonical).toBe('http://localhost:3000/tag/kysely');
    expect(tag.elements('a').map((a) => a.attribs.href)).toContain(`/blog/${blogId}`);
    const search = readPage((await get('/search?q=kysely')).body);
    expect(search.titles[0]).toBe('Results for kysely · Inkwell');
    expect(search.canonical).toBe('http://localhost:3000/search?q=kysely');
    expect(search.meta('robots')).toBe('noindex, follow');
    expect(search.elements('a').map((a) => a.attribs.href)).toContain(`/blog/${blogId}`);
  });

  it('about has its own title and canonical', async () => {
    const page = readPage((await get('/about')).body);
    expect(page.titles[0]).toBe('About · Inkwell');
    expect(page.canonical).toBe('http://localhost:3000/about');
    expect(page.bodyText).toContain('Our mission');
  });
});

describe('public response cache', () => {
  it('pages are cached like the API reads and a committed write refreshes them', async () => {
    const first = await get('/');
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    expect((await get('/', { 'if-none-match': etag })).statusCode).toBe(304);
    const hits = t.app.publicCache!.hits;
    expect((await get('/')).body).toBe(first.body);
    expect(t.app.publicCache!.hits).toBe(hits + 1);
    const created = await createBlog(t, author, { title: 'Fresh from the press' });
    const after = await get('/');
    expect(after.body).toContain('Fresh from the press');
    expect(after.body).toContain(created.blogId);
  });
  it('a like refreshes the post’s page at once and leaves the lists, the profile and the feeds cached', async () => {
    const reader = await createUser(t, { name: 'Page Reader' });
    const kept = ['/', '/tag/kysely', `/@${author.username}`, '/feed.xml', `/@${author.username}/feed.xml`];
    const page = `/blog/${blogId}`;
    for (const url of [...kept, page]) expect((await get(url)).statusCode).toBe(200);
    const like = await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(reader.token) });
    expect(like.statusCode).toBe(200);
    const hits = t.app.publicCache!.hits;
    for (const url of kept) await get(url);
    expect(t.app.publicCache!.hits).toBe(hits + kept.length);
    const article = await get(page);
    expect(t.app.publicCache!.hits).toBe(hits + kept.length);
    expect(article.body).toMatch(/>1 like</);
  });
  it('a follow refreshes the followed author’s page and leaves the lists and the feeds cached', async () => {
    const fan = await createUser(t, { name: 'Page Fan' });
    const profile = `/@${author.username}`;
    const kept = ['/', '/tag/kysely', '/feed.xml', `/@${author.username}/feed.xml`];
    // The count's own element, next to its label (the username before it may end in digits).
    const followersOn = (html: string) => /<span[^>]*>(\d+)<\/span> <span[^>]*>Followers?<\/span>/.exec(html)?.[1];
    for (const url of kept) expect((await get(url)).statusCode).toBe(200);
    const before = Number(followersOn((await get(profile)).body));
    const follow = await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${author.id}`, headers: bearer(fan.token) });
    expect(follow.json().following).toBe(true);
    const hits = t.app.publicCache!.hits;
    for (const url of kept) await get(url);
    expect(t.app.publicCache!.hits).toBe(hits + kept.length);
    expect(followersOn((await get(profile)).body)).toBe(String(before + 1));
    expect(t.app.publicCache!.hits).toBe(hits + kept.length);
  });
});
