import { FEED_CONTENT_BUDGET_CHARS, FEED_ENTRY_CONTENT_MAX_CHARS, feedPath } from '@inkwell/core';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { xssCorpus } from '../../test/xss-corpus';
import { feedLinksFor, feedLinkTags, renderFeed } from './feeds';
import type { FeedData } from './feeds.service';

const BASE = 'http://localhost:3000';
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['entry', 'item', 'link', 'category'].includes(name),
});

/** Text exactly as XML carries it: no trimming, no number guessing, no HTML entity decoding. */
const exact = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => ['entry', 'item'].includes(name),
});

let t: TestApp;
let author: TestUser;
let other: TestUser;
const published: string[] = [];
let draftId: string;
let deletedId: string;

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Ada <b>Lovelace</b> & co' });
  other = await createUser(t);
  published.push((await createBlog(t, author, { title: 'First <script>alert(1)</script>', tags: ['react', 'sql'] })).blogId);
  published.push((await createBlog(t, other, { title: 'Second by other', tags: ['react'] })).blogId);
  draftId = (await createBlog(t, author, { title: 'Secret draft', tags: ['react', 'draftonly'], draft: true })).blogId;
  deletedId = (await createBlog(t, author, { title: 'Deleted soon', tags: ['react'] })).blogId;
  const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${deletedId}`, headers: bearer(author.token) });
  expect(del.statusCode).toBe(200);
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

/** The feeds a post of the author's, tagged react, appears in. */
const scopes = () => [
  { kind: 'site' as const },
  { kind: 'author' as const, username: author.username },
  { kind: 'tag' as const, tag: 'react' },
];

function assertSafeHtml(html: string) {
  const parser = new Parser({
    onopentag(name, attribs) {
      expect(['script', 'iframe', 'object', 'embed', 'style', 'svg']).not.toContain(name);
      for (const [attr, value] of Object.entries(attribs)) {
        expect(attr.startsWith('on'), `${attr} in ${html}`).toBe(false);
        if (attr === 'href' || attr === 'src') expect(value.trim().toLowerCase()).not.toMatch(/^(javascript|data|vbscript):/);
      }
    },
  });
  parser.write(html);
  parser.end();
}

describe('Atom feeds', () => {
  it('have the required elements, absolute links, full sanitized content and no drafts or deleted posts', async () => {
    for (const scope of scopes()) {
      const res = await get(feedPath(scope, 'atom'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      expect(XMLValidator.validate(res.body)).toBe(true);
      const feed = xml.parse(res.body).feed;
      expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
      for (const required of ['id', 'title', 'updated']) expect(feed[required], required).toBeTruthy();
      expect(feed.link.find((l: Record<string, string>) => l['@rel'] === 'self')['@href']).toBe(`${BASE}${feedPath(scope, 'atom')}`);
      for (const entry of feed.entry) {
        for (const required of ['id', 'title', 'updated', 'author', 'content']) expect(entry[required], required).toBeTruthy();
        expect(entry.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
        expect(entry.link[0]['@href']).toMatch(new RegExp(`^${BASE}/blog/`));
        assertSafeHtml(entry.content['#text']);
      }

      const parsed = parseFeed(res.body);
      const urls = parsed.items.map((i) => i.url);
      expect(urls).not.toContain(`${BASE}/blog/${draftId}`);
      expect(urls).not.toContain(`${BASE}/blog/${deletedId}`);
      expect(res.body).not.toContain('Secret draft');
      expect(res.body).not.toContain('Deleted soon');
      expect(urls).toContain(`${BASE}/blog/${published[scope.kind === 'author' ? 0 : 1]}`);
    }
  });

  it('carry the post as semantic HTML and escape titles and names', async () => {
    const parsed = parseFeed((await get(feedPath({ kind: 'author', username: author.username }))).body);
    expect(parsed.title).toBe(`Ada <b>Lovelace</b> & co (@${author.username}) on Inkwell`);
    const [item] = parsed.items;
    expect(item?.title).toBe('First <script>alert(1)</script>');
    expect(item?.authors[0]?.name).toBe('Ada <b>Lovelace</b> & co');
    expect(item?.content).toContain('<h2>Setting up <b>Kysely</b></h2>');
    expect(item?.content).toContain('<ol><li>Install<ol><li>npm i kysely</li></ol></li><li>Configure</li></ol>');
    expect(item?.content).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
    expect(item?.categories.map((c) => c.term)).toEqual(['react', 'sql']);
    expect(item?.published).toBeInstanceOf(Date);
  });
});

describe('RSS and JSON feeds', () => {
  it('RSS 2.0 has the required channel and item elements and no drafts', async () => {
    for (const scope of scopes()) {
      const res = await get(feedPath(scope, 'rss'));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(XMLValidator.validate(res.body)).toBe(true);
      const rss = xml.parse(res.body).rss;
      expect(rss['@version']).toBe('2.0');
      for (const required of ['title', 'link', 'description']) expect(rss.channel[required], required).toBeTruthy();
      for (const item of rss.channel.item) {
        for (const required of ['title', 'link', 'guid', 'pubDate', 'description']) expect(item[required], required).toBeTruthy();
        expect(new Date(item.pubDate).getTime()).toBeGreaterThan(0);
        assertSafeHtml(item.description);
      }
      const parsed = parseFeed(res.body);
      expect(parsed.items.length).toBeGreaterThan(0);
      expect(parsed.items.map((i) => i.url)).not.toContain(`${BASE}/blog/${draftId}`);
      expect(res.body).not.toContain('Secret draft');
    }
  });

  it('JSON Feed 1.1 has version, title and item ids with HTML content', async () => {
    const res = await get(feedPath({ kind: 'tag', tag: 'react' }, 'json'));
    expect(res.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    const feed = res.json();
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe('#react on Inkwell');
    expect(feed.feed_url).toBe(`${BASE}/tag/react/feed.json`);
    expect(feed.items.map((i: { url: string }) => i.url).sort()).toEqual(published.map((id) => `${BASE}/blog/${id}`).sort());
    for (const item of feed.items) {
      expect(item.id).toMatch(/^urn:uuid:/);
      expect(item.content_html).toContain('<pre><code class="language-typescript">');
    }
  });

  it('answers an unknown author with 404, a tag without posts with an empty feed, and hides draft-only tags', async () => {
    expect((await get('/@nobody-here/feed.xml')).statusCode).toBe(404);
    const asked = Date.now() - 1000;
    const empty = await get('/tag/nothing-yet/rss.xml');
    expect(empty.statusCode).toBe(200);
    expect(xml.parse(empty.body).rss.channel.item).toBeUndefined();
    // Dated when it was built, not 1 January 1970 (what a reader showed for a feed with no posts yet).
    expect(Date.parse(xml.parse(empty.body).rss.channel.lastBuildDate)).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000);
    const emptyAtom = parseFeed((await get('/tag/nothing-yet/feed.xml')).body);
    expect(emptyAtom.updated?.getTime()).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000);
    expect(parseFeed((await get('/tag/draftonly/feed.xml')).body).items).toEqual([]);
  });
});

describe('conditional GET', () => {
  it('answers 304 to a matching ETag (weak or strong form), from the full path and from the cache; no Last-Modified to go stale', async () => {
    const url = feedPath({ kind: 'site' });
    const first = await get(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['last-modified']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    for (let i = 0; i < 2; i++) {
      // The second round is answered by the public response cache.
      expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);
      // If-None-Match compares weakly (RFC 9110 13.1.2): the tag without W/ matches too.
      expect((await get(url, { 'if-none-match': etag.slice(2) })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': `"other", ${etag.slice(2)}` })).statusCode).toBe(304);
      expect((await get(url, { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() })).statusCode).toBe(200);
    }
    expect(t.app.publicCache?.hits).toBeGreaterThan(0);

    // A new post changes the feed: the old validators no longer match.
    const { blogId } = await createBlog(t, other, { title: 'Newest' });
    const after = await get(url, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(parseFeed(after.body).items[0]?.url).toBe(`${BASE}/blog/${blogId}`);

    // Its deletion changes the feed back, though no remaining item is newer than before.
    const newestEtag = String(after.headers.etag);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blogId}`, headers: bearer(other.token) });
    const gone = await get(url, { 'if-none-match': newestEtag, 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() });
    expect(gone.statusCode).toBe(200);
    expect(parseFeed(gone.body).items.map((i) => i.url)).not.toContain(`${BASE}/blog/${blogId}`);
  });
});

