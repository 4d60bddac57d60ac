import { DomUtils } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { createPagesApp, readPage } from '../../test/pages';
import { xssCorpus } from '../../test/xss-corpus';

const corpus = xssCorpus();

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createPagesApp();
  author = await createUser(t);
});
afterAll(() => t.close());

/** The scripts index.html itself loads; a page may add JSON-LD and nothing else that runs. */
const APP_SCRIPTS = ['/theme-init.js', '/src/main.tsx'];

/** Nothing in the document can run: no event handler attribute, no script but the app's own and JSON-LD. */
function assertInert(html: string, payload: string) {
  const page = readPage(html);
  for (const el of DomUtils.findAll(() => true, page.doc.children)) {
    for (const attr of Object.keys(el.attribs)) expect(attr.startsWith('on'), `${attr} for ${payload}`).toBe(false);
    if (el.name === 'script') {
      if (el.attribs.type === 'application/ld+json') continue;
      expect(APP_SCRIPTS, payload).toContain(el.attribs.src);
    }
    expect(['iframe', 'object', 'embed', 'base', 'form'].includes(el.name) && !el.attribs.role, `${el.name} for ${payload}`).toBe(false);
  }
  const head = DomUtils.getElementsByTagName('head', page.doc)[0]!;
  for (const el of DomUtils.findAll(() => true, head.children))
    expect(['meta', 'link', 'title', 'script', 'style'], payload).toContain(el.name);
  return page;
}

// Two hundred-odd writes and page renders each: more than the default 30 s on a busy machine.
describe('the XSS corpus in every head field and in JSON-LD', { timeout: 120_000 }, () => {
  it(`keeps ${corpus.length} hostile titles and descriptions inert on the blog page`, async () => {
    for (const [i, payload] of corpus.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/blogs',
        headers: bearer(author.token),
        payload: {
          title: payload.slice(0, 200),
          description: payload.slice(0, 1000),
          tags: ['xss'],
          // Most with a featured image; every eighth draws its social card from the hostile title.
          ...(i % 8 === 0 ? {} : { image: 'https://images.example.com/a.png' }),
          content: {
            blocks: [
              { type: 'paragraph', data: { text: payload } },
              { type: 'paragraph', data: { text: 'Body.' } },
            ],
          },
        },
      });
      expect(res.statusCode, payload).toBe(201);
      const blog = res.json().blog as { blogId: string; title: string; description: string };
      const page = assertInert((await t.app.inject({ url: `/blog/${blog.blogId}` })).body, payload);
      // Escaped, not mangled: every field reads back as the text the author typed.
      expect(page.titles, payload).toEqual([`${blog.title} · Inkwell`]);
      expect(page.meta('og:title'), payload).toBe(`${blog.title} · Inkwell`);
      expect(page.meta('twitter:title'), payload).toBe(`${blog.title} · Inkwell`);
      expect(blog.description.startsWith(page.meta('description')!.replace(/…$/, '')), payload).toBe(true);
      expect(page.meta('og:description'), payload).toBe(page.meta('description'));
      expect(page.jsonLd, payload).toHaveLength(1);
      expect(blog.title.startsWith(String(page.jsonLd[0]!.headline).replace(/…$/, '')), payload).toBe(true);
      expect(
        page.elements('h1').map((h) => DomUtils.textContent(h)),
        payload,
      ).toEqual([blog.title]);
    }
  });

  it('keeps them inert as a search term and in a profile name and bio', async () => {
    for (const payload of corpus) {
      const search = assertInert((await t.app.inject({ url: `/search?q=${encodeURIComponent(payload)}` })).body, payload);
      const term = payload.trim().slice(0, 200);
      if (term) expect(search.titles, payload).toEqual([`Results for ${term} · Inkwell`]);
      const edit = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${author.id}`,
        headers: bearer(author.token),
        payload: { name: payload.slice(0, 80).trim() || 'x', bio: payload.slice(0, 160) },
      });
      expect(edit.statusCode, payload).toBe(200);
      const name = edit.json().user.name as string;
      const profile = assertInert((await t.app.inject({ url: `/@${author.username}` })).body, payload);
      expect(profile.meta('og:title'), payload).toBe(`${name} (@${author.username}) · Inkwell`);
      expect(profile.jsonLd[0]!.mainEntity, payload).toMatchObject({ name });
    }
  });
});
