import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser, uniqueEmail } from '../../../test/helpers';
import { blogCounts, comment, commentCounts, count, follow, likeComment, react, userRow } from '../users/test-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const requestTransfer = (user: TestUser | null, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/transfer-account', headers: user ? bearer(user.token) : {}, payload });
const confirm = (link: string) => t.app.inject({ url: `/api/v1${new URL(link).pathname}` });

/** Both links of the newest transfer mail to the address (latestMailLink returns only the first). */
async function transferLinks(to: string): Promise<{ accept: string; reject: string }> {
  const row = await t.database.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const links = row.text_body.match(/https?:\/\/\S+/g) ?? [];
  const accept = links.find((l) => l.includes('/confirm-transfer/accept/'));
  const reject = links.find((l) => l.includes('/confirm-transfer/reject/'));
  if (!accept || !reject) throw new Error(`no transfer links in mail to ${to}`);
  return { accept, reject };
}

async function pair(): Promise<[TestUser, TestUser]> {
  const [from, to] = await Promise.all([createUser(t, { name: 'Sender' }), createUser(t, { name: 'Recipient' })]);
  return [from, to];
}

describe('POST /transfer-account', () => {
  it('checks the token, the input and the password with the spec’s messages', async () => {
    const [from, to] = await pair();
    const unverified = uniqueEmail('pending');
    await t.app.inject({ method: 'POST', url: '/api/v1/signup', payload: { name: 'P', email: unverified, password: 'quill-and-ink-42' } });
    expect((await requestTransfer(null, { newOwnerEmail: to.email })).statusCode).toBe(401);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ currentPassword: from.password }, 400, 'Recipient email is required'],
      [{ newOwnerEmail: '  ', currentPassword: from.password }, 400, 'Recipient email is required'],
      [{ newOwnerEmail: 'not-an-email', currentPassword: from.password }, 400, 'Invalid email format'],
      [{ newOwnerEmail: from.email.toUpperCase(), currentPassword: from.password }, 400, 'Cannot transfer to yourself'],
      [{ newOwnerEmail: to.email, googleAuth: true }, 400, 'Current password is required'],
      [{ newOwnerEmail: to.email, currentPassword: 'wrong-one' }, 403, 'Incorrect password'],
      [{ newOwnerEmail: uniqueEmail('ghost'), currentPassword: from.password }, 404, 'User not found with this email'],
      [{ newOwnerEmail: unverified, currentPassword: from.password }, 404, 'User not found with this email'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await requestTransfer(from, payload);
      expect({ payload, status: res.statusCode, body: res.json() }).toEqual({ payload, status, body: { success: false, message } });
    }
    expect(await count(t, 'transfer_requests', 'from_user_id', from.id)).toBe(0);
  });

  it('mails the recipient both links and the sender a notice', async () => {
    const [from, to] = await pair();
    const res = await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password, googleAuth: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Transfer request sent. The recipient must accept it from their email.' });
    const { accept, reject } = await transferLinks(to.email);
    expect(accept).toMatch(/^http:\/\/localhost:3000\/confirm-transfer\/accept\/[A-Za-z0-9_-]{43}$/);
    expect(reject).toMatch(/^http:\/\/localhost:3000\/confirm-transfer\/reject\/[A-Za-z0-9_-]{43}$/);
    const notice = await t.database.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', from.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(notice.subject).toBe('You requested an account transfer');
    const row = await t.database.db
      .selectFrom('transfer_requests')
      .selectAll()
      .where('from_user_id', '=', from.id)
      .executeTakeFirstOrThrow();
    // Only hashes are stored.
    expect(JSON.stringify(row)).not.toContain(accept.split('/').pop());
    expect(Date.parse(row.expires_at) - Date.now()).toBeGreaterThan(47 * 3600_000);
  });
  it('needs no password from a Google account', async () => {
    const [from, to] = await pair();
    await t.database.db.updateTable('users').set({ google_auth: 1, password_hash: null }).where('id', '=', from.id).execute();
    const res = await requestTransfer(from, { newOwnerEmail: to.email, googleAuth: true });
    expect(res.statusCode).toBe(200);
    expect(await count(t, 'transfer_requests', 'from_user_id', from.id)).toBe(1);
  });
});

