import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, everyBlock } from '../../../test/blogs';
import { addFollowers } from '../../../test/followers';
import { bearer, createTestApp, createUser, ENGINE, sql, type TestApp } from '../../../test/helpers';
import { pngImage } from '../../../test/images';
import { multipartBody } from '../../../test/multipart';
import { blogCounts, comment, commentCounts, count, follow, likeComment, notify, react, userRow } from './test-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const me = (token: string) => t.app.inject({ url: '/api/v1/me', headers: bearer(token) });
const signin = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email, password } });
const changePassword = (token: string | null, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: '/api/v1/change-password', headers: token ? bearer(token) : {}, payload });
const deleteAccount = (token: string | null, id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: token ? bearer(token) : {}, payload });
const makeGoogleAccount = (id: string) =>
  t.database.db.updateTable('users').set({ google_auth: 1, password_hash: null }).where('id', '=', id).execute();

describe('PATCH /change-password', () => {
  it('needs a token, the right current password and a long enough new one', async () => {
    const u = await createUser(t);
    expect((await changePassword(null, { currentPassword: u.password, newPassword: 'newsecret1' })).statusCode).toBe(401);
    const wrong = await changePassword(u.token, { currentPassword: 'not-it', newPassword: 'newsecret1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ success: false, message: 'Current password is incorrect' });
    const short = await changePassword(u.token, { currentPassword: u.password, newPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('New password must be at least 6 characters');
    expect((await changePassword(u.token, { newPassword: 'newsecret1' })).statusCode).toBe(400);
    expect((await changePassword(u.token, { currentPassword: 5, newPassword: 'newsecret1' })).statusCode).toBe(400);
  });

  it('revokes every existing token; the new password signs in and the old one does not', async () => {
    const u = await createUser(t);
    const res = await changePassword(u.token, { currentPassword: u.password, newPassword: 'brand-new-pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Password changed successfully' });
    expect((await me(u.token)).statusCode).toBe(401);
    expect((await signin(u.email, u.password)).statusCode).toBe(401);
    const fresh = await signin(u.email, 'brand-new-pass');
    expect(fresh.statusCode).toBe(200);
    expect((await me(fresh.json().user.token)).statusCode).toBe(200);
  });

  it('tells Google accounts they have no password', async () => {
    const u = await createUser(t);
    await makeGoogleAccount(u.id);
    const res = await changePassword(u.token, { currentPassword: 'whatever', newPassword: 'newsecret1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Google accounts do not have a password');
  });
});

describe('DELETE /users/{id}', () => {
  it('needs a token, the own account and the current password', async () => {
    const [u, other] = await Promise.all([createUser(t), createUser(t)]);
    expect((await deleteAccount(null, u.id, { currentPassword: u.password })).statusCode).toBe(401);
    const foreign = await deleteAccount(other.token, u.id, { currentPassword: other.password });
    expect(foreign.statusCode).toBe(403);
    const missing = await deleteAccount(u.token, u.id, { googleAuth: false });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please enter your current password');
    // Claiming to be a Google account does not skip the check.
    expect((await deleteAccount(u.token, u.id, { googleAuth: true })).statusCode).toBe(400);
    const wrong = await deleteAccount(u.token, u.id, { currentPassword: 'not-it' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('Current password is incorrect');
    expect((await deleteAccount(u.token, u.id, { currentPassword: ['x'] })).statusCode).toBe(400);
    expect(await userRow(t, u.id)).toBeDefined();
  });

  it('deletes a Google account without a password', async () => {
    const u = await createUser(t);
    await makeGoogleAccount(u.id);
    const res = await deleteAccount(u.token, u.id, { googleAuth: true });
    expect(res.statusCode).toBe(200);
    expect(await userRow(t, u.id)).toBeUndefined();
  });

  it('removes everything the user owned and recounts what other people keep', async () => {
    const [gone, bob, cat] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const { payload, headers } = multipartBody(
      { title: 'Zanzibarquartz notes', description: 'd', content: { blocks: everyBlock() }, tags: ['x'], draft: 'false' },
      [{ field: 'image', filename: 'a.png', content: await pngImage(), contentType: 'image/png' }],
    );
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/blogs', headers: { ...headers, ...bearer(gone.token) }, payload });
    expect(created.statusCode).toBe(201);
    const goneBlog = created.json().blog as { _id: string; image: string };
    const pic = multipartBody({}, [{ field: 'profilePic', filename: 'me.png', content: await pngImage(80, 80), contentType: 'image/png' }]);
    const avatar = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${gone.id}`,
      headers: { ...pic.headers, ...bearer(gone.token) },
      payload: pic.payload,
    });
    expect(avatar.statusCode).toBe(200);
    const files = (await t.database.db.selectFrom('uploads').select('storage_key').where('owner_id', '=', gone.id).execute()).map((r) =>
      path.join(t.config.dataDir, 'uploads', r.storage_key),
    );
    expect(files.length).toBeGreaterThan(0);
    const bobBlog = await createBlog(t, bob, { title: 'Bob keeps this' });

    // On Bob's blog: likes, saves, comments and replies both ways, comment likes.
    await react(t, 'likes', gone.id, bobBlog._id);
    await react(t, 'likes', cat.id, bobBlog._id);
    await react(t, 'saves', gone.id, bobBlog._id);
    const bobComment = await comment(t, bob.id, bobBlog._id);
    const goneReply = await comment(t, gone.id, bobBlog._id, bobComment);
    await comment(t, cat.id, bobBlog._id, goneReply);
    const goneComment = await comment(t, gone.id, bobBlog._id);
    await likeComment(t, gone.id, bobComment);
    await likeComment(t, cat.id, bobComment);
    await likeComment(t, bob.id, goneComment);
    // On the deleted user's blog: Bob's like and comment go with it.
    await react(t, 'likes', bob.id, goneBlog._id);
    await comment(t, bob.id, goneBlog._id);
    await follow(t, gone.id, bob.id);
    await follow(t, cat.id, gone.id);
    await follow(t, cat.id, bob.id);
    await notify(t, bob.id, gone.id);
    await notify(t, gone.id, bob.id);

    const search = () => t.app.inject({ url: '/api/v1/search-blogs?search=zanzibarquartz' });
    expect((await search()).json().blogs).toHaveLength(1);
    const ftsRows = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM blogs_fts`.execute(t.database.db)).rows[0]!.n);
    const ftsBefore = ENGINE === 'sqlite' ? await ftsRows() : 0;

    const res = await deleteAccount(gone.token, gone.id, { currentPassword: gone.password, googleAuth: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Account deleted successfully' });

    expect(await userRow(t, gone.id)).toBeUndefined();
    expect((await me(gone.token)).statusCode).toBe(401);
    for (const table of ['likes', 'saves', 'comments', 'comment_likes'] as const) expect(await count(t, table, 'user_id', gone.id)).toBe(0);
    expect(await count(t, 'uploads', 'owner_id', gone.id)).toBe(0);
    expect(await count(t, 'blogs', 'creator_id', gone.id)).toBe(0);
    expect(await count(t, 'follows', 'follower_id', gone.id)).toBe(0);
    expect(await count(t, 'follows', 'following_id', gone.id)).toBe(0);
    expect(await count(t, 'notifications', 'sender_id', gone.id)).toBe(0);
    expect(await count(t, 'notifications', 'recipient_id', gone.id)).toBe(0);
    for (const file of files) expect(existsSync(file)).toBe(false);
    expect((await search()).json().blogs).toHaveLength(0);
    if (ENGINE === 'sqlite') expect(await ftsRows()).toBe(ftsBefore - 1);

    // Only Bob's own comment remains on his blog (the reply under the deleted one went with it).
    expect(await blogCounts(t, bobBlog._id)).toEqual({ like_count: 1, save_count: 0, comment_count: 1 });
    expect(await commentCounts(t, bobComment)).toEqual({ like_count: 1, reply_count: 0 });
    expect(await userRow(t, bob.id)).toMatchObject({ follower_count: 1, following_count: 0, published_count: 1 });
    expect(await userRow(t, cat.id)).toMatchObject({ follower_count: 0, following_count: 1 });
    const profile = (await t.app.inject({ url: `/api/v1/users/${bob.username}` })).json().user;
    expect(profile).toMatchObject({ followerCount: 1, followingCount: 0, publishedCount: 1, likedCount: 0 });
  });

  it('deletes an account with more followers than one statement can name (PostgreSQL binds at most 65,535 values)', async () => {
    const gone = await createUser(t);
    const { db } = t.database;
    const fans = await addFollowers(t, gone, 70_000);

    const res = await deleteAccount(gone.token, gone.id, { currentPassword: gone.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db.selectFrom('follows').select('follower_id').where('following_id', '=', gone.id).execute()).toHaveLength(0);
    const fan = await db.selectFrom('users').select('following_count').where('email', 'like', fans).executeTakeFirst();
    expect(fan?.following_count).toBe(0);
  }, 120_000);

  it("takes its mail out of the outbox (address and bodies, sent or not) and keeps everyone else's", async () => {
    const [gone, stays] = await Promise.all([createUser(t), createUser(t)]);
    const outbox = (address: string) =>
      t.database.db.selectFrom('mail_outbox').select(['to_address', 'text_body']).where('to_address', '=', address).execute();
    // The verification mail (sent) and one still waiting.
    await t.app.services.repos.mail.insert({ to: gone.email, subject: 'Pending', text: `Hello ${gone.name}` });
    expect((await outbox(gone.email)).length).toBeGreaterThanOrEqual(2);
    const kept = (await outbox(stays.email)).length;
    expect(kept).toBeGreaterThan(0);

    expect((await deleteAccount(gone.token, gone.id, { currentPassword: gone.password })).statusCode).toBe(200);
    expect(await outbox(gone.email)).toEqual([]);
    expect((await outbox(stays.email)).length).toBe(kept);
  });
});
