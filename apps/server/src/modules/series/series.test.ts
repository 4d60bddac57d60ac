import { MAX_SERIES_POSTS, SERIES_MESSAGES, SERIES_PAGE_SIZE } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Sera Series' });
  reader = await createUser(t, { name: 'Rex Reader' });
});
afterAll(async () => t.close());

const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const newSeries = async (title: string, user = author) => {
  const res = await send('POST', '/series', user.token, { title });
  expect(res.statusCode).toBe(201);
  return res.json().series.id as string;
};
const pageSeries = async (blogId: string, token: string | null) => (await send('GET', `/blogs/${blogId}`, token)).json().blog.series;

describe('series', () => {
  it('orders posts and shows Part n of m on each page; validates input', async () => {
    expect((await send('POST', '/series', null, { title: 'x' })).statusCode).toBe(401);
    expect((await send('POST', '/series', author.token, { title: '   ' })).statusCode).toBe(400);
    expect((await send('POST', '/series', author.token, { title: 'x'.repeat(101) })).statusCode).toBe(400);
    const id = await newSeries('Learning Kysely');
    const [a, b, c] = [
      await createBlog(t, author, { title: 'Alpha' }),
      await createBlog(t, author, { title: 'Beta' }),
      await createBlog(t, author, { title: 'Gamma' }),
    ];
    // Seen once without a series, so the page cache holds a copy the series write must drop.
    expect(await pageSeries(b.blogId, null)).toBeNull();
    const set = await send('PUT', `/series/${id}/posts`, author.token, { blogIds: [c.blogId, a.blogId, b.blogId] });
    expect(set.statusCode).toBe(200);
    expect(set.json().series.posts.map((p: { title: string }) => p.title)).toEqual(['Gamma', 'Alpha', 'Beta']);
    for (const token of [null, reader.token, author.token]) {
      expect(await pageSeries(b.blogId, token)).toEqual({
        id,
        title: 'Learning Kysely',
        part: 3,
        total: 3,
        posts: [
          { blogId: c.blogId, title: 'Gamma', part: 1 },
          { blogId: a.blogId, title: 'Alpha', part: 2 },
          { blogId: b.blogId, title: 'Beta', part: 3 },
        ],
      });
    }
    expect((await pageSeries(c.blogId, null)).part).toBe(1);

    // Renaming and retitling a part reach the other parts' cached pages.
    expect((await send('PATCH', `/series/${id}`, author.token, { title: 'Kysely in depth' })).statusCode).toBe(200);
    expect((await pageSeries(b.blogId, null)).title).toBe('Kysely in depth');
    const edit = await send('PATCH', `/blogs/${c.blogId}`, author.token, {
      title: 'Gamma two',
      description: 'd',
      tags: [],
      content: { blocks: [{ type: 'paragraph', data: { text: 'words' } }] },
      draft: false,
    });
    expect(edit.statusCode).toBe(200);
    expect((await pageSeries(b.blogId, null)).posts[0].title).toBe('Gamma two');

    const mine = (await send('GET', '/series/mine', author.token)).json().series;
    expect(mine.map((s: { id: string }) => s.id)).toContain(id);
    expect((await send('GET', `/series/${id}`, null)).json().series.posts).toHaveLength(3);
    expect((await send('GET', '/series/not-an-id', null)).statusCode).toBe(404);
  });

  it('counts drafts only for their author', async () => {
    const id = await newSeries('With a draft');
    const pub = await createBlog(t, author, { title: 'Published part' });
    const draft = await createBlog(t, author, { title: 'Draft part', draft: true });
    const last = await createBlog(t, author, { title: 'Last part' });
    await send('PUT', `/series/${id}/posts`, author.token, { blogIds: [pub.blogId, draft.blogId, last.blogId] });
    for (const token of [null, reader.token]) {
      const s = await pageSeries(last.blogId, token);
      expect([s.part, s.total]).toEqual([2, 2]);
      expect(s.posts.map((p: { title: string }) => p.title)).not.toContain('Draft part');
      expect((await send('GET', `/series/${id}`, token)).json().series.posts).toHaveLength(2);
    }
    // The author's own draft page counts it.
    expect(await pageSeries(draft.blogId, author.token)).toMatchObject({ part: 2, total: 3 });
    expect((await send('GET', `/series/${id}`, author.token)).json().series.posts).toHaveLength(3);
  });

  it("refuses another user's post and another user's series", async () => {
    const id = await newSeries('Mine only');
    const theirs = await createBlog(t, reader, { title: 'Not yours' });
    const theirDraft = await createBlog(t, reader, { title: 'Hidden', draft: true });
    expect((await send('PUT', `/series/${id}/posts`, author.token, { blogIds: [theirs.blogId] })).statusCode).toBe(403);
    expect((await send('PUT', `/series/${id}/posts`, author.token, { blogIds: [theirDraft.blogId] })).statusCode).toBe(404);
    expect((await send('PUT', `/blogs/${theirs.blogId}/series`, author.token, { seriesId: id })).statusCode).toBe(403);
    expect((await send('PATCH', `/series/${id}`, reader.token, { title: 'Taken' })).statusCode).toBe(403);
    expect((await send('DELETE', `/series/${id}`, reader.token)).statusCode).toBe(403);
    const own = await createBlog(t, reader, { title: 'Reader post' });
    expect((await send('PUT', `/blogs/${own.blogId}/series`, reader.token, { seriesId: id })).statusCode).toBe(403);
    expect((await send('PUT', `/series/${id}/posts`, author.token, { blogIds: 'x' })).statusCode).toBe(400);
  });

  it('appends from the editor, moves a post between series, and a deleted post leaves no gap', async () => {
    const first = await newSeries('First');
    const second = await newSeries('Second');
    const [a, b, c] = [
      await createBlog(t, author, { title: 'One' }),
      await createBlog(t, author, { title: 'Two' }),
      await createBlog(t, author, { title: 'Three' }),
    ];
    for (const post of [a, b, c])
      expect((await send('PUT', `/blogs/${post.blogId}/series`, author.token, { seriesId: first })).statusCode).toBe(200);
    expect((await send('GET', `/blogs/${b.blogId}/series`, author.token)).json().seriesId).toBe(first);
    expect(await pageSeries(c.blogId, null)).toMatchObject({ part: 3, total: 3 });
    expect((await send('DELETE', `/blogs/${b.blogId}`, author.token)).statusCode).toBe(200);
    expect(await pageSeries(c.blogId, null)).toMatchObject({ part: 2, total: 2 });
    await send('PUT', `/blogs/${c.blogId}/series`, author.token, { seriesId: second });
    expect(await pageSeries(c.blogId, null)).toMatchObject({ title: 'Second', part: 1, total: 1 });
    expect(await pageSeries(a.blogId, null)).toMatchObject({ part: 1, total: 1 });
    await send('PUT', `/blogs/${a.blogId}/series`, author.token, { seriesId: null });
    expect(await pageSeries(a.blogId, null)).toBeNull();
    expect((await send('DELETE', `/series/${second}`, author.token)).statusCode).toBe(200);
    expect(await pageSeries(c.blogId, null)).toBeNull();
  });

  it("goes with the author's account", async () => {
    const leaving = await createUser(t, { name: 'Lea Leaving' });
    const id = await newSeries('Soon gone', leaving);
    const post = await createBlog(t, leaving, { title: 'Gone too' });
    await send('PUT', `/series/${id}/posts`, leaving.token, { blogIds: [post.blogId] });
    const res = await send('DELETE', `/users/${leaving.id}`, leaving.token, { currentPassword: leaving.password });
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.selectFrom('series').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await t.database.db.selectFrom('series_posts').select('blog_id').where('series_id', '=', id).execute()).toEqual([]);
  });
});

