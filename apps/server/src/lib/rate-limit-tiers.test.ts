import { RATE_LIMITS, rateLimitFor } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';

/**
 * The new-account tier (issue 15) at the real counts (RATE_LIMIT_FACTOR 1). Accounts are made and
 * aged through `setup` (the default test factor, so sign-ups are not limited); every counted
 * request goes to `live`, a second instance on the same database, each account from its own
 * address so only per-account counts are reached.
 */
describe('the new-account tier of the write limits', () => {
  let setup: TestApp;
  let live: TestApp;
  let address = 0;
  const ips = new Map<string, string>();
  const ipOf = (u: TestUser) => {
    if (!ips.has(u.id)) ips.set(u.id, `10.60.${Math.floor(address / 250)}.${(address++ % 250) + 1}`);
    return ips.get(u.id)!;
  };

  beforeAll(async () => {
    setup = await createTestApp();
    live = await createTestApp({ rateLimitFactor: 1 }, setup);
  });
  afterAll(async () => {
    await live?.close();
    await setup?.close();
  });

  const age = (u: TestUser, hours: number) =>
    setup.database.db
      .updateTable('users')
      .set({ created_at: new Date(Date.now() - hours * 3600 * 1000).toISOString() })
      .where('id', '=', u.id)
      .execute();

  /** A fresh account: minutes old, nothing published. */
  const fresh = () => createUser(setup);
  /** Two days old with a published blog: the standard tier. */
  const established = async () => {
    const u = await createUser(setup);
    await createBlog(setup, u);
    await age(u, 48);
    return u;
  };

  const newPost = (u: TestUser, fields: Record<string, unknown> = {}) =>
    live.app.inject({
      method: 'POST',
      url: '/api/v1/blogs',
      headers: bearer(u.token),
      remoteAddress: ipOf(u),
      payload: {
        title: 'Limit',
        description: 'd',
        tags: ['x'],
        content: { blocks: [{ type: 'paragraph', data: { text: 'hi' } }] },
        draft: true,
        ...fields,
      },
    });
  const postCodes = async (u: TestUser, n: number) => {
    const codes: number[] = [];
    for (let i = 0; i < n; i++) codes.push((await newPost(u)).statusCode);
    return codes;
  };
  const newAccountPosts = rateLimitFor('post', 'perUser', 'new-account')!;

  it('answers a new account 429 on the post after its lower count, where an established account is still allowed', async () => {
    const [spam, writer] = [await fresh(), await established()];
    expect(await postCodes(spam, newAccountPosts + 1)).toEqual([...Array(newAccountPosts).fill(201), 429]);
    expect(await postCodes(writer, newAccountPosts + 1)).toEqual(Array(newAccountPosts + 1).fill(201));
    const refused = await newPost(spam);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({
      success: false,
      message: expect.stringMatching(
        new RegExp(
          `^New accounts can create ${newAccountPosts} blogs an hour until they are 24 hours old and have published a blog\\. Please try again in \\d+ minutes\\.$`,
        ),
      ),
    });
    // The refused requests created nothing.
    const rows = await setup.database.db.selectFrom('blogs').select('id').where('creator_id', '=', spam.id).execute();
    expect(rows).toHaveLength(newAccountPosts);
  });

  it('needs both a day of age and a published blog: either alone keeps the lower count', async () => {
    const oldButSilent = await fresh();
    await age(oldButSilent, 72);
    const youngPublished = await fresh();
    await createBlog(setup, youngPublished);
    await age(youngPublished, 23);
    for (const u of [oldButSilent, youngPublished])
      expect(await postCodes(u, newAccountPosts + 1)).toEqual([...Array(newAccountPosts).fill(201), 429]);
  });

  it('moves an old account to the standard count the moment it publishes its first blog', async () => {
    const u = await fresh();
    await age(u, 48);
    const drafts: string[] = [];
    for (let i = 0; i < newAccountPosts; i++) drafts.push((await newPost(u)).json().blog.blogId);
    expect((await newPost(u)).statusCode).toBe(429);
    const publish = await live.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${drafts[0]}`,
      headers: bearer(u.token),
      remoteAddress: ipOf(u),
      payload: {
        title: 'Published',
        description: 'd',
        tags: ['x'],
        content: { blocks: [{ type: 'paragraph', data: { text: 'hi' } }] },
        draft: false,
      },
    });
    expect(publish.statusCode, publish.body).toBe(200);
    // No cached account facts to wait for: the same token's next request is counted in the standard tier.
    expect((await newPost(u)).statusCode).toBe(201);
  });

  describe('comments with links', () => {
    const linkCount = rateLimitFor('comment-link', 'perUser', 'new-account')!;
    let blogId: string;
    beforeAll(async () => {
      blogId = (await createBlog(setup, await established())).blogId;
    });
    const comment = (u: TestUser, text: string) =>
      live.app.inject({
        method: 'POST',
        url: `/api/v1/blogs/comment/${blogId}`,
        payload: { comment: text },
        headers: bearer(u.token),
        remoteAddress: ipOf(u),
      });
    const reply = (u: TestUser, parent: string, text: string) =>
      live.app.inject({
        method: 'POST',
        url: `/api/v1/comment/${parent}/${blogId}`,
        payload: { reply: text },
        headers: bearer(u.token),
        remoteAddress: ipOf(u),
      });

    it('limits a new account’s comments and replies with links, not its other comments, and not an established account', async () => {
      expect(linkCount).toBeLessThan(RATE_LIMITS.comment.perUser);
      const [spam, reader] = [await fresh(), await established()];
      const first = await comment(spam, 'cheap pills at https://spam.example/buy');
      expect(first.statusCode).toBe(201);
      const parent = first.json().newComment._id as string;
      const codes = [first.statusCode];
      for (let i = 1; i < linkCount; i++) codes.push((await reply(spam, parent, `more at www.spam${i}.example`)).statusCode);
      codes.push((await comment(spam, 'and spam.example/again')).statusCode);
      expect(codes).toEqual([...Array(linkCount).fill(201), 429]);
      const refusedReply = await reply(spam, parent, 'https://spam.example/reply');
      expect(refusedReply.statusCode).toBe(429);
      expect(refusedReply.json().message).toMatch(
        new RegExp(
          `^New accounts can post ${linkCount} comments with links an hour until they are 24 hours old and have published a blog\\. Please try again in \\d+ minutes\\.$`,
        ),
      );
      // Without a link the same account still comments (within the ordinary comment limit).
      expect((await comment(spam, 'I like node.js a lot')).statusCode).toBe(201);
      // An established account posts more comments with links than a new one may.
      for (let i = 0; i <= linkCount; i++) expect((await comment(reader, `docs: https://kysely.dev/${i}`)).statusCode).toBe(201);
      const texts = await setup.database.db.selectFrom('comments').select('comment').where('user_id', '=', spam.id).execute();
      expect(texts.map((r) => r.comment).filter((c) => c.includes('spam.example/again') || c.includes('/reply'))).toEqual([]);
    });
  });

  it('counts an edit that leaves a link in a comment against the same lower count', async () => {
    const linkCount = rateLimitFor('comment-link', 'perUser', 'new-account')!;
    const { blogId } = await createBlog(setup, await established());
    const spam = await fresh();
    const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      live.app.inject({ method, url: `/api/v1${url}`, payload, headers: bearer(spam.token), remoteAddress: ipOf(spam) });
    const plain = await send('POST', `/blogs/comment/${blogId}`, { comment: 'An innocent first comment' });
    expect(plain.statusCode).toBe(201);
    const id = plain.json().newComment._id as string;
    const codes: number[] = [];
    for (let i = 0; i <= linkCount; i++)
      codes.push(
        (await send('PATCH', `/blogs/edit-comment/${id}`, { updatedCommentContent: `now with https://spam.example/${i}` })).statusCode,
      );
    expect(codes).toEqual([...Array(linkCount).fill(200), 429]);
    // An edit without a link is not counted by it.
    expect((await send('PATCH', `/blogs/edit-comment/${id}`, { updatedCommentContent: 'Sorry, fixed' })).statusCode).toBe(200);
    const stored = await setup.database.db.selectFrom('comments').select('comment').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.comment).toBe('Sorry, fixed');
  });

  describe('follows', () => {
    const followCount = rateLimitFor('follow', 'perUser', 'new-account')!;
    it('answers a new account 429 after its lower count of follows, where an established account is still allowed', async () => {
      expect(followCount).toBeLessThan(RATE_LIMITS.follow.perUser);
      const [spam, reader, target] = [await fresh(), await established(), await createUser(setup)];
      const toggle = (u: TestUser) =>
        live.app.inject({ method: 'PATCH', url: `/api/v1/follow/${target.id}`, headers: bearer(u.token), remoteAddress: ipOf(u) });
      const codes: number[] = [];
      for (let i = 0; i <= followCount; i++) codes.push((await toggle(spam)).statusCode);
      expect(codes).toEqual([...Array(followCount).fill(200), 429]);
      const refused = await toggle(spam);
      expect(refused.json().message).toMatch(
        /^New accounts can follow or unfollow \d+ times a day until they are 24 hours old and have published a blog\. Please try again in \d+ hours\.$/,
      );
      for (let i = 0; i <= followCount; i++) expect((await toggle(reader)).statusCode).toBe(200);
    });
  });
});
