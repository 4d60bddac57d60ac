import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, everyBlock } from '../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../test/helpers';
import { SitemapRepository } from './sitemap.repo';
import { SitemapService } from './sitemap.service';

const BASE = 'http://localhost:3000';
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['sitemap', 'url'].includes(name) });

const ZERO_ID = '00000000-0000-0000-0000-000000000000';
const MAX_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
const queries: CompiledQuery[] = [];
let recording = false;

let t: TestApp;
let author: TestUser;
let lurker: TestUser;
const published: string[] = [];
let draftId: string;
let deletedId: string;
/** A draft among the published posts (ids sort by creation): published late into an old range. */
let late: { _id: string; blogId: string };

beforeAll(async () => {
  t = await createTestApp({}, undefined, (q) => {
    if (recording && /^\s*(with|select)\b/i.test(q.sql)) queries.push(q);
  });
  author = await createUser(t);
  lurker = await createUser(t);
  for (let i = 0; i < 5; i++) {
    published.push((await createBlog(t, author, { title: `Post ${i}`, tags: [`tag${i}`, 'common'] })).blogId);
    if (i === 1) late = await createBlog(t, author, { title: 'Late', tags: ['common'], draft: true });
  }
  draftId = (await createBlog(t, author, { title: 'Draft', tags: ['draftonly'], draft: true })).blogId;
  deletedId = (await createBlog(t, author, { title: 'Gone', tags: ['goneonly'] })).blogId;
  await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${deletedId}`, headers: bearer(author.token) });
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

async function urlsOf(fileUrl: string): Promise<{ loc: string; lastmod?: string }[]> {
  const res = await get(fileUrl.replace(BASE, ''));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
  expect(XMLValidator.validate(res.body)).toBe(true);
  const set = xml.parse(res.body).urlset;
  expect(set).toBeDefined();
  return set.url ?? [];
}

describe('robots.txt', () => {
  it('allows public pages, disallows the API and private screens, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of ['/api/', '/setting', '/add-blog', '/edit/', '/edit-profile', '/notifications', '/moderation']) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    expect(res.body).not.toMatch(/Disallow: \/(blog|tag|@|$)/m);
    expect((await get('/robots.txt', { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
  });
});

describe('sitemaps', () => {
  it('index names one file per section, and the files list published posts with lastmod, authors and tags only', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(XMLValidator.validate(res.body)).toBe(true);
    const index = xml.parse(res.body).sitemapindex;
    const files = index.sitemap.map((s: { loc: string }) => s.loc);
    expect(files).toEqual([`${BASE}/sitemaps/posts.xml`, `${BASE}/sitemaps/profiles.xml`, `${BASE}/sitemaps/tags.xml`]);

    const posts = await urlsOf(files[0]);
    expect(posts.map((u) => u.loc).sort()).toEqual(published.map((id) => `${BASE}/blog/${id}`).sort());
    for (const u of posts) expect(Number.isNaN(Date.parse(u.lastmod ?? ''))).toBe(false);

    const profiles = (await urlsOf(files[1])).map((u) => u.loc);
    expect(profiles).toEqual([`${BASE}/@${author.username}`]);
    expect(profiles).not.toContain(`${BASE}/@${lurker.username}`);

    const tags = (await urlsOf(files[2])).map((u) => u.loc);
    expect(tags).toEqual(['common', 'tag0', 'tag1', 'tag2', 'tag3', 'tag4'].map((tag) => `${BASE}/tag/${tag}`));
    expect(JSON.stringify([posts, tags])).not.toMatch(new RegExp(`${draftId}|${deletedId}|draftonly|goneonly`));
  });

  it('pages every section by key so that each file holds at most the file size and together they hold everything once', async () => {
    const small = new SitemapService(new SitemapRepository(t.database.db), BASE, { fileSize: 2 });
    const files = filesOf(await small.index());
    // 5 posts in files of 2: 3 files; 1 profile: 1 file; 6 tags: 3 files (+1 that may be empty).
    expect(files.filter((f) => f.includes('/posts.xml'))).toHaveLength(3);
    expect(files.filter((f) => f.includes('/profiles.xml'))).toHaveLength(1);
    expect(files.filter((f) => f.includes('/tags.xml')).length).toBeGreaterThanOrEqual(3);
    const seen = (await readFiles(small, files)).flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((u) => u.includes('/blog/'))).toHaveLength(5);
    expect(seen.filter((u) => u.includes('/tag/'))).toHaveLength(6);
    for (const body of await readFiles(small, files)) expect(body.length).toBeLessThanOrEqual(2);
  });

  it('builds the index again from the last known boundary, and walks every boundary again after an hour', async () => {
    let now = 0;
    const small = new SitemapService(new SitemapRepository(t.database.db), BASE, { fileSize: 2, now: () => now });
    const first = await small.index();
    const postWalk = async () => {
      queries.length = 0;
      recording = true;
      expect(await small.index()).toBe(first);
      recording = false;
      return queries.filter((q) => /from "blogs"/.test(q.sql)).map((q) => q.sql);
    };
    const again = await postWalk();
    expect(again.length).toBeGreaterThan(0);
    for (const sql of again) expect(sql).toMatch(/"id" > /);
    now += 60 * 60_000;
    expect((await postWalk()).some((sql) => !/"id" > /.test(sql))).toBe(true);
  });

  it('keeps a post published late into an old range, and cuts the ranges afresh once one has grown to 1.5 files', async () => {
    const small = new SitemapService(new SitemapRepository(t.database.db), BASE, { fileSize: 2 });
    const before = filesOf(await small.index()).filter((f) => f.includes('/posts.xml'));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${late.blogId}`,
      headers: bearer(author.token),
      payload: { title: 'Late', description: 'Published later', tags: ['common'], draft: false, content: { blocks: everyBlock() } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const everyPost = [...published, late.blogId].map((id) => `${BASE}/blog/${id}`).sort();
    // The index read before the publish still covers every post, each once.
    const old = await readFiles(small, before);
    expect(old.flat().sort()).toEqual(everyPost);
    expect(old.map((urls) => urls.length)).toEqual([2, 3, 1]);
    // Serving the grown range made the next index cut the ranges again: 2, 2, 2 (and an empty tail).
    const after = await readFiles(
      small,
      filesOf(await small.index()).filter((f) => f.includes('/posts.xml')),
    );
    expect(after.flat().sort()).toEqual(everyPost);
    for (const urls of after) expect(urls.length).toBeLessThanOrEqual(2);
  });

  it('refuses a malformed key with 400 and answers conditional GETs with 304', async () => {
    for (const url of [
      '/sitemaps/posts.xml?after=nope',
      `/sitemaps/posts.xml?after=${ZERO_ID}&until=nope`,
      "/sitemaps/profiles.xml?after=1'--",
      '/sitemaps/tags.xml?after=%3Cscript%3E',
      '/sitemaps/tags.xml?until=a%20b',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const first = await get('/sitemaps/posts.xml');
    // No Last-Modified: a post hidden or restored changes a file without changing its newest date.
    expect(first.headers['last-modified']).toBeUndefined();
    expect((await get('/sitemaps/posts.xml', { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
  });

  it('reads each file and the index from index ranges, never a full scan', async () => {
    const problems: string[] = [];
    for (const url of [
      '/sitemap.xml',
      `/sitemaps/posts.xml?after=${ZERO_ID}`,
      `/sitemaps/posts.xml?after=${ZERO_ID}&until=${MAX_ID}`,
      `/sitemaps/profiles.xml?after=${ZERO_ID}&until=${MAX_ID}`,
      '/sitemaps/tags.xml?after=a',
      '/sitemaps/tags.xml?after=a&until=zz',
    ]) {
      t.app.publicCache?.invalidate();
      queries.length = 0;
      recording = true;
      expect((await get(url)).statusCode, url).toBe(200);
      recording = false;
      expect(queries.length).toBeGreaterThan(0);
      for (const q of queries) {
        const plan = await explain(q);
        const fullScan = ENGINE === 'sqlite' ? /^SCAN (blogs|users|blog_tags)( AS \w+)?$/m : /Seq Scan on (blogs|users|blog_tags)\b/;
        if (fullScan.test(plan)) problems.push(`${url}: ${q.sql}\n${plan}`);
        // Posts come from the covering sitemap index alone: no row lookups behind the large content column.
        if (/from "blogs"/.test(q.sql)) {
          expect(plan, plan).toMatch(
            ENGINE === 'sqlite' ? /USING COVERING INDEX blogs_sitemap_idx/ : /Index Only Scan using blogs_sitemap_idx/,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

const filesOf = (index: string): string[] => xml.parse(index).sitemapindex.sitemap.map((s: { loc: string }) => s.loc);

/** The URLs of each file, built by the service as the index names them. */
async function readFiles(service: SitemapService, files: string[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const file of files) {
    const url = new URL(file);
    const section = url.pathname.replace('/sitemaps/', '').replace('.xml', '') as 'posts' | 'profiles' | 'tags';
    const range = { after: url.searchParams.get('after') ?? undefined, until: url.searchParams.get('until') ?? undefined };
    const { xml: body } = await service.file(section, range);
    expect(XMLValidator.validate(body)).toBe(true);
    out.push((xml.parse(body).urlset.url ?? []).map((u: { loc: string }) => u.loc));
  }
  return out;
}

async function explain(q: CompiledQuery): Promise<string> {
  if (ENGINE === 'sqlite') {
    const plan = await t.database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]));
    return plan.rows.map((r) => r.detail).join('\n');
  }
  return t.database.db.transaction().execute(async (trx) => {
    // Tiny test tables make every plan a sequential scan; priced out, the index choice shows.
    await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]));
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
