import { USER_MESSAGES } from '@inkwell/core';
import { Redis } from 'ioredis';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, deadPort, ownConnectionInstance, type TestApp, type TestUser } from '../../../test/helpers';
import { multipartBody } from '../../../test/multipart';
import { PublicDataChanges } from '../../lib/public-data';
import { UserCards } from '../users/user-cards';
import { PostRefs } from './post-refs';

/** A read of a post's reference or a user's card with the acting user's (blogs.repo blogRefWithActor, users.repo cardWithActor). */
const refReads = (queries: CompiledQuery[]) => queries.filter((q) => /"users" as "actor"/.test(q.sql)).length;

const ROUTES = {
  like: ['POST', 'blogs/like'],
  save: ['PATCH', 'save-blog'],
  comment: ['POST', 'blogs/comment'],
} as const;

const write = (t: TestApp, user: TestUser, what: keyof typeof ROUTES, blogId: string) =>
  t.app.inject({
    method: ROUTES[what][0],
    url: `/api/v1/${ROUTES[what][1]}/${blogId}`,
    headers: bearer(user.token),
    payload: what === 'comment' ? { comment: 'Kept reference' } : undefined,
  });

describe('a post’s reference kept between writes', () => {
  let t: TestApp;
  let moderator: TestUser;
  const queries: CompiledQuery[] = [];
  beforeAll(async () => {
    t = await createTestApp({}, undefined, (q) => queries.push(q));
    moderator = await createUser(t, { name: 'Ref Moderator' });
    await t.app.services.moderation.setRole(null, moderator.id, 'moderator');
  });
  afterAll(async () => t.close());

  /** A post and two readers who have each written to it once (their cards and the post are known). */
  async function setUp() {
    const author = await createUser(t, { name: 'Ref Author' });
    const [reader, other] = await Promise.all([createUser(t, { name: 'Ref Reader' }), createUser(t, { name: 'Ref Other' })]);
    const { blogId } = await createBlog(t, author, { title: 'Kept reference' });
    expect((await write(t, reader, 'like', blogId)).statusCode).toBe(200);
    expect((await write(t, other, 'save', blogId)).statusCode).toBe(200);
    return { author, reader, other, blogId };
  }

  it('answers a like, a save and a comment after the first without reading the post again', async () => {
    const { reader, other, blogId } = await setUp();
    queries.length = 0;
    const unlike = await write(t, reader, 'like', blogId);
    expect(unlike.json()).toMatchObject({ liked: false, likeCount: 0 });
    expect((await write(t, other, 'like', blogId)).json()).toMatchObject({ liked: true, likeCount: 1 });
    const comment = await write(t, reader, 'comment', blogId);
    expect(comment.statusCode).toBe(201);
    // The commenter's card, kept too, is the one the answer shows.
    expect(comment.json().newComment.user).toMatchObject({ name: 'Ref Reader', username: reader.username });
    expect(refReads(queries)).toBe(0);
  });

  it('reads the post again after its author unpublishes it, and refuses the like', async () => {
    const { author, reader, blogId } = await setUp();
    const draft = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(author.token),
      payload: {
        title: 'Kept reference',
        description: 'd',
        tags: [],
        draft: true,
        content: { blocks: [{ type: 'paragraph', data: { text: 'b' } }] },
      },
    });
    expect(draft.statusCode).toBe(200);
    expect((await write(t, reader, 'like', blogId)).statusCode).toBe(404);
    expect((await write(t, reader, 'comment', blogId)).statusCode).toBe(404);
  });

  it('refuses a like and a comment right after a moderator hides the post', async () => {
    const { reader, blogId } = await setUp();
    const hide = await t.app.inject({
      method: 'POST',
      url: `/api/v1/moderation/posts/${blogId}/hide`,
      headers: bearer(moderator.token),
      payload: { reason: 'Test' },
    });
    expect(hide.statusCode).toBe(200);
    expect((await write(t, reader, 'like', blogId)).statusCode).toBe(404);
    expect((await write(t, reader, 'comment', blogId)).statusCode).toBe(404);
  });

  it('refuses a new like and comment right after the author blocks the reader (the author’s block flag was kept as none)', async () => {
    const { author, other, blogId } = await setUp();
    const block = await t.app.inject({ method: 'POST', url: `/api/v1/users/${other.id}/block`, headers: bearer(author.token) });
    expect(block.statusCode).toBe(200);
    // Taking one's own save back stays allowed across the block; adding a like or a comment is not.
    expect((await write(t, other, 'save', blogId)).json()).toMatchObject({ saved: false });
    expect((await write(t, other, 'like', blogId)).statusCode).toBe(403);
    expect((await write(t, other, 'comment', blogId)).statusCode).toBe(403);
  });

  it('shows the commenter’s new name on the comment right after they change it', async () => {
    const { reader, blogId } = await setUp();
    const form = multipartBody({ name: 'Renamed Reader', username: reader.username, bio: '' });
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${reader.id}`,
      headers: { ...form.headers, ...bearer(reader.token) },
      payload: form.payload,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const renamed = await write(t, reader, 'comment', blogId);
    expect(renamed.statusCode, renamed.body).toBe(201);
    expect(renamed.json().newComment.user.name).toBe('Renamed Reader');
  });

  it('refuses the write of a user whose account is gone (their token state is still kept)', async () => {
    const { author, reader, blogId } = await setUp();
    await t.database.db.deleteFrom('users').where('id', '=', reader.id).execute();
    for (const res of [await write(t, reader, 'like', blogId), await write(t, reader, 'comment', blogId), await follow(reader, author)]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().message).toBe(USER_MESSAGES.sessionExpired);
    }
  });

  const follow = (fan: TestUser, target: TestUser) =>
    t.app.inject({ method: 'PATCH', url: `/api/v1/follow/${target.id}`, headers: bearer(fan.token) });

  it('answers a follow after the first without reading the two users again, with the followed user’s name as it is', async () => {
    const { author, reader } = await setUp();
    expect((await follow(reader, author)).json().following).toBe(true);
    queries.length = 0;
    expect((await follow(reader, author)).json()).toMatchObject({ following: false, message: 'You unfollowed Ref Author' });
    expect(refReads(queries)).toBe(0);
    const form = multipartBody({ name: 'Renamed Author', username: author.username, bio: '' });
    const headers = { ...form.headers, ...bearer(author.token) };
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${author.id}`, headers, payload: form.payload })).statusCode).toBe(
      200,
    );
    expect((await follow(reader, author)).json().message).toBe('You are now following Renamed Author');
  });

  it('keeps a user’s block flag as a write’s read of the post took it, so a follow on the kept cards still finds the block', async () => {
    const { author, reader, blogId } = await setUp();
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/users/${author.id}/block`, headers: bearer(reader.token) })).statusCode,
    ).toBe(200);
    // Refused, but read: the reader's card (now flagged) is kept from the post's reference read.
    expect((await write(t, reader, 'comment', blogId)).statusCode).toBe(403);
    // The author's card, kept from a write of their own.
    expect((await write(t, author, 'like', blogId)).statusCode).toBe(200);
    queries.length = 0;
    expect((await follow(author, reader)).statusCode).toBe(403);
    expect(refReads(queries)).toBe(0);
  });

  it('refuses a follow right after the followed user blocks the follower (their block flag was kept as none)', async () => {
    const { author, reader } = await setUp();
    expect((await follow(reader, author)).json().following).toBe(true);
    expect((await follow(reader, author)).json().following).toBe(false);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/users/${reader.id}/block`, headers: bearer(author.token) })).statusCode,
    ).toBe(200);
    expect((await follow(reader, author)).statusCode).toBe(403);
  });
});