describe('GET /confirm-transfer/{action}/{token}', () => {
  it('accepts: moves blogs, comments, reactions and followers, deletes the sender, and recounts', async () => {
    const [from, to] = await pair();
    const [fan, both, author] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const published = await createBlog(t, from, { title: 'Moves over' });
    const draft = await createBlog(t, from, { title: 'Draft moves too', draft: true });
    await createBlog(t, to, { title: 'Recipient own' });
    const other = await createBlog(t, author, { title: 'Liked by both' });
    await react(t, 'likes', from.id, other._id);
    await react(t, 'likes', to.id, other._id);
    await react(t, 'saves', from.id, other._id);
    await react(t, 'likes', fan.id, published._id);
    const fanComment = await comment(t, fan.id, other._id);
    const fromReply = await comment(t, from.id, other._id, fanComment);
    await likeComment(t, from.id, fanComment);
    await likeComment(t, to.id, fanComment);
    await follow(t, fan.id, from.id);
    await follow(t, both.id, from.id);
    await follow(t, both.id, to.id);
    await follow(t, to.id, from.id);
    await follow(t, from.id, author.id);

    await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password });
    const { accept } = await transferLinks(to.email);
    const res = await confirm(accept);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Account transferred successfully',
      data: { transferredBlogs: 2, transferredComments: 1, transferredFollowers: 1 },
    });

    expect(await userRow(t, from.id)).toBeUndefined();
    expect((await t.app.inject({ url: '/api/v1/me', headers: bearer(from.token) })).statusCode).toBe(401);
    expect(await count(t, 'blogs', 'creator_id', to.id)).toBe(3);
    expect(
      (await t.database.db.selectFrom('blogs').select('creator_id').where('id', '=', draft._id).executeTakeFirstOrThrow()).creator_id,
    ).toBe(to.id);
    expect(
      (await t.database.db.selectFrom('comments').select('user_id').where('id', '=', fromReply).executeTakeFirstOrThrow()).user_id,
    ).toBe(to.id);
    // The blog both liked keeps one like; the save moved; the comment both liked keeps one like.
    expect(await blogCounts(t, other._id)).toEqual({ like_count: 1, save_count: 1, comment_count: 2 });
    expect(await count(t, 'saves', 'user_id', to.id)).toBe(1);
    expect(await commentCounts(t, fanComment)).toEqual({ like_count: 1, reply_count: 1 });
    expect(await blogCounts(t, published._id)).toEqual({ like_count: 1, save_count: 0, comment_count: 0 });
    // fan now follows the recipient; both already did; the recipient does not follow itself.
    expect(await userRow(t, to.id)).toMatchObject({ published_count: 2, follower_count: 2, following_count: 0 });
    expect(await userRow(t, fan.id)).toMatchObject({ following_count: 1 });
    expect(await userRow(t, both.id)).toMatchObject({ following_count: 1 });
    expect(await userRow(t, author.id)).toMatchObject({ follower_count: 0 });
    expect(await count(t, 'follows', 'follower_id', to.id)).toBe(0);

    const again = await confirm(accept);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: 'This transfer link is invalid or has expired.' });
  });

  it('rejects without moving anything; the accept link then stops working', async () => {
    const [from, to] = await pair();
    await createBlog(t, from, { title: 'Stays' });
    await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password });
    const { accept, reject } = await transferLinks(to.email);
    const res = await confirm(reject);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Transfer request rejected',
      data: { transferredBlogs: 0, transferredComments: 0, transferredFollowers: 0 },
    });
    expect(await userRow(t, from.id)).toBeDefined();
    expect(await count(t, 'blogs', 'creator_id', from.id)).toBe(1);
    expect((await confirm(accept)).statusCode).toBe(400);
    expect((await confirm(reject)).statusCode).toBe(400);
  });

  it('refuses to move an account while either side is suspended, and works again once the suspension is lifted', async () => {
    const moderator = await createUser(t, { name: 'Mod' });
    await t.database.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
    const suspend = (user: TestUser, on: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/moderation/users/${user.id}/${on ? 'suspend' : 'unsuspend'}`,
        headers: bearer(moderator.token),
        payload: { reason: 'Review of the transfer rules' },
      });

    // The sender suspended after asking: the link is refused (nothing moves) until it is lifted.
    const [from, to] = await pair();
    const { blogId } = await createBlog(t, from, { title: 'Hidden with its author' });
    await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password });
    const { accept } = await transferLinks(to.email);
    expect((await suspend(from, true)).statusCode).toBe(200);
    const refused = await confirm(accept);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This transfer cannot be completed while one of the accounts is suspended.');
    expect(await count(t, 'blogs', 'creator_id', from.id)).toBe(1);
    expect((await suspend(from, false)).statusCode).toBe(200);
    expect((await confirm(accept)).statusCode).toBe(200);
    expect(await count(t, 'blogs', 'creator_id', to.id)).toBe(1);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).statusCode).toBe(200);

    // A suspended recipient: refused when asked, and refused at the link if suspended since.
    const [sender, recipient] = await pair();
    await createBlog(t, sender, { title: 'Stays public with its author' });
    expect((await suspend(recipient, true)).statusCode).toBe(200);
    const asked = await requestTransfer(sender, { newOwnerEmail: recipient.email, currentPassword: sender.password });
    expect(asked.statusCode).toBe(404);
    expect((await suspend(recipient, false)).statusCode).toBe(200);
    expect((await requestTransfer(sender, { newOwnerEmail: recipient.email, currentPassword: sender.password })).statusCode).toBe(200);
    const links = await transferLinks(recipient.email);
    expect((await suspend(recipient, true)).statusCode).toBe(200);
    expect((await confirm(links.accept)).statusCode).toBe(409);
    expect(await count(t, 'blogs', 'creator_id', sender.id)).toBe(1);
    // Declining moves nothing and stays possible.
    expect((await confirm(links.reject)).statusCode).toBe(200);
  });

  it('refuses expired, superseded, unknown and mismatched links', async () => {
    const [from, to] = await pair();
    await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password });
    const first = await transferLinks(to.email);
    await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password });
    const second = await transferLinks(to.email);
    expect((await confirm(first.accept)).statusCode).toBe(400);
    // An accept token on the reject path (and the other way round) is not a valid link.
    expect((await confirm(second.accept.replace('/accept/', '/reject/'))).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/api/v1/confirm-transfer/approve/${second.accept.split('/').pop()}` })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/confirm-transfer/accept/nonsense' })).statusCode).toBe(400);

    await t.database.db
      .updateTable('transfer_requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('from_user_id', '=', from.id)
      .execute();
    const expired = await confirm(second.accept);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('This transfer link is invalid or has expired.');
    expect(await userRow(t, from.id)).toBeDefined();
  });

  it('lets exactly one of twenty concurrent accepts succeed', async () => {
    const [from, to] = await pair();
    await createBlog(t, from, { title: 'Raced' });
    await follow(t, (await createUser(t)).id, from.id);
    await requestTransfer(from, { newOwnerEmail: to.email, currentPassword: from.password });
    const { accept } = await transferLinks(to.email);
    const results = await Promise.all(Array.from({ length: 20 }, () => confirm(accept)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(19);
    expect(results.find((r) => r.statusCode === 200)!.json().data).toEqual({
      transferredBlogs: 1,
      transferredComments: 0,
      transferredFollowers: 1,
    });
    expect(await userRow(t, to.id)).toMatchObject({ published_count: 1, follower_count: 1 });
  });
});
