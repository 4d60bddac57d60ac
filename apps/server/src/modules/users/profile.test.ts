import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { follow, react } from './test-fixtures';

let t: TestApp;
let ann: TestUser;
let bob: TestUser;
let cat: TestUser;
const blogs: Record<string, { _id: string; blogId: string }> = {};

const get = (url: string, token?: string) => t.app.inject({ url: `/api/v1${url}`, headers: token ? bearer(token) : {} });
const ids = (res: { json(): { blogs: { blogId: string }[] } }) => res.json().blogs.map((b) => b.blogId);

beforeAll(async () => {
  t = await createTestApp();
  [ann, bob, cat] = await Promise.all([createUser(t, { name: 'Ann' }), createUser(t, { name: 'Bob' }), createUser(t, { name: 'Cat' })]);
  blogs.annOld = await createBlog(t, ann, { title: 'Ann old' });
  blogs.annNew = await createBlog(t, ann, { title: 'Ann new' });
  blogs.annDraft = await createBlog(t, ann, { title: 'Ann draft', draft: true });
  blogs.bob = await createBlog(t, bob, { title: 'Bob post' });
  blogs.catDraft = await createBlog(t, cat, { title: 'Cat draft', draft: true });
  // Ann likes and saves: Bob's post, her own draft, and Cat's draft (which must never show).
  await react(t, 'likes', ann.id, blogs.bob._id);
  await react(t, 'likes', ann.id, blogs.annDraft._id);
  await react(t, 'likes', ann.id, blogs.catDraft._id);
  await react(t, 'saves', ann.id, blogs.catDraft._id);
  await react(t, 'saves', ann.id, blogs.bob._id);
  await follow(t, bob.id, ann.id);
  await follow(t, cat.id, ann.id);
  await follow(t, ann.id, bob.id);
  await follow(t, ann.id, cat.id);
});
afterAll(async () => t.close());

describe('GET /users/{username}', () => {
  it('shows counts, the viewer flags and the following preview, without e-mail', async () => {
    const res = await get(`/users/${ann.username}`, bob.token);
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      _id: ann.id,
      name: 'Ann',
      username: ann.username,
      bio: null,
      profilePic: null,
      followerCount: 2,
      followingCount: 2,
      publishedCount: 2,
      // Bob may read only Bob's post of the three Ann liked (her draft and Cat's are not his to see).
      likedCount: 1,
      savedCount: 1,
      draftCount: null,
      showSavedBlogs: false,
      showLikedBlogs: false,
      googleAuth: false,
      isOwner: false,
      isFollowing: true,
    });
    expect(user.followingPreview.map((u: { _id: string }) => u._id)).toEqual([cat.id, bob.id]);
    // Ann herself counts her own liked draft.
    expect((await get(`/users/${ann.username}`, ann.token)).json().user.likedCount).toBe(2);
    expect(user.followingPreview[0]).toEqual({ _id: cat.id, name: 'Cat', username: cat.username, profilePic: null });
    expect(JSON.stringify(res.json())).not.toContain('@example.com');
  });

  it('gives the owner the draft count; strangers and visitors see no follow', async () => {
    const own = (await get(`/users/@${ann.username.toUpperCase()}`, ann.token)).json().user;
    expect(own).toMatchObject({ isOwner: true, draftCount: 1, isFollowing: false });
    const visitor = (await get(`/users/${ann.username}`)).json().user;
    expect(visitor).toMatchObject({ isOwner: false, draftCount: null, isFollowing: false });
  });

  it('answers 404 for an unknown user', async () => {
    const res = await get('/users/nobody_here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'User not found' });
    expect((await get('/users/nobody_here/blogs')).statusCode).toBe(404);
  });
});

