import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { createUser, type TestApp, type TestUser } from '../../test/helpers';
import { createPagesApp, readPage } from '../../test/pages';
import { SocialCards } from './social-card';

/** A post's social card shows its title and author at an address that never changes: hidden posts lose it. */
let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createPagesApp();
  author = await createUser(t, { name: 'Carded Author' });
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const cardOf = async (blogId: string) => {
  const image = readPage((await get(`/blog/${blogId}`)).body).meta('og:image')!;
  expect(image).toMatch(/\/uploads\/cards\/.+\.png$/);
  return new URL(image).pathname;
};
const cardRows = (blogDbId: string) =>
  t.database.db.selectFrom('uploads').select('id').where('blog_id', '=', blogDbId).where('kind', '=', 'card').execute();

describe('a social card and moderation', () => {
  it('is deleted when a moderator hides the post, and drawn again by the first view after it is restored', async () => {
    const post = await createBlog(t, author, { title: 'A title a moderator hid' });
    const card = await cardOf(post.blogId);
    expect((await get(card)).statusCode).toBe(200);

    const { moderation } = t.app.services;
    await moderation.setPostHidden(null, post.blogId, true, 'Abusive title');
    expect((await get(`/blog/${post.blogId}`)).statusCode).toBe(404);
    expect((await get(card)).statusCode).toBe(404);
    expect(await cardRows(post._id)).toEqual([]);

    await moderation.setPostHidden(null, post.blogId, false, 'Appeal');
    expect(await cardOf(post.blogId)).toBe(card); // the same version of the post: the same address
    expect((await get(card)).statusCode).toBe(200);
    expect(await cardRows(post._id)).toHaveLength(1);
  });

  it('drawn for a post hidden while it was drawn, is not kept', async () => {
    // The page view read the post while it was public; the hide lands before the card is stored.
    const post = await createBlog(t, author, { title: 'Hidden mid-draw' });
    const blog = (await t.app.inject({ url: `/api/v1/blogs/${post.blogId}` })).json().blog;
    await t.app.services.moderation.setPostHidden(null, post.blogId, true, 'Abusive title');
    const { storage, publicData } = t.app.services;
    const cards = new SocialCards({ db: t.database.db, storage, publicUrl: 'http://localhost:3000', log: t.app.log, changes: publicData });
    const image = await cards.forBlog(blog);
    expect(await cardRows(post._id)).toEqual([]);
    expect((await get(new URL(image!.url).pathname)).statusCode).toBe(404);
  });

  it('are deleted for every post of an author who is suspended', async () => {
    const spammer = await createUser(t, { name: 'Suspended Author' });
    const posts = [await createBlog(t, spammer, { title: 'First' }), await createBlog(t, spammer, { title: 'Second' })];
    const cards = [await cardOf(posts[0]!.blogId), await cardOf(posts[1]!.blogId)];
    const kept = await cardOf((await createBlog(t, author, { title: 'Someone else' })).blogId);
    await t.app.services.moderation.setSuspended(null, spammer.id, true, 'Spam');
    for (const card of cards) expect((await get(card)).statusCode).toBe(404);
    expect((await get(kept)).statusCode).toBe(200);
  });
});