describe('feed size', () => {
  it('carries long posts as their description and a link, so twenty maximum-size posts cannot make a feed of tens of MB', async () => {
    const writer = await createUser(t);
    // `length` characters of '<' in code blocks of at most 50,000 (the block's limit is 100,000).
    const code = (marker: string, length: number) => ({
      blocks: [
        { id: 'p', type: 'paragraph', data: { text: marker } },
        ...Array.from({ length: Math.ceil(length / 50_000) }, (_, i) => ({
          id: `c${i}`,
          type: 'code',
          data: { code: '<'.repeat(Math.min(50_000, length - i * 50_000)), language: 'html' },
        })),
      ],
    });
    const post = (marker: string, length: number) =>
      createBlog(t, writer, { title: marker, description: `About ${marker}`, tags: ['bigfeed'], content: code(marker, length) });
    // Oldest first: a short post, one over the entry cap, then posts that use the budget up, newest first.
    await post('short-one', 10);
    await post('over-cap', FEED_ENTRY_CONTENT_MAX_CHARS + 1);
    const large = Math.floor(FEED_CONTENT_BUDGET_CHARS / 4.5);
    for (let i = 1; i <= 5; i++) await post(`large-${i}`, large);

    for (const format of ['atom', 'rss', 'json'] as const) {
      const res = await get(feedPath({ kind: 'tag', tag: 'bigfeed' }, format));
      expect(res.statusCode).toBe(200);
      // Without the budget: 5 × 89k + 100k of '<', each `&amp;lt;` in XML, about 4.4 MB.
      expect(res.body.length, format).toBeLessThan(8 * FEED_CONTENT_BUDGET_CHARS + 100_000);
      // The XML parser decodes the content's entities once more than JSON does: either way the code's '<' are text.
      const items =
        format === 'json'
          ? (JSON.parse(res.body).items as { title: string; url: string; content_html: string }[]).map((i) => ({
              title: i.title,
              url: i.url,
              html: i.content_html.replaceAll('&lt;', '<'),
            }))
          : parseFeed(res.body).items.map((i) => ({ title: i.title, url: i.url, html: i.content || i.description || '' }));
      const html = (title: string) => items.find((i) => i.title === title)?.html ?? '';
      expect(items.map((i) => i.title)).toEqual(['large-5', 'large-4', 'large-3', 'large-2', 'large-1', 'over-cap', 'short-one']);
      // Newest first until the budget is spent: four large posts whole, the fifth as a link.
      for (const whole of ['large-5', 'large-4', 'large-3', 'large-2', 'short-one']) {
        expect(html(whole), `${format} ${whole}`).toContain('<<<<<<');
        expect(html(whole)).not.toContain('Read the whole post');
      }
      for (const linked of ['large-1', 'over-cap']) {
        const entry = items.find((i) => i.title === linked);
        expect(html(linked), `${format} ${linked}`).toContain(`About ${linked}`);
        expect(html(linked)).toContain(`<a href="${entry?.url}">Read the whole post on Inkwell</a>`);
        expect(html(linked)).not.toContain('<<<');
      }
    }
  });
});