describe('profile blog tabs', () => {
  it('lists published blogs newest first with pages', async () => {
    const first = await get(`/users/${ann.username}/blogs?limit=1`);
    expect(first.statusCode).toBe(200);
    expect(ids(first)).toEqual([blogs.annNew!.blogId]);
    expect(first.json().hasMore).toBe(true);
    const second = await get(`/users/${ann.username}/blogs?limit=1&page=2`);
    expect(ids(second)).toEqual([blogs.annOld!.blogId]);
    expect(second.json().hasMore).toBe(false);
    expect(second.json().blogs[0]).toMatchObject({ title: 'Ann old', draft: false, creator: { _id: ann.id, username: ann.username } });
  });

  it('refuses bad paging', async () => {
    for (const q of ['limit=51', 'limit=0', 'page=0', 'page=x']) {
      const res = await get(`/users/${ann.username}/blogs?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('shows drafts to the owner only', async () => {
    const own = await get(`/users/${ann.username}/drafts`, ann.token);
    expect(own.statusCode).toBe(200);
    expect(ids(own)).toEqual([blogs.annDraft!.blogId]);
    for (const token of [bob.token, undefined]) {
      const res = await get(`/users/${ann.username}/drafts`, token);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Only the owner can see drafts');
    }
  });

  it('keeps saved and liked lists private until the owner shares them, and never shows others’ drafts', async () => {
    const liked = await get(`/users/${ann.username}/liked-blogs`, ann.token);
    expect(liked.statusCode).toBe(200);
    expect(ids(liked)).toEqual([blogs.annDraft!.blogId, blogs.bob!.blogId]);
    const saved = await get(`/users/${ann.username}/saved-blogs`, ann.token);
    expect(ids(saved)).toEqual([blogs.bob!.blogId]);

    for (const tab of ['liked-blogs', 'saved-blogs']) {
      const res = await get(`/users/${ann.username}/${tab}`, bob.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('This list is private');
    }

    const share = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/change-saved-liked-blog-visibility',
      headers: bearer(ann.token),
      payload: { showSavedBlogs: true },
    });
    expect(share.statusCode).toBe(200);
    expect(share.json()).toMatchObject({ success: true, showSavedBlogs: true, showLikedBlogs: false });
    expect(ids(await get(`/users/${ann.username}/saved-blogs`, bob.token))).toEqual([blogs.bob!.blogId]);
    expect((await get(`/users/${ann.username}/saved-blogs`)).statusCode).toBe(200);
    expect((await get(`/users/${ann.username}/liked-blogs`, bob.token)).statusCode).toBe(403);

    await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/change-saved-liked-blog-visibility',
      headers: bearer(ann.token),
      payload: { showSavedBlogs: false, showLikedBlogs: true },
    });
    expect((await get(`/users/${ann.username}/saved-blogs`, bob.token)).statusCode).toBe(403);
    // Shared with everyone, each reader sees only the drafts they may read: Bob none, Cat her own, Ann hers.
    expect(ids(await get(`/users/${ann.username}/liked-blogs`, bob.token))).toEqual([blogs.bob!.blogId]);
    expect(ids(await get(`/users/${ann.username}/liked-blogs`))).toEqual([blogs.bob!.blogId]);
    expect(ids(await get(`/users/${ann.username}/liked-blogs`, cat.token))).toEqual([blogs.catDraft!.blogId, blogs.bob!.blogId]);
    expect(ids(await get(`/users/${ann.username}/liked-blogs`, ann.token))).toEqual([blogs.annDraft!.blogId, blogs.bob!.blogId]);
    expect((await get(`/users/${ann.username}`)).json().user).toMatchObject({ showLikedBlogs: true, showSavedBlogs: false });
  });
});

describe('followers and following', () => {
  it('lists people newest first with whether the viewer follows each', async () => {
    const res = await get(`/users/${ann.username}/followers`, bob.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      hasMore: false,
      users: [
        { _id: cat.id, name: 'Cat', username: cat.username, profilePic: null, isFollowing: false },
        { _id: bob.id, name: 'Bob', username: bob.username, profilePic: null, isFollowing: false },
      ],
    });
    const following = await get(`/users/${ann.username}/following?limit=1`, ann.token);
    expect(following.json().users).toEqual([{ _id: cat.id, name: 'Cat', username: cat.username, profilePic: null, isFollowing: true }]);
    expect(following.json().hasMore).toBe(true);
    const visitor = await get(`/users/${bob.username}/followers`);
    expect(visitor.json().users).toEqual([{ _id: ann.id, name: 'Ann', username: ann.username, profilePic: null, isFollowing: false }]);
  });
});

describe('PATCH /change-saved-liked-blog-visibility', () => {
  it('needs a token and boolean flags', async () => {
    const url = '/api/v1/change-saved-liked-blog-visibility';
    expect((await t.app.inject({ method: 'PATCH', url, payload: { showLikedBlogs: true } })).statusCode).toBe(401);
    for (const payload of [{ showLikedBlogs: 'yes' }, {}, { showSavedBlogs: null }]) {
      const res = await t.app.inject({ method: 'PATCH', url, headers: bearer(cat.token), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });
});