describe('GET /series/mine', () => {
  it("pages the writer's series (keyset), oldest first, without duplicates", async () => {
    const writer = await createUser(t, { name: 'Prolific Writer' });
    await newSeries('Not theirs', reader);
    const titles = Array.from({ length: 60 }, (_, i) => `Series ${String(i).padStart(2, '0')}`);
    // Several at once: some share a created_at, which the id breaks.
    for (let i = 0; i < titles.length; i += 10) await Promise.all(titles.slice(i, i + 10).map((title) => newSeries(title, writer)));
    const post = await createBlog(t, writer, { title: 'In the first' });
    const firstId = (await send('GET', '/series/mine', writer.token)).json().series[0].id;
    await send('PUT', `/series/${firstId}/posts`, writer.token, { blogIds: [post.blogId] });

    const first = await send('GET', '/series/mine', writer.token);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.series).toHaveLength(SERIES_PAGE_SIZE);
    expect(page1.hasMore).toBe(true);
    expect(page1.series[0].posts).toEqual([{ blogId: post.blogId, title: 'In the first', part: 1 }]);
    const second = await send('GET', `/series/mine?cursor=${encodeURIComponent(page1.nextCursor)}`, writer.token);
    expect(second.statusCode).toBe(200);
    const page2 = second.json();
    expect(page2.series).toHaveLength(60 - SERIES_PAGE_SIZE);
    expect(page2).toMatchObject({ hasMore: false, nextCursor: null });

    const all = [...page1.series, ...page2.series] as { id: string; title: string; createdAt: string; authorId: string }[];
    expect(new Set(all.map((s) => s.id)).size).toBe(60);
    expect(all.every((s) => s.authorId === writer.id)).toBe(true);
    expect(all.map((s) => s.title).sort()).toEqual(titles);
    const order = all.map((s) => `${s.createdAt} ${s.id}`);
    expect(order).toEqual([...order].sort());

    // A smaller limit pages the same list; the cap and bad cursors are refused.
    const small = (await send('GET', '/series/mine?limit=7', writer.token)).json();
    expect(small.series.map((s: { id: string }) => s.id)).toEqual(all.slice(0, 7).map((s) => s.id));
    const next = (await send('GET', `/series/mine?limit=7&cursor=${small.nextCursor}`, writer.token)).json();
    expect(next.series.map((s: { id: string }) => s.id)).toEqual(all.slice(7, 14).map((s) => s.id));
    expect((await send('GET', `/series/mine?limit=${SERIES_PAGE_SIZE + 1}`, writer.token)).statusCode).toBe(400);
    for (const cursor of ['nonsense', Buffer.from('["2024-02-30T00:00:00.000Z","x"]').toString('base64url')]) {
      const bad = await send('GET', `/series/mine?cursor=${cursor}`, writer.token);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ success: false, message: 'Invalid cursor' });
    }
    expect((await send('GET', '/series/mine', null)).statusCode).toBe(401);
  });

  it(`keeps a series to ${MAX_SERIES_POSTS} posts when the editor adds one`, async () => {
    const writer = await createUser(t, { name: 'Long Series Writer' });
    const id = await newSeries('Very long', writer);
    const other = await newSeries('Other', writer);
    const posts = [];
    for (let i = 0; i <= MAX_SERIES_POSTS; i++) posts.push(await createBlog(t, writer, { title: `Part ${i}`, draft: true }));
    const last = posts.pop()!;
    const filled = await send('PUT', `/series/${id}/posts`, writer.token, { blogIds: posts.map((p) => p.blogId) });
    expect(filled.statusCode).toBe(200);
    const join = await send('PUT', `/blogs/${last.blogId}/series`, writer.token, { seriesId: id });
    expect(join.statusCode).toBe(409);
    expect(join.json()).toEqual({ success: false, message: SERIES_MESSAGES.full });
    expect((await send('GET', `/blogs/${last.blogId}/series`, writer.token)).json().seriesId).toBeNull();
    // A member choosing its own series again is no join; after one leaves, another may join.
    expect((await send('PUT', `/blogs/${posts[0]!.blogId}/series`, writer.token, { seriesId: id })).statusCode).toBe(200);
    expect((await send('PUT', `/blogs/${posts[1]!.blogId}/series`, writer.token, { seriesId: other })).statusCode).toBe(200);
    expect((await send('PUT', `/blogs/${last.blogId}/series`, writer.token, { seriesId: id })).statusCode).toBe(200);
    const mine = (await send('GET', '/series/mine', writer.token)).json().series;
    expect(mine.find((s: { id: string }) => s.id === id).posts).toHaveLength(MAX_SERIES_POSTS);
  });
});