describe('feed documents', () => {
  const corpus = xssCorpus();
  it(`escape all ${corpus.length} XSS payloads in titles, summaries, names and tags into well-formed XML`, () => {
    const data: FeedData = {
      scope: { kind: 'site' },
      id: `${BASE}/`,
      title: corpus[0] ?? '',
      subtitle: corpus[1] ?? '',
      pageUrl: `${BASE}/`,
      updated: new Date().toISOString(),
      items: corpus.map((payload, i) => ({
        id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
        url: `${BASE}/blog/x-${i}`,
        title: payload,
        summary: payload,
        html: '<p>safe</p>',
        published: new Date().toISOString(),
        updated: new Date().toISOString(),
        author: { name: payload, url: `${BASE}/@x` },
        tags: [payload],
      })),
    };
    for (const format of ['atom', 'rss'] as const) {
      const body = renderFeed(data, format, BASE);
      expect(XMLValidator.validate(body), format).toBe(true);
      expect(parseFeed(body).items).toHaveLength(corpus.length);
      // Each payload comes back from the XML as the same text: escaped once, never markup.
      const doc = exact.parse(body);
      const items = format === 'atom' ? doc.feed.entry : doc.rss.channel.item;
      items.forEach((item: { title: string | { '#text': string } }, i: number) => {
        const title = typeof item.title === 'string' ? item.title : item.title['#text'];
        expect(title, format).toBe(stripXmlInvalid(corpus[i] ?? ''));
      });
      expect(JSON.stringify(xml.parse(body))).not.toMatch(/"script"|"iframe"|"@on\w+"/);
    }
    const json = JSON.parse(renderFeed(data, 'json', BASE));
    expect(json.items).toHaveLength(corpus.length);
  });

  it('announces the Atom, RSS and JSON feeds of a page in link tags', () => {
    expect(feedLinksFor({ kind: 'tag', tag: 'react' }, BASE).map((l) => l.href)).toEqual([
      `${BASE}/tag/react/feed.xml`,
      `${BASE}/tag/react/rss.xml`,
      `${BASE}/tag/react/feed.json`,
    ]);
    const html = feedLinkTags({ kind: 'author', username: 'a"b' }, BASE);
    expect(html).toContain(
      '<link rel="alternate" type="application/atom+xml" title="@a&quot;b (Atom)" href="http://localhost:3000/@a%22b/feed.xml">',
    );
  });
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: what XML 1.0 cannot carry.
const stripXmlInvalid = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