test('with the response cache off, every write reads the post', async () => {
  const queries: CompiledQuery[] = [];
  const t = await createTestApp({ responseCache: false }, undefined, (q) => queries.push(q));
  try {
    const [author, reader] = await Promise.all([createUser(t), createUser(t)]);
    const { blogId } = await createBlog(t, author, { title: 'Never kept' });
    await write(t, reader, 'like', blogId);
    queries.length = 0;
    expect((await write(t, reader, 'like', blogId)).statusCode).toBe(200);
    expect(refReads(queries)).toBe(1);
  } finally {
    await t.close();
  }
});

test('while another instance’s changes may not reach this one (Redis unreachable), nothing is kept', async () => {
  const queries: CompiledQuery[] = [];
  const t = await createTestApp({}, undefined, (q) => queries.push(q));
  // A real client to a port nobody listens on: never subscribed, so the change feed is not reliable.
  const redis = new Redis(`redis://127.0.0.1:${await deadPort()}`, {
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    enableOfflineQueue: false,
  });
  redis.on('error', () => {});
  const publicData = new PublicDataChanges(t.database.writes, { redis, channel: 'test:nobody', log: t.app.log });
  try {
    const refs = new PostRefs({
      blogs: t.app.services.repos.blogs,
      cards: new UserCards(t.app.services.repos.users, publicData),
      publicData,
    });
    const [author, reader] = await Promise.all([createUser(t), createUser(t)]);
    const { blogId } = await createBlog(t, author, { title: 'Never kept' });
    queries.length = 0;
    expect((await refs.withActor(blogId, reader.id))?.actor_username).toBe(reader.username);
    expect((await refs.withActor(blogId, reader.id))?.actor_username).toBe(reader.username);
    expect(refReads(queries)).toBe(2);
    expect(refs.knows(blogId)).toBe(false);
  } finally {
    publicData.close();
    redis.disconnect();
    await t.close();
  }
});

describe.skipIf(!process.env.TEST_REDIS_URL)('a post’s reference across instances', () => {
  test('a moderator’s hide on one instance reaches the reference the other kept', async () => {
    const a = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL });
    const b = await ownConnectionInstance(a, { redisUrl: process.env.TEST_REDIS_URL });
    try {
      const [author, reader, moderator] = await Promise.all([createUser(a), createUser(a), createUser(a)]);
      await a.app.services.moderation.setRole(null, moderator.id, 'moderator');
      const { blogId } = await createBlog(a, author, { title: 'Hidden elsewhere' });
      // b keeps the post once it has heard of everything written so far (its messages may land after a first write).
      for (let i = 0; i < 100 && !b.app.services.refs.knows(blogId); i++) {
        expect((await write(b, reader, 'like', blogId)).statusCode).toBe(200);
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(b.app.services.refs.knows(blogId)).toBe(true);
      const hide = await a.app.inject({
        method: 'POST',
        url: `/api/v1/moderation/posts/${blogId}/hide`,
        headers: bearer(moderator.token),
        payload: { reason: 'Test' },
      });
      expect(hide.statusCode).toBe(200);
      // The hide's message reaches b within moments (a write's answer waits for its publish); then b refuses.
      let status = 0;
      for (let i = 0; i < 100 && status !== 404; i++) {
        status = (await write(b, reader, 'comment', blogId)).statusCode;
        if (status !== 404) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(404);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
