import { readFileSync } from 'node:fs';
import path from 'node:path';
import { markdownToPost } from '@inkwell/core/markdown';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { xssCorpus } from '../../../test/xss-corpus';
import { unzip } from '../../../test/zip';
import { EXPORT_PAGE_SIZE } from './export.repo';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../packages/core/src/markdown/fixtures');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/**
 * Blocks without the ids and time the editor and server add, and without the target and rel
 * the server's sanitizer gives every link.
 */
const blocksOf = (content: { blocks: { type: string; data: unknown }[] }) =>
  JSON.parse(
    JSON.stringify(content.blocks.map(({ type, data }) => ({ type, data }))).replace(/ target=\\"_blank\\" rel=\\"[^"\\]*\\"/g, ''),
  );

let t: TestApp;
let author: TestUser;
let reader: TestUser;
const api = (url: string, token?: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: token ? bearer(token) : {} });

/** Creates a post from a Markdown file as the editor's import does: its blocks and front matter. */
async function importPost(user: TestUser, markdown: string, draft = false) {
  const post = markdownToPost(markdown);
  return createBlog(t, user, {
    title: post.title,
    description: post.description || 'Imported',
    tags: post.tags,
    content: post.content,
    draft,
    ...(post.coverImage ? { image: post.coverImage } : {}),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Ada Author' });
  reader = await createUser(t, { name: 'Rita Reader' });
});
afterAll(async () => t.close());

describe('GET /blogs/:id/markdown', () => {
  it('exports a published post so that importing the file gives back the stored blocks', async () => {
    for (const name of ['devto-post.md', 'hashnode-checklist.md', 'jekyll-notes.md', 'hugo-release.md']) {
      const imported = markdownToPost(fixture(name));
      const blog = await importPost(author, fixture(name));
      const stored = (await api(`/blogs/${blog.blogId}`)).json().blog;
      // The server's sanitizer keeps imported blocks as they are.
      expect(blocksOf(stored.content), name).toEqual(blocksOf(imported.content));

      const res = await api(`/blogs/${blog.blogId}/markdown`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${blog.blogId}.md"`);
      const again = markdownToPost(res.body);
      expect(blocksOf(again.content), name).toEqual(blocksOf(stored.content));
      expect(again).toMatchObject({ title: stored.title, description: stored.description, tags: stored.tags, draft: false });
      expect(again.coverImage).toBe(imported.coverImage);
      expect(again.date).toBe(stored.createdAt);
    }
  });

  it('exports a draft only to its author (404 to anyone else), and 404 for an unknown post', async () => {
    const draft = await importPost(author, fixture('hugo-release.md'), true);
    expect((await api(`/blogs/${draft.blogId}/markdown`)).statusCode).toBe(404);
    const other = await api(`/blogs/${draft.blogId}/markdown`, reader.token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, message: expect.any(String) });
    const own = await api(`/blogs/${draft.blogId}/markdown`, author.token);
    expect(own.statusCode).toBe(200);
    expect(markdownToPost(own.body).draft).toBe(true);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect((await api('/blogs/no-such-post/markdown')).statusCode).toBe(404);
  });

  it('stores every payload of the XSS corpus imported from Markdown only in a harmless form', async () => {
    const corpus = xssCorpus();
    const writer = await createUser(t);
    // Each payload as raw HTML, as a link target and inside a list: three blocks each, in one post.
    const lines = corpus.map((p) => `${p}\n\n[click](${p.replace(/[\s()]/g, '')}) and [js](javascript:alert(1))\n\n- ${p}`);
    for (let i = 0; i < lines.length; i += 150) {
      const blog = await importPost(writer, `# XSS ${i}\n\n${lines.slice(i, i + 150).join('\n\n')}\n`);
      const stored = (await api(`/blogs/${blog.blogId}`)).json().blog;
      const html = JSON.stringify(stored.content.blocks.map((b: { data: unknown }) => b.data));
      const parser = new Parser({
        onopentag(name, attribs) {
          expect(['b', 'i', 'u', 'mark', 'a', 'code', 'br']).toContain(name);
          for (const [attr, value] of Object.entries(attribs)) {
            expect(['href', 'target', 'rel', 'class']).toContain(attr);
            if (attr === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:|\/|#)/i);
          }
        },
      });
      for (const block of stored.content.blocks) {
        const data = block.data as { text?: string; items?: { content: string }[] };
        parser.write(data.text ?? data.items?.map((item) => item.content).join('') ?? '');
      }
      parser.end();
      expect(html).toContain('click and js');
    }
  });
});

describe('GET /account/export (Download my data)', () => {
  it('needs a token', async () => {
    const res = await api('/account/export');
    expect(res.statusCode).toBe(401);
  });

  it('streams a zip with data.json (profile, posts, comments, likes, saves, follows) and a Markdown file a post', async () => {
    const owner = await createUser(t, { name: 'Olga Owner' });
    const published = await importPost(owner, fixture('devto-post.md'));
    const draft = await importPost(owner, fixture('hugo-release.md'), true);
    const others = await createBlog(t, reader, { title: 'Reader post' });
    const send = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(owner.token), payload });
    expect((await send('POST', `/blogs/like/${others.blogId}`)).statusCode).toBe(200);
    expect((await send('PATCH', `/save-blog/${others.blogId}`)).statusCode).toBe(200);
    expect((await send('PATCH', `/follow/${reader.id}`)).statusCode).toBe(200);
    const comment = await send('POST', `/blogs/comment/${others.blogId}`, { comment: 'Great read, thanks!' });
    expect(comment.statusCode).toBe(201);
    const back = await t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${owner.id}`, headers: bearer(reader.token) });
    expect(back.statusCode).toBe(200);

    const res = await api('/account/export', owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="inkwell-[a-z0-9._-]+-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await unzip(res.rawPayload);
    expect([...files.keys()].sort()).toEqual(['data.json', `drafts/${draft.blogId}.md`, `posts/${published.blogId}.md`].sort());

    const data = JSON.parse(files.get('data.json')!);
    expect(data.profile).toMatchObject({ _id: owner.id, username: owner.username, email: owner.email, name: 'Olga Owner' });
    expect(JSON.stringify(data.profile)).not.toMatch(/password|token/i);
    // The digest choice and the address's newsletter subscription (none here) belong to the account's data too.
    expect(data.profile).toMatchObject({ emailDigest: 'off', newsletter: null });
    expect(data.posts.map((p: { blogId: string }) => p.blogId).sort()).toEqual([published.blogId, draft.blogId].sort());
    expect(data.posts.find((p: { draft: boolean }) => p.draft).content.blocks.length).toBeGreaterThan(5);
    expect(data.comments).toEqual([expect.objectContaining({ blogId: others.blogId, comment: 'Great read, thanks!' })]);
    expect(data.likes).toEqual([expect.objectContaining({ blogId: others.blogId, title: 'Reader post' })]);
    expect(data.saves).toEqual([expect.objectContaining({ blogId: others.blogId })]);
    expect(data.following).toEqual([expect.objectContaining({ _id: reader.id, username: reader.username })]);
    expect(data.followers).toEqual([expect.objectContaining({ _id: reader.id })]);
    expect(data.commentLikes).toEqual([]);

    const post = markdownToPost(files.get(`posts/${published.blogId}.md`)!);
    expect(blocksOf(post.content)).toEqual(blocksOf(markdownToPost(fixture('devto-post.md')).content));
    expect(markdownToPost(files.get(`drafts/${draft.blogId}.md`)!).draft).toBe(true);
    // Nobody else's posts are in it.
    expect([...files.values()].join('\n')).not.toContain('Reader post\n');
  });

  it("holds each post's schedule and series (name, order, posts) in data.json and the Markdown files", async () => {
    const owner = await createUser(t, { name: 'Sam Series' });
    const send = (method: 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(owner.token), payload });
    const first = await createBlog(t, owner, { title: 'Part one' });
    const at = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const scheduled = await createBlog(t, owner, { title: 'Part two', draft: false, scheduledAt: at });
    const loose = await createBlog(t, owner, { title: 'Not in a series' });
    const series = (await send('POST', '/series', { title: 'Learning Kysely' })).json().series;
    // Stored in the opposite order of creation: the export keeps the series' order, not the posts'.
    const put = await send('PUT', `/series/${series.id}/posts`, { blogIds: [scheduled.blogId, first.blogId] });
    expect(put.statusCode, put.body).toBe(200);
    const empty = (await send('POST', '/series', { title: 'Nothing yet' })).json().series;

    const files = await unzip((await api('/account/export', owner.token)).rawPayload);
    // A scheduled post is still a draft until its time: it is in drafts/.
    expect([...files.keys()].sort()).toEqual(
      ['data.json', `posts/${first.blogId}.md`, `drafts/${scheduled.blogId}.md`, `posts/${loose.blogId}.md`].sort(),
    );
    const data = JSON.parse(files.get('data.json')!);
    expect(data.series).toEqual([
      {
        _id: series.id,
        title: 'Learning Kysely',
        createdAt: expect.any(String),
        posts: [
          { blogId: scheduled.blogId, title: 'Part two', part: 1, draft: true },
          { blogId: first.blogId, title: 'Part one', part: 2, draft: false },
        ],
      },
      { _id: empty.id, title: 'Nothing yet', createdAt: expect.any(String), posts: [] },
    ]);
    const byId = (id: string) => data.posts.find((p: { blogId: string }) => p.blogId === id);
    expect(byId(scheduled.blogId)).toMatchObject({
      draft: true,
      scheduledAt: at,
      series: { _id: series.id, title: 'Learning Kysely', part: 1 },
    });
    expect(byId(first.blogId)).toMatchObject({ draft: false, scheduledAt: null, series: { title: 'Learning Kysely', part: 2 } });
    expect(byId(loose.blogId)).toMatchObject({ scheduledAt: null, series: null });

    // The Markdown files say the same in their front matter (dev.to's `series` key).
    const front = (name: string) => files.get(name)!.split('\n---\n')[0]!;
    expect(front(`drafts/${scheduled.blogId}.md`)).toContain(`scheduled_at: ${at}`);
    expect(front(`drafts/${scheduled.blogId}.md`)).toMatch(/\nseries: Learning Kysely\nseries_part: 1$/);
    expect(front(`posts/${first.blogId}.md`)).toMatch(/\nseries: Learning Kysely\nseries_part: 2$/);
    expect(front(`posts/${loose.blogId}.md`)).not.toMatch(/\nseries|scheduled_at/);
    // And the file still imports as the same post.
    expect(markdownToPost(files.get(`posts/${first.blogId}.md`)!)).toMatchObject({ title: 'Part one', draft: false });
  });

  it(`holds every post of an account with more than one page (${EXPORT_PAGE_SIZE}) of them`, async () => {
    const prolific = await createUser(t);
    const count = EXPORT_PAGE_SIZE + 3;
    for (let i = 0; i < count; i++) {
      await createBlog(t, prolific, {
        title: `Post number ${i}`,
        content: { blocks: [{ type: 'paragraph', data: { text: `Body ${i}` } }] },
      });
    }
    const files = await unzip((await api('/account/export', prolific.token)).rawPayload);
    const markdown = [...files.keys()].filter((name) => name.startsWith('posts/'));
    expect(markdown).toHaveLength(count);
    expect(JSON.parse(files.get('data.json')!).posts).toHaveLength(count);
    const titles = new Set([...files.entries()].filter(([name]) => name.endsWith('.md')).map(([, text]) => markdownToPost(text).title));
    for (let i = 0; i < count; i++) expect(titles.has(`Post number ${i}`)).toBe(true);
  });
});
