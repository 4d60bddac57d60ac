import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
  reader = await createUser(t);
});
afterAll(async () => t.close());

const like = (token: string, blogId: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}`, headers: bearer(token) });
const save = (token: string, blogId: string) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/save-blog/${blogId}`, headers: bearer(token) });
const page = async (blogId: string, token: string) =>
  (await t.app.inject({ url: `/api/v1/blogs/${blogId}`, headers: bearer(token) })).json().blog;

describe('likes', () => {
  it('toggles and counts, and the reading page shows the viewer flag', async () => {
    const { blogId } = await createBlog(t, author);
    const first = await like(reader.token, blogId);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, message: 'Blog liked', liked: true, likeCount: 1 });
    expect(await page(blogId, reader.token)).toMatchObject({ likeCount: 1, isLiked: true });
    expect(await page(blogId, author.token)).toMatchObject({ likeCount: 1, isLiked: false });
    const second = await like(reader.token, blogId);
    expect(second.json()).toEqual({ success: true, message: 'Blog unliked', liked: false, likeCount: 0 });
  });

  it('counts a like once however many are sent at once', async () => {
    const { _id, blogId } = await createBlog(t, author);
    const results = await Promise.all(Array.from({ length: 15 }, () => like(reader.token, blogId)));
    for (const r of results) expect(r.statusCode).toBe(200);
    const rows = await countRows(t, 'likes', ['blog_id', _id]);
    expect(rows).toBeLessThanOrEqual(1);
    expect((await page(blogId, reader.token)).likeCount).toBe(rows);
    // Many users at once: every like counted exactly once.
    const others = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    await Promise.all(others.map((u) => like(u.token, blogId)));
    const after = await countRows(t, 'likes', ['blog_id', _id]);
    expect(after).toBe(rows + 6);
    expect((await page(blogId, reader.token)).likeCount).toBe(after);
  });

  it('needs a token, a visible blog, and refuses drafts of others', async () => {
    const { blogId } = await createBlog(t, author);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/blogs/like/${blogId}` })).statusCode).toBe(401);
    expect((await like(reader.token, 'missing-blog')).statusCode).toBe(404);
    const draft = await createBlog(t, author, { draft: true });
    expect((await like(reader.token, draft.blogId)).statusCode).toBe(404);
    expect((await save(reader.token, draft.blogId)).statusCode).toBe(404);
  });
});

describe('saves', () => {
  it('toggles and returns the saved flag', async () => {
    const { blogId } = await createBlog(t, author);
    expect((await save(reader.token, blogId)).json()).toEqual({ success: true, message: 'Blog saved', saved: true, saveCount: 1 });
    expect(await page(blogId, reader.token)).toMatchObject({ saveCount: 1, isSaved: true });
    expect((await save(reader.token, blogId)).json()).toMatchObject({ saved: false, saveCount: 0 });
    const results = await Promise.all(Array.from({ length: 10 }, () => save(reader.token, blogId)));
    for (const r of results) expect(r.statusCode).toBe(200);
    const b = await page(blogId, reader.token);
    expect(b.saveCount).toBe(b.isSaved ? 1 : 0);
  });
});
